package basebuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildFlags: the settings that change how code is compiled are
// carried as flags or environment, the toolchain is pinned to the
// release, and what belongs to the code (the VCS stamp, DefaultGODEBUG)
// or is go test's default is not.
func TestBuildFlags(t *testing.T) {
	args, env := BuildFlags(map[string]string{
		"-buildmode": "exe", "-compiler": "gc", "-race": "true", "-cover": "false", "-trimpath": "true",
		"-tags": "a,b", "-gcflags": "all=-N -l", "-ldflags": "-s", "CGO_ENABLED": "0", "GOAMD64": "v3",
		"GOARCH": "amd64", "GOOS": "linux", "DefaultGODEBUG": "panicnil=1", "vcs.revision": "abc",
	}, "go1.26.8 X:nogreenteagc")
	assert.Equal(t, []string{"-gcflags=all=-N -l", "-ldflags=-s", "-race", "-tags=a,b", "-trimpath"}, args)
	assert.Equal(t, []string{"CGO_ENABLED=0", "GOAMD64=v3", "GOARCH=amd64", "GOEXPERIMENT=", "GOOS=linux", "GOTOOLCHAIN=go1.26.8"}, env)

	args, env = BuildFlags(map[string]string{"-buildmode": "pie", "GOEXPERIMENT": "nogreenteagc"}, "devel go1.27-abcdef")
	assert.Equal(t, []string{"-buildmode=pie"}, args)
	assert.Equal(t, []string{"GOEXPERIMENT=nogreenteagc"}, env, "no GOTOOLCHAIN selects a development toolchain")
}

func TestToolchain(t *testing.T) {
	for v, want := range map[string]string{
		"go1.26.8": "go1.26.8", "go1.26.8-X:nogreenteagc": "go1.26.8", "go1.27rc1": "go1.27rc1",
		"go1.26": "go1.26", "devel go1.27-abcdef": "", "": "",
	} {
		assert.Equal(t, want, toolchain(v), v)
	}
}

// TestLocks: an exclusive lock excludes every other, shared ones share,
// and closing the file releases it (as a process's end does).
func TestLocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := openLock(path)
		require.NoError(t, err)
		return f
	}
	a, b := open(), open()
	ok, err := tryLock(a, false)
	require.NoError(t, err)
	require.True(t, ok)
	ok, _ = tryLock(b, false)
	assert.True(t, ok, "shared with shared")
	require.NoError(t, unlockFile(b))
	if !locking() {
		t.Skip("no file locks on this platform")
	}
	ok, _ = tryLock(b, true)
	assert.False(t, ok, "exclusive against shared")
	a.Close()
	ok, _ = tryLock(b, true)
	assert.True(t, ok, "released when its holder closed it")
	c := open()
	defer c.Close()
	err = lockWait(c, false, 50*time.Millisecond)
	assert.ErrorContains(t, err, "is held by another run for more than 50ms")
	b.Close()
}

// locking reports whether this platform has file locks.
func locking() bool {
	f, err := os.CreateTemp("", "lock")
	if err != nil {
		return false
	}
	defer os.Remove(f.Name())
	defer f.Close()
	g, err := os.Open(f.Name())
	if err != nil {
		return false
	}
	defer g.Close()
	_, _ = tryLock(f, true)
	ok, _ := tryLock(g, true)
	return !ok
}

// TestEvict: beyond Keep, the least recently used entries go, except
// one a run holds; the current one always stays, and entries a crash
// left without a "used" file go first.
func TestEvict(t *testing.T) {
	c := cache{root: t.TempDir()}
	names := make([]string, 6)
	now := time.Now()
	for i := range names {
		names[i] = strings.Repeat(string(rune('a'+i)), 40)
		dir := filepath.Join(c.root, names[i])
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "src"), 0o755))
		if i != 4 { // e…: half made, never used
			require.NoError(t, touch(filepath.Join(dir, "used"), now.Add(-time.Duration(i)*time.Hour)))
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(c.root, "lock"), nil, 0o644))
	held, err := openLock(filepath.Join(c.root, names[5], "use.lock"))
	require.NoError(t, err)
	defer held.Close()
	ok, err := tryLock(held, false)
	require.NoError(t, err)
	require.True(t, ok)

	c.evict(names[3], 3) // the current one is the fourth most recent
	var left []string
	for _, e := range c.entries() {
		left = append(left, e.name[:1])
	}
	want := []string{"a", "b", "d"}
	if locking() {
		want = append(want, "f") // held by a run
	}
	assert.ElementsMatch(t, want, left)
	_, err = os.Stat(filepath.Join(c.root, "lock"))
	assert.NoError(t, err, "the cache's own files stay")
}

// TestAcquire: an entry is made, held shared, and touched; a second
// acquire of the same commit shares it.
func TestAcquire(t *testing.T) {
	c := cache{root: filepath.Join(t.TempDir(), "cache")}
	commit := strings.Repeat("0", 40)
	e1, err := c.acquire(commit)
	require.NoError(t, err)
	e2, err := c.acquire(commit)
	require.NoError(t, err, "two runs share an entry")
	e1.release()
	e2.release()
	_, err = os.Stat(filepath.Join(c.root, commit, "used"))
	assert.NoError(t, err)
	_, err = c.acquire("HEAD")
	assert.ErrorContains(t, err, "is not a commit hash")
}

// TestClearTemp: what a dead run left half written goes, the rest stays.
func TestClearTemp(t *testing.T) {
	e := entry{dir: t.TempDir()}
	bin := filepath.Join(e.dir, "bin")
	require.NoError(t, os.MkdirAll(filepath.Join(bin, "x.test"+tempSuffix), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "y.test"+tempSuffix), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "z.test"), nil, 0o644))
	require.NoError(t, e.clearTemp("bin"))
	des, err := os.ReadDir(bin)
	require.NoError(t, err)
	require.Len(t, des, 1)
	assert.Equal(t, "z.test", des[0].Name())
	assert.NoError(t, e.clearTemp("nothing"), "a missing directory has nothing to clear")
}

func TestRoot(t *testing.T) {
	dir := t.TempDir()
	got, err := Root(func(k string) string { return map[string]string{EnvCache: dir}[k] })
	require.NoError(t, err)
	assert.Equal(t, dir, got)
	if _, err := os.UserCacheDir(); err == nil {
		got, err = Root(func(string) string { return "" })
		require.NoError(t, err)
		assert.Equal(t, filepath.Join("benchkit", "against"), filepath.Join(filepath.Base(filepath.Dir(got)), filepath.Base(got)))
	}
}

// TestWorkspace: the base's own go.work, or none.
func TestWorkspace(t *testing.T) {
	src := t.TempDir()
	pkg := filepath.Join(src, "m", "p")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	assert.Equal(t, "off", workspace(src, pkg))
	require.NoError(t, os.WriteFile(filepath.Join(src, "go.work"), nil, 0o644))
	assert.Equal(t, filepath.Join(src, "go.work"), workspace(src, pkg))
}

// gitRepo makes a repository with a commit on main and one on feature
// (checked out), or skips t without git. It returns its directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("no git on PATH: %v", err)
	}
	dir := t.TempDir()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(dir, ".git-global"))
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "base"},
		{"checkout", "-q", "-b", "feature"}, {"commit", "-q", "--allow-empty", "-m", "new"},
		{"checkout", "-q", "main"}, {"commit", "-q", "--allow-empty", "-m", "main moves on"}, {"checkout", "-q", "feature"},
	} {
		runGit(t, dir, args...)
	}
	return dir
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// TestPrepareBadInput: each input Prepare cannot build from is an error
// that names the fix, and leaves the cache empty.
func TestPrepareBadInput(t *testing.T) {
	repo := gitRepo(t)
	shallow := filepath.Join(t.TempDir(), "shallow")
	runGit(t, repo, "clone", "-q", "--depth=1", "--branch=feature", "file://"+repo, shallow)
	runGit(t, shallow, "fetch", "-q", "--depth=1", "origin", "main:refs/remotes/origin/main")
	noGit := t.TempDir()   // a PATH without git
	onlyGit := t.TempDir() // a PATH with git and no go
	git, err := exec.LookPath("git")
	require.NoError(t, err)
	require.NoError(t, os.Symlink(git, filepath.Join(onlyGit, filepath.Base(git))))
	for _, tc := range []struct {
		name, dir, rev, path string
		want                 []string
	}{
		{"not a repository", t.TempDir(), "main", "", []string{"is not in a git repository", "run go test in the repository's checkout", "path:base.test"}},
		{"unknown revision", repo, "mian", "", []string{"-benchkit.against=mian: no such revision", "git fetch origin main", "fetch-depth: 0"}},
		{"option", repo, "--all", "", []string{"is not a revision"}},
		{"shallow", shallow, "origin/main", "", []string{"this clone is shallow and does not hold the merge base", "fetch-depth: 0", "git fetch --unshallow"}},
		{"no git", repo, "main", noGit, []string{"no git command on PATH", "install git"}},
		{"no go", repo, "main", onlyGit, []string{"needs the go command to build the base, and there is none on PATH", "add the go that built this binary (go1.26.8) to PATH"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path != "" {
				t.Setenv("PATH", tc.path)
			}
			cache := t.TempDir()
			b, err := Prepare(Request{Rev: tc.rev, Dir: tc.dir, Pkg: "example.com/p", GoVersion: "go1.26.8", Timeout: time.Minute, Cache: cache})
			require.Error(t, err)
			assert.Nil(t, b)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
			des, _ := os.ReadDir(cache)
			assert.Empty(t, des, "nothing left in the cache")
		})
	}
}

// TestPrepareMissing: a package whose directory is not at the base is
// a Base with Missing set, not an error, and builds nothing.
func TestPrepareMissing(t *testing.T) {
	repo := gitRepo(t)
	pkg := filepath.Join(repo, "p")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	cache := t.TempDir()
	b, err := Prepare(Request{Rev: "main", Dir: pkg, Pkg: "example.com/p", GoVersion: "go1.26.8", Timeout: time.Minute, Cache: cache})
	require.NoError(t, err)
	defer b.Release()
	assert.Equal(t, "p is not in the base's files", b.Missing)
	assert.Empty(t, b.Binary)
	assert.Equal(t, runGit(t, repo, "merge-base", "main", "feature"), b.Commit)
	des, err := os.ReadDir(filepath.Join(cache, b.Commit))
	require.NoError(t, err)
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	assert.ElementsMatch(t, []string{"build.lock", "src", "use.lock", "used"}, names, "the files, no binary, nothing half written")
}

// TestPrepareConcurrent: two runs that ask for the same base at once
// share it: one builds the binary, the other waits for it and reuses it,
// both get the same file, and nothing is left half written. A later run
// reuses it without building.
func TestPrepareConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	repo := gitRepo(t)
	runGit(t, repo, "checkout", "-q", "main")
	pkg := filepath.Join(repo, "p")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/m\n\ngo 1.26.0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "p_test.go"), []byte("package p\n\nimport \"testing\"\n\nfunc BenchmarkP(b *testing.B) {\n\tfor b.Loop() {\n\t}\n}\n"), 0o644))
	runGit(t, repo, "add", "-A")
	runGit(t, repo, "commit", "-q", "-m", "p")
	runGit(t, repo, "checkout", "-q", "feature")
	runGit(t, repo, "merge", "-q", "--no-edit", "main")
	out, err := exec.Command(goCmd, "env", "GOVERSION").Output()
	require.NoError(t, err)
	req := Request{Rev: "main", Dir: pkg, Pkg: "example.com/m/p", GoVersion: strings.TrimSpace(string(out)),
		Settings: map[string]string{"CGO_ENABLED": "0"}, Timeout: 5 * time.Minute, Cache: t.TempDir()}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOTOOLCHAIN", "local")

	bases := make([]*Base, 2)
	errs := make([]error, 2)
	done := make(chan int)
	for i := range bases {
		go func() { bases[i], errs[i] = Prepare(req); done <- i }()
	}
	<-done
	<-done
	for i, b := range bases {
		require.NoError(t, errs[i])
		require.Empty(t, b.Failed, b.Output)
		defer b.Release()
	}
	assert.Equal(t, bases[0].Binary, bases[1].Binary, "one binary for both")
	assert.NotEqual(t, bases[0].Reused, bases[1].Reused, "one built it, the other reused it")
	assert.Contains(t, bases[0].Flags, "CGO_ENABLED=0")
	third, err := Prepare(req)
	require.NoError(t, err)
	defer third.Release()
	assert.True(t, third.Reused)
	assert.NoError(t, filepath.WalkDir(req.Cache, func(path string, _ os.DirEntry, err error) error {
		assert.False(t, strings.HasSuffix(path, tempSuffix), "half written: %s", path)
		return err
	}))
}
