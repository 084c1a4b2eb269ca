//go:build windows

package child

import (
	"os"
	"syscall"
)

// defaultTempDir is empty on Windows: os.TempDir already falls back from
// TMP to TEMP to USERPROFILE.
func defaultTempDir() string { return "" }

// reraise ends this process after an interrupt: Windows has no default
// action to restore.
func reraise(os.Signal) { os.Exit(2) }

// signalOf is nil on Windows, where a process ends by exiting.
func signalOf(*os.ProcessState) os.Signal { return nil }

// inGroup leaves attr as it is: Windows has no process groups that a
// kill reaches, so a tool's own children are not killed with it.
func inGroup(attr *syscall.SysProcAttr) *syscall.SysProcAttr { return attr }

// killGroup kills p itself (Spec.Group on Windows).
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	return p.Kill()
}
