//go:build !linux

package child

import (
	"errors"
	"os/exec"
	"syscall"
)

// sysProcAttr has no parent-death signal outside Linux: Watch's pipe
// ends an orphaned child there.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// startLocked starts cmd. A child's AT_RANDOM bytes cannot be set here
// (AuxRandom); random must be nil.
func startLocked(cmd *exec.Cmd, random *[16]byte) error {
	if random != nil {
		return errors.New("this platform cannot set a child's AT_RANDOM bytes")
	}
	return cmd.Start()
}

// AuxRandom reports whether a child's AT_RANDOM bytes can be set here:
// only on Linux.
func AuxRandom() bool { return false }
