//go:build windows

package benchkit_test

import (
	"errors"
	"syscall"
)

func newProcessGroup() *syscall.SysProcAttr { return nil }

func interruptGroup(int) error { return errors.New("no process groups on Windows") }
