package env

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

func readRunQueueWait() (time.Duration, bool) {
	return runQueueWaitFS(os.DirFS("/"))
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
