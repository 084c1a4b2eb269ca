package benchkit

import (
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// readThread samples the calling OS thread: its id, its CPU time
// (CLOCK_THREAD_CPUTIME_ID) and its run-queue wait (second field of
// /proc/thread-self/schedstat). It costs a few µs and is only called with
// the benchmark's timer stopped.
func readThread() threadSample {
	s := threadSample{tid: unix.Gettid()}
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return threadSample{}
	}
	s.cpu = time.Duration(ts.Nano())
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return threadSample{}
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return threadSample{}
	}
	w, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || w < 0 {
		return threadSample{}
	}
	s.wait = time.Duration(w)
	s.ok = true
	return s
}
