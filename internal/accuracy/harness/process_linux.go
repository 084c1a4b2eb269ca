package harness

import "syscall"

// dieWithParent makes a child process die with this process.
func dieWithParent() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
