package child

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

// identity is what tells one build of a file from another without reading
// it: its size and modification time.
type identity struct {
	size int64
	mod  time.Time
}

func identityOf(path string) (identity, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return identity{}, err
	}
	return identity{fi.Size(), fi.ModTime()}, nil
}

var (
	pinOnce sync.Once
	pinPath string
	pinID   identity
	pinErr  error
)

// Pin records the identity of the running test binary's file, once per
// process; later calls do nothing. Call it as early as possible (Main
// does, before the tests): [Self] compares the file with it.
func Pin() {
	pinOnce.Do(func() {
		pinPath, pinErr = os.Executable()
		if pinErr == nil {
			pinID, pinErr = identityOf(pinPath)
		}
	})
}

// Self returns the path through which a child can run this very binary.
// On Linux it is /proc/self/exe, which names the running file even after
// the path was rebuilt or replaced. Elsewhere it is os.Executable's path,
// checked against the identity [Pin] recorded: when the file changed
// since (a rebuild while this process runs), Self returns an error that
// says so, because a child would run the other build.
func Self() (string, error) {
	Pin()
	return self(runtime.GOOS, pinPath, pinID, pinErr)
}

// self is Self for the binary pinned at path with identity id (or the
// error pinning it gave), on goos.
func self(goos, path string, id identity, pinned error) (string, error) {
	if goos == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil
		}
	}
	if pinned != nil {
		return "", fmt.Errorf("cannot find this test binary to run it again: %v", pinned)
	}
	now, err := identityOf(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("this test binary %s is gone (%v): it was deleted or moved while it ran", path, err)
	case now != id:
		return "", fmt.Errorf("this test binary %s changed on disk while it ran (%d bytes, modified %s; it started as %d bytes, modified %s): a child would run the other build",
			path, now.size, now.mod.Format(time.RFC3339), id.size, id.mod.Format(time.RFC3339))
	}
	return path, nil
}
