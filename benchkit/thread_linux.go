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
	w, ok := readWait("/proc/thread-self/schedstat")
	if !ok {
		return threadSample{}
	}
	s.wait = w
	s.ok = true
	return s
}

// readWait parses the run-queue wait, the second field of a schedstat file.
func readWait(path string) (time.Duration, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	w, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || w < 0 {
		return 0, false
	}
	return time.Duration(w), true
}

// readWaits returns the run-queue wait of each thread of the process.
func readWaits() map[int]time.Duration {
	names, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	m := make(map[int]time.Duration, len(names))
	for _, e := range names {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if w, ok := readWait("/proc/self/task/" + e.Name() + "/schedstat"); ok {
			m[tid] = w
		}
	}
	return m
}
