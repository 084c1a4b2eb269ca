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
	// StealTime is the machine-wide CPU time the hypervisor gave to other
	// guests, summed over all CPUs: the 8th field of the "cpu" line of
	// /proc/stat, in 10 ms ticks (Linux only). In a single snapshot it
	// counts since boot; after Sub it is the steal during the interval.
	// It is not specific to this process, and its 10 ms resolution makes
	// intervals shorter than about a second coarse.
	StealTime  time.Duration
	StealKnown bool
}

// ReadContention samples the contention counters now. Counters that cannot
// be read on this system are left unknown. On Linux it costs about 6 µs per
// thread of the process on a quiet machine, plus one read of /proc/stat
// (about 40 µs on 2 CPUs; the kernel formats every CPU's line, so it grows
// with the CPU count). Sample it around a benchmark run, not inside the loop.
func ReadContention() Contention {
	var c Contention
	c.RunQueueWait, c.WaitKnown = readRunQueueWait()
	c.InvoluntarySwitches, c.SwitchesKnown = readInvoluntarySwitches()
	c.StealTime, c.StealKnown = readStealTime()
	return c
}

// Sub returns the counters accumulated from before to c. A counter is known
// only if it is known in both snapshots. Differences are clamped at zero:
// the run-queue sum can fall when a thread exits between the snapshots.
func (c Contention) Sub(before Contention) Contention {
	d := Contention{
		WaitKnown:     c.WaitKnown && before.WaitKnown,
		SwitchesKnown: c.SwitchesKnown && before.SwitchesKnown,
		StealKnown:    c.StealKnown && before.StealKnown,
	}
	if d.WaitKnown {
		d.RunQueueWait = max(0, c.RunQueueWait-before.RunQueueWait)
	}
	if d.SwitchesKnown {
		d.InvoluntarySwitches = max(0, c.InvoluntarySwitches-before.InvoluntarySwitches)
	}
	if d.StealKnown {
		d.StealTime = max(0, c.StealTime-before.StealTime)
	}
	return d
}
