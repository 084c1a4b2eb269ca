//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package basebuild

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryLock takes f's lock (flock), exclusive or shared, without waiting;
// false when another holds it.
func tryLock(f *os.File, exclusive bool) (bool, error) {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// unlockFile releases f's lock.
func unlockFile(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }
