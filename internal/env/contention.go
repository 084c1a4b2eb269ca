package env

import "time"

// Contention is a snapshot of process-wide contention counters, to be
// sampled before and after a benchmark and subtracted with [Contention.Sub].
type Contention struct {
	// RunQueueWait is the time the process's threads spent runnable but
	// waiting for a CPU: the sum of the second field of
	// /proc/self/task/*/schedstat (Linux only).
	RunQueueWait time.Duration
	WaitKnown    bool
	// InvoluntarySwitches counts the process's involuntary context switches
	// (getrusage ru_nivcsw; Linux and darwin).
	InvoluntarySwitches int64
	SwitchesKnown       bool
}

// ReadContention samples the contention counters now. Counters that cannot
// be read on this system are left unknown. It costs about 6 µs per thread
// of the process on Linux.
func ReadContention() Contention {
	var c Contention
	c.RunQueueWait, c.WaitKnown = readRunQueueWait()
	c.InvoluntarySwitches, c.SwitchesKnown = readInvoluntarySwitches()
	return c
}

// Sub returns the counters accumulated from before to c. A counter is known
// only if it is known in both snapshots. Differences are clamped at zero:
// the run-queue sum can fall when a thread exits between the snapshots.
func (c Contention) Sub(before Contention) Contention {
	d := Contention{
		WaitKnown:     c.WaitKnown && before.WaitKnown,
		SwitchesKnown: c.SwitchesKnown && before.SwitchesKnown,
	}
	if d.WaitKnown {
		d.RunQueueWait = max(0, c.RunQueueWait-before.RunQueueWait)
	}
	if d.SwitchesKnown {
		d.InvoluntarySwitches = max(0, c.InvoluntarySwitches-before.InvoluntarySwitches)
	}
	return d
}
