//go:build windows

package child

import "os"

// defaultTempDir is empty on Windows: os.TempDir already falls back from
// TMP to TEMP to USERPROFILE.
func defaultTempDir() string { return "" }

// reraise ends this process after an interrupt: Windows has no default
// action to restore.
func reraise(os.Signal) { os.Exit(2) }

// signalOf is nil on Windows, where a process ends by exiting.
func signalOf(*os.ProcessState) os.Signal { return nil }
