//go:build !linux

package env

import "time"

func readRunQueueWait() (time.Duration, bool) { return 0, false }

func readStealTime() (time.Duration, bool) { return 0, false }

// ReadThreadTimes is unavailable outside Linux.
func ReadThreadTimes() map[int]ThreadTimes { return nil }

// ProcessCPU is unavailable outside Linux.
func ProcessCPU(int) (time.Duration, bool) { return 0, false }

// ReadThreadSelf is unavailable outside Linux.
func ReadThreadSelf() (ThreadTimes, bool) { return ThreadTimes{}, false }
