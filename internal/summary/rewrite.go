package summary

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// rewrite replaces the file at path with edit's result on its current
// content (nil when it does not exist), holding the path's lock
// throughout, so that processes that rewrite one file at once take turns
// and none loses another's change. The new content goes to a temporary
// file in path's directory, renamed over path: a reader sees the old file
// or the new one, never a part. Where no temporary file can be made
// there (a directory that takes no new file), path is truncated and
// written in place, still under the lock.
func rewrite(path string, edit func(old []byte) ([]byte, error)) error {
	unlock, err := lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	content, err := edit(old)
	if err != nil {
		return err
	}
	return replace(path, content)
}

// replace writes content to path through a temporary file and a rename,
// keeping path's permissions; in place when no temporary file can be
// made beside it.
func replace(path string, content []byte) error {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".benchkit-*.tmp")
	if err != nil {
		return os.WriteFile(path, content, mode)
	}
	name := tmp.Name()
	_, err = tmp.Write(content)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, mode)
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		_ = os.Remove(name)
	}
	return err
}

// lock takes the lock of path: a file in the temporary directory named
// after a hash of path's absolute, link-resolved name (the file itself is
// replaced by each rewrite, so it cannot carry the lock; its directory
// may not be ours to litter). It returns the function that releases it.
func lock(path string) (unlock func(), err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
	}
	sum := sha256.Sum256([]byte(abs))
	name := filepath.Join(os.TempDir(), "benchkit-"+hex.EncodeToString(sum[:8])+".lock")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("the lock of %s: %w", path, err)
	}
	if err := lockFile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("the lock of %s: %w", path, err)
	}
	return func() { _ = f.Close() }, nil
}
