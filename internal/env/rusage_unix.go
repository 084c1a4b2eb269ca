//go:build !linux && (darwin || freebsd || netbsd || openbsd || dragonfly || solaris || aix || illumos)

package env

import "golang.org/x/sys/unix"

func readInvoluntarySwitches() (int64, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return int64(ru.Nivcsw), true
}
