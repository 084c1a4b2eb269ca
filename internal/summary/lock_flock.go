//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package summary

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock on f, waiting for it; the lock goes
// with the file's descriptor (closing f, or the process's end, releases
// it), so that every open of the lock file, in this process or another,
// waits its turn.
func lockFile(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}
