//go:build linux || freebsd

package count

import (
	"syscall"
	"time"
)

// childrenUsage returns getrusage(RUSAGE_CHILDREN).
func childrenUsage() (Children, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return Children{}, false
	}
	return Children{MinorFaults: int64(ru.Minflt), CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}, true
}
