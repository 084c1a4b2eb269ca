//go:build !linux

package harness

import "syscall"

// busyAttr: no way to tie the loop's life to this process here; StartBusy's
// limit ends it.
func busyAttr() *syscall.SysProcAttr { return nil }
