package env

import (
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

func readRunQueueWait() (time.Duration, bool) {
	dir, err := os.Open("/proc/self/task")
	if err != nil {
		return 0, false
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil || len(names) == 0 {
		return 0, false
	}
	var total int64
	read := 0
	for _, tid := range names {
		b, err := os.ReadFile("/proc/self/task/" + tid + "/schedstat")
		if err != nil {
			continue // the thread exited
		}
		wait, ok := parseSchedstatWait(string(b))
		if !ok {
			continue
		}
		total += wait
		read++
	}
	return time.Duration(total), read > 0
}

// parseSchedstatWait returns the second field (run-queue wait, ns) of a
// schedstat line "run_ns wait_ns slices".
func parseSchedstatWait(s string) (int64, bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return 0, false
	}
	v, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return v, true
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
