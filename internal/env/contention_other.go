//go:build !linux

package env

import "time"

func readRunQueueWait() (time.Duration, bool) { return 0, false }

func readStealTime() (time.Duration, bool) { return 0, false }
