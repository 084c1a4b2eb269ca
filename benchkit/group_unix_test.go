//go:build !windows

package benchkit_test

import "syscall"

// newProcessGroup starts a process in a group of its own, so that a
// signal can reach it and every child it starts, as Ctrl-C does.
func newProcessGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// interruptGroup sends SIGINT to the process group led by pid.
func interruptGroup(pid int) error { return syscall.Kill(-pid, syscall.SIGINT) }
