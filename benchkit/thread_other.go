//go:build !linux

package benchkit

import "time"

// readThread is unavailable outside Linux.
func readThread() threadSample { return threadSample{} }

// readThreadWait is unavailable outside Linux.
func readThreadWait() threadWait { return threadWait{} }

// readProcessCPU is unavailable outside Linux.
func readProcessCPU() (time.Duration, bool) { return 0, false }
