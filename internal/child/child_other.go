//go:build !linux

package child

import (
	"os/exec"
	"syscall"
)

// sysProcAttr has no parent-death signal outside Linux: Watch's pipe
// ends an orphaned child there.
func sysProcAttr() *syscall.SysProcAttr { return nil }

func startLocked(cmd *exec.Cmd) error { return cmd.Start() }
