package benchkit

import (
	"time"

	"github.com/benchkit/go-benchkit/internal/env"
)

// threadSample is a snapshot of the OS thread running the benchmark
// goroutine (Linux only; ok is false elsewhere).
type threadSample struct {
	tid   int
	cpu   time.Duration // thread CPU time
	wait  time.Duration // thread run-queue wait
	ok    bool
	waits map[int]env.ThreadTimes // every thread's schedstat times, by tid
}

// threadDelta is what the benchmark's thread did between two samples. ok:
// both samples were on the same thread, and cpu and wait are its own.
// waitOK without ok: the goroutine moved from one thread to another, and
// cpu and wait are the sums of both threads' (upper bounds on its own,
// whose ratio still says how much of the time it could run).
type threadDelta struct {
	cpu, wait time.Duration
	ok        bool
	waitOK    bool
}

// threadWait is the calling thread's id and run-queue wait, the one cheap
// probe a lockstep child reads around each run (a single /proc read);
// ok is false where it cannot be read.
type threadWait struct {
	tid  int
	wait time.Duration
	ok   bool
}

// since returns the thread's run-queue wait from before to w, and false
// when either sample is missing or the goroutine changed threads in
// between (then the wait is not the one its run saw).
func (w threadWait) since(before threadWait) (time.Duration, bool) {
	if !w.ok || !before.ok || w.tid != before.tid {
		return 0, false
	}
	return max(0, w.wait-before.wait), true
}

func (s threadSample) sub(before threadSample) threadDelta {
	if !s.ok || !before.ok {
		return threadDelta{}
	}
	if s.tid == before.tid {
		return threadDelta{cpu: max(0, s.cpu-before.cpu), wait: max(0, s.wait-before.wait), ok: true, waitOK: true}
	}
	var d threadDelta
	for _, tid := range []int{before.tid, s.tid} {
		t0, ok0 := before.waits[tid]
		t1, ok1 := s.waits[tid]
		if !ok0 || !ok1 {
			return threadDelta{}
		}
		d.cpu += max(0, t1.Run-t0.Run)
		d.wait += max(0, t1.Wait-t0.Wait)
	}
	d.waitOK = true
	return d
}

// busy reports whether the thread was running or waiting to run for at
// least 80% of wall: the benchmark kept its thread busy (it did not block,
// as the goroutine of a RunParallel benchmark does), so the thread's
// counters describe the benchmark.
func (d threadDelta) busy(wall time.Duration) bool {
	return d.waitOK && wall > 0 && float64(d.cpu+d.wait) >= 0.8*float64(wall)
}

// onCPU is the share of the thread's busy time it spent on a CPU, in
// (0, 1], or 1 when unknown: ns/op × onCPU is the cost the work would have
// had without waiting for a CPU.
func (d threadDelta) onCPU(wall time.Duration) float64 {
	if !d.busy(wall) || d.cpu <= 0 {
		return 1
	}
	return float64(d.cpu) / float64(d.cpu+d.wait)
}
