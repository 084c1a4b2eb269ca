//go:build !linux

package harness

import "syscall"

// dieWithParent: no way to tie a child's life to this process here; the
// child's deadline (Run's timeout, StartBusy's limit) ends it.
func dieWithParent() *syscall.SysProcAttr { return nil }
