package benchkit

import (
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchkit/go-benchkit/internal/env"
)

// readThread samples the calling OS thread, its id, its CPU time
// (CLOCK_THREAD_CPUTIME_ID) and its run-queue wait (schedstat), and the
// schedstat times of every thread of the process, for when the goroutine
// changes threads. It costs a few µs per thread and is only called with
// the benchmark's timer stopped.
func readThread() threadSample {
	s := threadSample{tid: unix.Gettid(), waits: env.ReadThreadTimes()}
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return threadSample{}
	}
	s.cpu = time.Duration(ts.Nano())
	times, ok := env.ReadThreadSelf()
	if !ok {
		return threadSample{}
	}
	s.wait = times.Wait
	s.ok = true
	return s
}

// readThreadWait samples the calling thread's run-queue wait; the thread
// id is read before and after, so a sample taken across a change of
// thread is not ok.
func readThreadWait() threadWait {
	tid := unix.Gettid()
	t, ok := env.ReadThreadSelf()
	if !ok || unix.Gettid() != tid {
		return threadWait{}
	}
	return threadWait{tid: tid, wait: t.Wait, ok: true}
}

// readProcessCPU returns the CPU time of every thread of the process
// (CLOCK_PROCESS_CPUTIME_ID, ns resolution); ok is false when it cannot be
// read.
func readProcessCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
