package basebuild

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Request is what Prepare needs.
type Request struct {
	// Rev is the revision as given (origin/main, a branch, a tag, a
	// commit); Flag names the setting in messages ("-benchkit.against").
	Rev, Flag string
	// Dir is the package's directory (the test binary's working
	// directory under go test), "" for the current one; Pkg its import
	// path, which names the binary.
	Dir, Pkg string
	// Settings are this binary's build settings (debug.BuildInfo's) and
	// GoVersion its toolchain (runtime.Version()): the base is built the
	// same way (BuildFlags).
	Settings  map[string]string
	GoVersion string
	// Timeout bounds the checkout and the build, each.
	Timeout time.Duration
	// Log, when not nil, gets a line before the checkout and the build.
	Log io.Writer
	// Cache is the cache's directory, "" for Root's.
	Cache string
}

// Base is the base built from a revision, or why there is none.
type Base struct {
	// Rev is the revision as given, Commit the merge base of it and HEAD
	// (the commit built).
	Rev, Commit string
	// Binary is the test binary in the cache, "" when there is none; Dir
	// the package's directory in the base's files, where its processes
	// run ("" when the package is not at the base).
	Binary, Dir string
	// Reused is true when the binary was in the cache already: a run
	// before this one built it.
	Reused bool
	// Flags are the go test flags and environment variables carried from
	// this binary's build to the base's (BuildFlags), sorted.
	Flags []string
	// Missing says why the package is not at the base ("" when it is):
	// its benchmarks are all new.
	Missing string
	// Failed says how the base's build failed ("" when it did not), and
	// Output is what the go command printed.
	Failed, Output string

	release func()
}

// Release lets the cache remove the base's directory again (once no run
// uses it); call it when the run is over. It is safe on a nil Base.
func (b *Base) Release() {
	if b != nil && b.release != nil {
		b.release()
		b.release = nil
	}
}

// Prepare resolves r.Rev to the merge base of it and HEAD in the
// repository around r.Dir, puts that commit's files in the cache (once)
// and builds the package's test binary there (once per build settings).
// It returns an error naming the fix, and leaves nothing behind, when the
// input is bad: no git on PATH, no repository, an unknown revision, a
// shallow clone without the merge base, no go command. A package that is
// not at the base, or a base that does not build, is a Base with Missing
// or Failed set, not an error.
func Prepare(r Request) (*Base, error) {
	rp, err := openRepo(r.Dir, r.what())
	if err != nil {
		return nil, err
	}
	commit, err := rp.mergeBase(r.Rev, r.what())
	if err != nil {
		return nil, err
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("benchkit: %s needs the go command to build the base, and there is none on PATH: add the go that built this binary (%s) to PATH, or build the base yourself and give its path (%s=path:base.test)",
			r.what(), r.GoVersion, r.flag())
	}
	root := r.Cache
	if root == "" {
		if root, err = Root(os.Getenv); err != nil {
			return nil, fmt.Errorf("benchkit: %s: %v", r.what(), err)
		}
	}
	c := cache{root: root}
	e, err := c.acquire(commit)
	if err != nil {
		return nil, fmt.Errorf("benchkit: %s: the cache: %v; set %s to a writable directory", r.what(), err, EnvCache)
	}
	b := &Base{Rev: r.Rev, Commit: commit, release: e.release}
	if err := e.build(rp, r, goCmd, b); err != nil {
		b.Release()
		return nil, fmt.Errorf("benchkit: %s: %v", r.what(), err)
	}
	return b, nil
}

// what names the setting and its value in messages.
func (r Request) what() string { return r.flag() + "=" + r.Rev }

func (r Request) flag() string {
	if r.Flag == "" {
		return "-benchkit.against"
	}
	return r.Flag
}

// binaryName is the file name of pkg's test binary in the cache, with
// key, which tells its build settings apart.
func binaryName(pkg, key string) string {
	name := filepath.Base(pkg)
	if name == "." || name == "/" || name == "" {
		name = "pkg"
	}
	return name + "-" + key + ".test" + exeSuffix()
}

// errMissing is a build that found no package: not an error of the run.
var errMissing = errors.New("no package")
