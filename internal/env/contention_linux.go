package env

import (
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

func readRunQueueWait() (time.Duration, bool) {
	return runQueueWaitFS(os.DirFS("/"))
}

// ReadThreadTimes returns the schedstat times of every thread of the
// process, by thread id; nil where they cannot be read (outside Linux).
// It costs a few µs per thread.
func ReadThreadTimes() map[int]ThreadTimes { return threadTimesFS(os.DirFS("/")) }

// ProcessCPU returns the CPU time (user and system) the process pid has
// used, all its threads together, at the resolution of a clock tick
// (10 ms); ok is false where it cannot be read. It costs one small read
// of /proc/<pid>/stat.
func ProcessCPU(pid int) (time.Duration, bool) {
	return processCPUFS(os.DirFS("/"), "proc/"+strconv.Itoa(pid))
}

// ReadThreadSelf returns the calling OS thread's schedstat times
// (/proc/thread-self/schedstat); ok is false where they cannot be read.
func ReadThreadSelf() (ThreadTimes, bool) {
	return schedstatFS(os.DirFS("/"), "proc/thread-self/schedstat")
}

// readStealTime reads the machine-wide steal time from /proc/stat.
func readStealTime() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	st, ok := parseStatCPU(string(b))
	if !ok {
		return 0, false
	}
	return st.stealTime(), true
}

func readInvoluntarySwitches() (int64, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return int64(ru.Nivcsw), true
}
