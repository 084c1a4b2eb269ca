package child

import (
	"os/exec"
	"runtime"
	"syscall"
)

// sysProcAttr asks the kernel to kill the child when the thread that
// started it ends. startLocked starts it from a locked thread and unlocks
// it again before returning, so the thread goes back to the runtime's
// pool and lives as long as the process (a Go runtime thread exits only
// when a goroutine ends while locked to it).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// startLocked starts cmd from a thread locked to the calling goroutine,
// and unlocks it afterwards without letting the thread exit, so that
// Pdeathsig fires only when the parent process dies.
func startLocked(cmd *exec.Cmd) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Start()
}
