package benchkit_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/summary"
	"github.com/benchkit/go-benchkit/internal/testbin"
)

// revRepo is a git repository made by a test: a module that depends on
// this checkout of benchkit (a replace directive, so no network), with
// two commits: the base on branch main, the new one on branch feature,
// checked out.
type revRepo struct {
	dir, cache string
	env        []string
}

// The packages of the repository, as their files at each commit: a
// (both commits; the new Work does twice the work), b (no TestMain at
// the base, as before a package adopts benchkit), newonly (the new
// commit only), broken (its base does not compile).
var revBase = map[string]string{
	"a/a.go":              "package a\n\nfunc Work(n int) int {\n\ts := 0\n\tfor i := range n {\n\t\ts += i * i\n\t}\n\treturn s\n}\n",
	"a/a_test.go":         revBenchFile("a", "Work(500)", true),
	"b/b.go":              "package b\n\nfunc Sum(n int) int {\n\ts := 0\n\tfor i := range n {\n\t\ts += i\n\t}\n\treturn s\n}\n",
	"b/b_test.go":         "package b\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkSum(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = Sum(300)\n\t}\n}\n",
	"broken/broken.go":    "package broken\n\nfunc Half(n int) int { return n / \"2\" }\n",
	"broken/half_test.go": revBenchFile("broken", "Half(500)", true),
}

var revNew = map[string]string{
	"a/a.go":                "package a\n\nfunc Work(n int) int {\n\ts := 0\n\tfor i := range 2 * n {\n\t\ts += i * i\n\t}\n\treturn s\n}\n",
	"b/b_test.go":           revBenchFile("b", "Sum(300)", true),
	"newonly/newonly.go":    "package newonly\n\nfunc Fresh(n int) int { return n * 3 }\n",
	"newonly/fresh_test.go": revBenchFile("newonly", "Fresh(500)", true),
	"broken/broken.go":      "package broken\n\nfunc Half(n int) int { return n / 2 }\n",
}

// revBenchFile is a test file of package pkg with benchkit.Main and one
// tracked benchmark, BenchmarkX, calling call in a b.Loop.
func revBenchFile(pkg, call string, track bool) string {
	name := strings.ToUpper(call[:1]) + call[1:strings.Index(call, "(")]
	return "package " + pkg + "\n\nimport (\n\t\"testing\"\n\n\t\"github.com/benchkit/go-benchkit/benchkit\"\n)\n\n" +
		"func TestMain(m *testing.M) { benchkit.Main(m) }\n\nvar sink int\n\n" +
		"func Benchmark" + name + "(b *testing.B) {\n\tbenchkit.Track(b)\n\tfor b.Loop() {\n\t\tsink = " + call + "\n\t}\n}\n"
}

// newRevRepo makes the repository in a temporary directory, with a cache
// of its own. It skips t without git.
func newRevRepo(t *testing.T) revRepo {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a module at two commits; skipped with -short")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("no git on PATH, which -benchkit.against=<revision> needs: %v", err)
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	r := revRepo{dir: t.TempDir(), cache: t.TempDir()}
	r.env = []string{"BENCHKIT_CACHE=" + r.cache, "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off",
		"GIT_CONFIG_GLOBAL=" + filepath.Join(r.dir, ".git", "no-global"), "GIT_CONFIG_NOSYSTEM=1"}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	_, requires, _ := strings.Cut(string(mod), "\nrequire")
	files := map[string]string{
		"go.mod": "module example.com/revdemo\n\ngo 1.26.0\n\nrequire github.com/benchkit/go-benchkit v0.0.0\n\nrequire" + requires +
			"\nreplace github.com/benchkit/go-benchkit => " + filepath.ToSlash(root) + "\n",
		"go.sum": string(sum),
	}
	r.git(t, "init", "-q", "-b", "main")
	r.commit(t, "base", files, revBase)
	r.git(t, "checkout", "-q", "-b", "feature")
	r.commit(t, "new", revNew)
	return r
}

// commit writes the files and commits them all.
func (r revRepo) commit(t *testing.T, msg string, sets ...map[string]string) {
	t.Helper()
	for _, set := range sets {
		for name, text := range set {
			path := filepath.Join(r.dir, filepath.FromSlash(name))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		}
	}
	r.git(t, "add", "-A")
	r.git(t, "-c", "user.name=benchkit", "-c", "user.email=benchkit@example.com", "commit", "-q", "-m", msg)
}

// git runs git in the repository and returns its output.
func (r revRepo) git(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

// goTest runs go test in the repository with args and returns its
// output and exit code.
func (r revRepo) goTest(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"test"}, args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.env...)
	done := make(chan struct{})
	timer := time.AfterFunc(10*time.Minute, func() { _ = cmd.Process.Kill(); close(done) })
	defer timer.Stop()
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return string(out), code
}

// revReport is the part of a JSON report the revision tests read.
type revReport struct {
	Against *struct {
		Base struct {
			Path string `json:"path"`
		} `json:"base"`
		BaseRevision *struct {
			Rev     string   `json:"rev"`
			Commit  string   `json:"commit"`
			Reused  bool     `json:"reused"`
			Flags   []string `json:"flags"`
			Missing string   `json:"missing"`
		} `json:"base_revision"`
		Benchmarks []struct {
			Name     string     `json:"name"`
			Mode     string     `json:"mode"`
			ModeNote string     `json:"mode_note"`
			Estimate againstEst `json:"estimate"`
		} `json:"benchmarks"`
		OnlyNew  []string `json:"only_new"`
		Failures []struct {
			Side    string `json:"side"`
			Build   bool   `json:"build"`
			Message string `json:"message"`
			Output  string `json:"output"`
		} `json:"failures"`
	} `json:"against"`
}

// readRevReports reads the JSON report of each package in dir (the
// directory form: one file per package, named after its import path).
func readRevReports(t *testing.T, dir string) map[string]revReport {
	t.Helper()
	out := map[string]revReport{}
	for _, pkg := range []string{"a", "b", "newonly", "broken"} {
		b, err := os.ReadFile(filepath.Join(dir, "example.com_revdemo_"+pkg+".json"))
		require.NoError(t, err, "package %s's report", pkg)
		var rep revReport
		require.NoError(t, json.Unmarshal(b, &rep))
		require.NotNil(t, rep.Against, pkg)
		out[pkg] = rep
	}
	return out
}

// TestAgainstRevisionE2E: one go test ./... with -benchkit.against=main
// on a repository the test makes: each comparable benchmark gets a row
// with a verdict (any: no time is asserted), a package whose base has no
// benchkit.Main runs in rounds and says why, the package new in this
// commit lists its benchmark as new, the package whose base does not
// compile is reported with the compiler's output, and the run passes
// (no gate). The run's summary (-benchkit.summary) lists every package in
// its order (revCheckSummary). A second run reuses the cached base
// binaries: the report says so and their files are the ones the first
// run wrote (the same inode, the same modification time), and it says
// nothing of building them. The cache
// holds one merge base, nothing half written, and the repository's
// worktrees and status are untouched.
func TestAgainstRevisionE2E(t *testing.T) {
	r := newRevRepo(t)
	mergeBase := r.git(t, "merge-base", "main", "HEAD")
	status := r.git(t, "status", "--porcelain")
	args := func(out string) []string {
		return []string{"-run=^$", "-bench=.", "-benchtime=20ms", "./...", "-benchkit.against=main", "-benchkit.rounds=2",
			"-benchkit.progress=off", "-benchkit.json=" + out + string(filepath.Separator)}
	}
	first := t.TempDir()
	sumPath := filepath.Join(t.TempDir(), "summary.md")
	out, code := r.goTest(t, append(args(first), "-benchkit.summary="+sumPath)...)
	require.Equal(t, 0, code, out)
	againstCheckParses(t, out)
	assert.Contains(t, out, "building example.com/revdemo/a at ", "the first run builds the base")
	reps := readRevReports(t, first)
	revCheckSummary(t, sumPath, reps)
	for pkg, rep := range reps {
		rev := rep.Against.BaseRevision
		require.NotNil(t, rev, pkg)
		assert.Equal(t, "main", rev.Rev, pkg)
		assert.Equal(t, mergeBase, rev.Commit, pkg)
		assert.False(t, rev.Reused, "%s: the first run builds", pkg)
	}
	a := reps["a"].Against
	require.Len(t, a.Benchmarks, 1, out)
	assert.Equal(t, e2eName("Work"), a.Benchmarks[0].Name)
	assert.Equal(t, "lockstep", a.Benchmarks[0].Mode)
	assert.Contains(t, []string{"slower", "faster", "same", "undecided"}, a.Benchmarks[0].Estimate.Verdict)
	assert.True(t, strings.HasPrefix(a.Base.Path, r.cache), "the base binary is in the cache: %s", a.Base.Path)
	assert.Contains(t, out, "benchkit │ example.com/revdemo/a · against main (merge base "+mergeBase[:12]+") · go", "the header line names the revision")

	b := reps["b"].Against
	require.Len(t, b.Benchmarks, 1, out)
	assert.Equal(t, "rounds", b.Benchmarks[0].Mode)
	assert.Contains(t, b.Benchmarks[0].ModeNote, "does not speak the lockstep protocol")
	assert.Contains(t, b.Benchmarks[0].ModeNote, "adopts benchkit")

	n := reps["newonly"].Against
	assert.Empty(t, n.Benchmarks)
	assert.Equal(t, []string{e2eName("Fresh")}, n.OnlyNew)
	assert.Contains(t, n.BaseRevision.Missing, "newonly")

	br := reps["broken"].Against
	assert.Empty(t, br.Benchmarks)
	require.Len(t, br.Failures, 1, out)
	assert.True(t, br.Failures[0].Build)
	assert.Contains(t, br.Failures[0].Output, "broken.go:3", "the compiler's output")
	assert.Contains(t, out, "the base did not build")

	bins := revCacheFiles(t, r.cache)
	require.Len(t, bins, 2, "a's and b's base binaries, nothing for newonly and broken: %v", bins)

	second := t.TempDir()
	out, code = r.goTest(t, args(second)...)
	require.Equal(t, 0, code, out)
	for _, pkg := range []string{"a", "b"} {
		assert.True(t, readRevReports(t, second)[pkg].Against.BaseRevision.Reused, "%s: the second run reuses the base", pkg)
	}
	again := revCacheFiles(t, r.cache)
	require.Len(t, again, len(bins), "no binary added")
	for name, fi := range bins {
		require.Contains(t, again, name)
		assert.True(t, os.SameFile(fi, again[name]), "%s: the same file (device and inode), not one built again", name)
		assert.Equal(t, fi.ModTime(), again[name].ModTime(), "%s: untouched", name)
	}
	for _, pkg := range []string{"a", "b"} { // broken's base is built again: a failed build is not cached
		assert.NotContains(t, out, "building example.com/revdemo/"+pkg+" ", "%s's base is not built again", pkg)
	}
	assert.NotContains(t, out, "checking out ", "the base's files are not checked out again")
	assert.Equal(t, status, r.git(t, "status", "--porcelain"), "the checkout is untouched")

	revShards(t, r, args)

	// With a gate, a base that does not build compared nothing: the
	// package fails, as a gate that compared nothing does.
	out, code = r.goTest(t, "-run=^$", "-bench=.", "-benchtime=20ms", "./broken", "-benchkit.against=main", "-benchkit.gate=5", "-benchkit.progress=off")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "the gate compared nothing, and a gate that compared nothing does not pass: the base did not build")
	assert.Len(t, strings.Split(r.git(t, "worktree", "list", "--porcelain"), "\nworktree "), 1, "no worktree registered")
}

// revShards runs the module against the revision in two shards
// (-benchkit.shard=K/2), with the bases in the cache: the shards' JSON
// reports hold every benchmark of the module once, those of the package
// not at the base and of the one whose base did not build included, and
// their summaries merge into one part per package.
func revShards(t *testing.T, r revRepo, args func(out string) []string) {
	t.Helper()
	dir := t.TempDir()
	var sums []summary.Part
	seen := map[string]int{}
	for k := 1; k <= 2; k++ {
		out := filepath.Join(dir, fmt.Sprintf("shard%d", k))
		require.NoError(t, os.Mkdir(out, 0o755))
		sum := filepath.Join(dir, fmt.Sprintf("shard%d.md", k))
		text, code := r.goTest(t, append(args(out), fmt.Sprintf("-benchkit.shard=%d/2", k), "-benchkit.summary="+sum)...)
		require.Equal(t, 0, code, text)
		for pkg, rep := range readRevReports(t, out) {
			for _, b := range rep.Against.Benchmarks {
				seen[pkg+"."+b.Name]++
			}
			for _, name := range rep.Against.OnlyNew {
				seen[pkg+"."+name]++
			}
			if len(rep.Against.Failures) > 0 { // broken: its shard tried to compare Half
				seen["broken."+e2eName("Half")]++
			}
		}
		parts, err := summary.Read(sum)
		require.NoError(t, err, text)
		sums = append(sums, parts...)
	}
	assert.Equal(t, map[string]int{"a." + e2eName("Work"): 1, "b." + e2eName("Sum"): 1, "newonly." + e2eName("Fresh"): 1, "broken." + e2eName("Half"): 1}, seen,
		"every benchmark in exactly one shard")
	merged, err := summary.Merge(sums)
	require.NoError(t, err)
	require.Len(t, merged, 4, "a part per package")
	for _, p := range merged {
		switch strings.TrimPrefix(p.Package, "example.com/revdemo/") {
		case "broken":
			assert.Contains(t, p.NotCompared, "the base did not build")
		case "newonly":
			assert.NotEmpty(t, p.New)
		}
	}
}

// revCheckSummary checks the run's summary at path against the
// packages' JSON reports: every package has its part; each compared
// benchmark is listed in the section its verdict puts it in (regressions,
// improvements, undecided) or counted as the same; the package whose
// base did not build is listed as not compared with the compiler's
// error, the package not at the base as new; and the sections come in
// that order, then the rest's counts, then the packages.
func revCheckSummary(t *testing.T, path string, reps map[string]revReport) {
	t.Helper()
	parts, err := summary.Read(path)
	require.NoError(t, err)
	byPkg := map[string]summary.Part{}
	for _, p := range parts {
		byPkg[strings.TrimPrefix(p.Package, "example.com/revdemo/")] = p
	}
	require.Len(t, byPkg, 4, "a part per package: %v", byPkg)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	md := string(b)
	t.Log("the summary:\n" + md)

	heads := []string{"**✗ Regressions", "**✓ Improvements", "**? Undecided", "**⊘ Not compared", "**New:**", "**The rest:**", "<details><summary>4 packages</summary>"}
	last := -1
	for _, h := range heads {
		if i := strings.Index(md, h); i >= 0 {
			assert.Greater(t, i, last, "%q comes after the sections before it", h)
			last = i
		}
	}
	section := func(row string) string { // the heading of the section holding row
		i := strings.Index(md, row)
		require.GreaterOrEqual(t, i, 0, "%q is in the summary", row)
		head, at := "", -1
		for _, h := range heads {
			if j := strings.LastIndex(md[:i], h); j > at {
				head, at = h, j
			}
		}
		return head
	}
	want := map[string]string{"slower": "**✗ Regressions", "faster": "**✓ Improvements", "undecided": "**? Undecided"}
	same := 0
	for _, pkg := range []string{"a", "b"} {
		bench := reps[pkg].Against.Benchmarks[0]
		if bench.Estimate.Verdict == "same" {
			same++
			assert.NotContains(t, md, "`"+bench.Name+"`", "%s: a benchmark decided the same is only counted", pkg)
			continue
		}
		assert.Equal(t, want[bench.Estimate.Verdict], section("| "+pkg+" | `"+bench.Name+"` |"), "%s's %s, %s", pkg, bench.Name, bench.Estimate.Verdict)
	}
	rest := "1 only in the new build"
	if same > 0 {
		rest = fmt.Sprintf("%d same, %s", same, rest)
	}
	assert.Contains(t, md, "**The rest:** "+rest+"\n")

	br := byPkg["broken"]
	assert.Contains(t, br.NotCompared, "the base did not build")
	assert.Contains(t, br.NotCompared, "broken.go:3", "the compiler's first error")
	assert.Equal(t, "**⊘ Not compared", section("| broken | the base did not build ("))
	assert.Contains(t, byPkg["newonly"].New, "newonly")
	assert.Contains(t, md, "**New:** `newonly` (not at the base")
	assert.Contains(t, md, " · 1 not compared · 1 new package · ")
	for _, pkg := range []string{"a", "b", "newonly", "broken"} {
		assert.Contains(t, md, "- `example.com/revdemo/"+pkg+"`: ", "the packages' list holds %s", pkg)
	}
}

// revCacheFiles returns the test binaries in the cache by name, and
// fails t on anything half written or more merge bases than one (the
// bound, basebuild.Keep, is more).
func revCacheFiles(t *testing.T, cache string) map[string]os.FileInfo {
	t.Helper()
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	var commits []string
	for _, e := range entries {
		if e.IsDir() {
			commits = append(commits, e.Name())
		}
	}
	require.Len(t, commits, 1, "one merge base in the cache")
	files := map[string]os.FileInfo{}
	require.NoError(t, filepath.WalkDir(cache, func(path string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		assert.False(t, strings.HasSuffix(path, ".tmp"), "half written: %s", path)
		if strings.HasSuffix(path, ".test") || strings.HasSuffix(path, ".test.exe") {
			fi, err := os.Stat(path)
			require.NoError(t, err)
			files[filepath.Base(path)] = fi
		}
		return nil
	}))
	return files
}

// TestAgainstRevisionBadInput: a revision that cannot be built from
// stops the run before anything runs, with exit code 2 and the fix, and
// leaves nothing in the cache: not a git repository, git missing, an
// unknown revision, a shallow clone without the merge base.
func TestAgainstRevisionBadInput(t *testing.T) {
	r := newRevRepo(t)
	bin := testbin.Build(t, "./testdata/against")
	shallow := filepath.Join(t.TempDir(), "shallow")
	r.git(t, "-c", "protocol.file.allow=always", "clone", "-q", "--depth=1", "--branch=feature", "file://"+r.dir, shallow)
	shallowRepo := revRepo{dir: shallow, env: r.env}
	shallowRepo.git(t, "-c", "protocol.file.allow=always", "fetch", "-q", "--depth=1", "origin", "main:refs/remotes/origin/main")
	for _, tc := range []struct {
		name, dir, rev string
		env            []string
		want           []string
	}{
		{"not a repository", t.TempDir(), "main", nil, []string{"is not in a git repository", "run go test in the repository's checkout"}},
		{"no git", r.dir, "main", []string{"PATH=" + t.TempDir()}, []string{"no git command on PATH", "install git or add it to PATH"}},
		{"unknown revision", r.dir, "origin/mian", nil, []string{"no such revision", "check the name", "git fetch origin main"}},
		{"shallow", shallow, "origin/main", nil, []string{"this clone is shallow", "fetch-depth: 0", "git fetch --unshallow"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			env := append([]string{"BENCHKIT_CACHE=" + cache}, tc.env...)
			run := testbin.Run(t, bin, tc.dir, time.Minute, env, "-test.run=^$", "-test.bench=Work", "-benchkit.against="+tc.rev)
			assert.Equal(t, 2, run.Code, run.Combined())
			for _, w := range tc.want {
				assert.Contains(t, run.Stderr, w)
			}
			assert.NotContains(t, run.Stdout, "benchkit │", "nothing ran")
			des, _ := os.ReadDir(cache)
			assert.Empty(t, des, "nothing left in the cache")
		})
	}
}
