package benchkit

import (
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// readThread samples the calling OS thread, its id, its CPU time
// (CLOCK_THREAD_CPUTIME_ID) and its run-queue wait (second field of
// /proc/thread-self/schedstat), and the run-queue wait of every thread of
// the process, for when the goroutine changes threads. It costs a few µs
// per thread and is only called with the benchmark's timer stopped.
func readThread() threadSample {
	s := threadSample{tid: unix.Gettid(), waits: readWaits()}
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return threadSample{}
	}
	s.cpu = time.Duration(ts.Nano())
	times, ok := readSchedstat("/proc/thread-self/schedstat")
	if !ok {
		return threadSample{}
	}
	s.wait = times.wait
	s.ok = true
	return s
}

// readSchedstat parses a schedstat file: time on a CPU, time waiting for
// one (both ns), and time slices.
func readSchedstat(path string) (threadTimes, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return threadTimes{}, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return threadTimes{}, false
	}
	run, err1 := strconv.ParseInt(f[0], 10, 64)
	wait, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || run < 0 || wait < 0 {
		return threadTimes{}, false
	}
	return threadTimes{run: time.Duration(run), wait: time.Duration(wait)}, true
}

// readWaits returns the CPU and wait times of each thread of the process.
func readWaits() map[int]threadTimes {
	names, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	m := make(map[int]threadTimes, len(names))
	for _, e := range names {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ts, ok := readSchedstat("/proc/self/task/" + e.Name() + "/schedstat"); ok {
			m[tid] = ts
		}
	}
	return m
}
