//go:build !windows

package child

import (
	"os"
	"syscall"
	"time"
)

// defaultTempDir is the system's temporary directory when $TMPDIR is not
// used.
func defaultTempDir() string { return "/tmp" }

// reraise ends this process with sig's default action, as if it had never
// been caught.
func reraise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
		time.Sleep(5 * time.Second) // the signal is delivered asynchronously
	}
	os.Exit(2)
}

// signalOf returns the signal that ended the process ps describes, nil
// when it exited.
func signalOf(ps *os.ProcessState) os.Signal {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return nil
}

// inGroup starts the process in a process group of its own (Spec.Group),
// whose id is its pid.
func inGroup(attr *syscall.SysProcAttr) *syscall.SysProcAttr {
	if attr == nil {
		attr = &syscall.SysProcAttr{}
	}
	attr.Setpgid = true
	return attr
}

// killGroup kills every process of the group p leads (Spec.Group).
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	return syscall.Kill(-p.Pid, syscall.SIGKILL)
}
