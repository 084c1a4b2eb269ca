package basebuild

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// EnvCache names the cache's directory when set: see Root.
const EnvCache = "BENCHKIT_CACHE"

// Keep is the number of merge bases the cache keeps: the least recently
// used beyond it are removed (unless a run is using them) whenever a run
// adds or uses one.
const Keep = 3

// tempSuffix ends the name of a file or directory being written; a
// complete one is renamed to its name without it.
const tempSuffix = ".tmp"

// rootLockWait bounds the wait for the cache's lock, which a run holds
// only while it adds, touches or removes directories.
const rootLockWait = 2 * time.Minute

// Root returns the cache's directory: $BENCHKIT_CACHE when set, else
// benchkit/against under the user's cache directory (os.UserCacheDir:
// ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on
// Windows).
func Root(getenv func(string) string) (string, error) {
	if d := getenv(EnvCache); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory (%v): set %s", err, EnvCache)
	}
	return filepath.Join(d, "benchkit", "against"), nil
}

// cache is the directory of merge bases:
//
//	<root>/lock                      held while directories are added or removed
//	<root>/<commit>/used             its modification time: the last run that used it
//	<root>/<commit>/use.lock         shared by every run that uses the commit
//	<root>/<commit>/build.lock       held while its files are written or a binary built
//	<root>/<commit>/src/             the commit's files, complete or absent
//	<root>/<commit>/bin/<pkg>-<key>.test  a test binary, complete or absent
type cache struct{ root string }

// entry is one merge base's directory, held shared for a run.
type entry struct {
	dir string
	use *os.File
}

// commitName matches a commit hash, the name of an entry's directory
// (SHA-1 or SHA-256).
var commitName = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// acquire returns commit's entry, made if new and held shared until
// release, and removes the least recently used entries beyond Keep that
// no run holds.
func (c cache) acquire(commit string) (entry, error) {
	if !commitName.MatchString(commit) {
		return entry{}, fmt.Errorf("%q is not a commit hash", commit)
	}
	if err := os.MkdirAll(c.root, 0o755); err != nil {
		return entry{}, err
	}
	unlock, err := lockPath(filepath.Join(c.root, "lock"), true, rootLockWait)
	if err != nil {
		return entry{}, err
	}
	defer unlock()
	e := entry{dir: filepath.Join(c.root, commit)}
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		return entry{}, err
	}
	if e.use, err = openLock(filepath.Join(e.dir, "use.lock")); err != nil {
		return entry{}, err
	}
	if err := lockWait(e.use, false, rootLockWait); err != nil {
		e.use.Close()
		return entry{}, err
	}
	now := time.Now()
	if err := touch(filepath.Join(e.dir, "used"), now); err != nil {
		e.release()
		return entry{}, err
	}
	c.evict(commit, Keep)
	return e, nil
}

// release lets other runs remove the entry.
func (e entry) release() {
	if e.use != nil {
		_ = unlockFile(e.use)
		_ = e.use.Close()
	}
}

// evict removes, beyond the keep most recently used entries (keeping
// current's), the others that no run holds. The caller holds the
// cache's lock, so no run starts to use one meanwhile.
func (c cache) evict(current string, keep int) {
	names := c.entries()
	slices.SortFunc(names, func(a, b entryAge) int { return b.used.Compare(a.used) })
	kept := 1 // current
	for _, n := range names {
		if n.name == current {
			continue
		}
		if kept < keep {
			kept++
			continue
		}
		c.remove(n.name)
	}
}

// entryAge is an entry's name and its last use.
type entryAge struct {
	name string
	used time.Time
}

// entries lists the cache's entries with their last use (the zero time
// when unknown: an entry a crash left half made is removed first).
func (c cache) entries() []entryAge {
	des, _ := os.ReadDir(c.root)
	var out []entryAge
	for _, de := range des {
		if !de.IsDir() || !commitName.MatchString(de.Name()) {
			continue
		}
		a := entryAge{name: de.Name()}
		if fi, err := os.Stat(filepath.Join(c.root, de.Name(), "used")); err == nil {
			a.used = fi.ModTime()
		}
		out = append(out, a)
	}
	return out
}

// remove removes the entry name unless a run holds it.
func (c cache) remove(name string) {
	dir := filepath.Join(c.root, name)
	f, err := openLock(filepath.Join(dir, "use.lock"))
	if err != nil {
		return
	}
	ok, _ := tryLock(f, true)
	if ok {
		_ = unlockFile(f)
	}
	_ = f.Close() // before the removal: Windows removes no open file
	if ok {
		_ = os.RemoveAll(dir)
	}
}

// lockBuild takes the entry's build lock, waiting at most wait (another
// run may be building in it), and returns its release.
func (e entry) lockBuild(wait time.Duration) (func(), error) {
	return lockPath(filepath.Join(e.dir, "build.lock"), true, wait+time.Minute)
}

// source returns the directory of the commit's files, writing them first
// when they are not there. The caller holds the build lock.
func (e entry) source(rp repo, commit string, r Request) (string, error) {
	src := filepath.Join(e.dir, "src")
	if _, err := os.Stat(src); err == nil {
		return src, nil
	}
	if err := e.clearTemp("."); err != nil {
		return "", err
	}
	logf(r, "checking out %s, the merge base of %s and HEAD, into %s", Short(commit), r.Rev, e.dir)
	tmp, index := src+tempSuffix, filepath.Join(e.dir, "index"+tempSuffix)
	err := os.MkdirAll(tmp, 0o755) // an empty commit writes no file
	if err == nil {
		err = rp.export(commit, tmp, index, r.Timeout)
	}
	_ = os.Remove(index)
	if err == nil {
		err = os.Rename(tmp, src)
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return "", err
	}
	return src, nil
}

// clearTemp removes what a run that died left half written in the
// entry's subdirectory sub. The caller holds the build lock, so nothing
// there is being written.
func (e entry) clearTemp(sub string) error {
	dir := filepath.Join(e.dir, sub)
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	for _, de := range des {
		if strings.HasSuffix(de.Name(), tempSuffix) {
			if err := os.RemoveAll(filepath.Join(dir, de.Name())); err != nil {
				return err
			}
		}
	}
	return err
}

// touch sets path's modification time to t, making it when missing.
func touch(path string, t time.Time) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	f.Close()
	return os.Chtimes(path, t, t)
}
