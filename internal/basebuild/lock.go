package basebuild

import (
	"fmt"
	"os"
	"time"
)

// openLock opens (making it when missing) the lock file at path.
func openLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
}

// lockWait takes f's lock, exclusive or shared, trying until wait has
// passed: the system releases a lock when its process ends, so only a
// live run can hold it that long.
func lockWait(f *os.File, exclusive bool, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for pause := 10 * time.Millisecond; ; pause = min(2*pause, 500*time.Millisecond) {
		ok, err := tryLock(f, exclusive)
		switch {
		case err != nil:
			return fmt.Errorf("locking %s: %v", f.Name(), err)
		case ok:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("%s is held by another run for more than %v: wait for it to end", f.Name(), wait)
		}
		time.Sleep(pause)
	}
}

// lockPath takes the lock file at path, as lockWait, and returns its
// release.
func lockPath(path string, exclusive bool, wait time.Duration) (func(), error) {
	f, err := openLock(path)
	if err != nil {
		return nil, err
	}
	if err := lockWait(f, exclusive, wait); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = unlockFile(f)
		_ = f.Close()
	}, nil
}
