package summary

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/settings"
)

// bench is a cross-build benchmark with Δ and its interval, the control
// within ±1%, and unknown counts.
func bench(name string, v verdict.Verdict, delta, lo, hi float64, reason string) against.Bench {
	return against.Bench{Name: name, Mode: against.ModeLockstep,
		NewEst:     verdict.Estimate{Name: "new", DeltaPct: delta, LoPct: lo, HiPct: hi, Verdict: v, Reason: reason},
		ControlEst: verdict.Estimate{Name: "control", DeltaPct: 0, LoPct: -1, HiPct: 1, Verdict: verdict.Same},
		Allocs:     against.Count{Base: -1, New: -1}, Bytes: against.Count{Base: -1, New: -1},
		BetweenPct: -1, WithinPct: -1, IdleCPUPct: -1}
}

// partOf is the summary's part of a synthetic cross-build run of pkg.
func partOf(pkg string, sh settings.Shard, res against.Result) Part {
	in := report.Input{Package: pkg, Against: &res, Settings: report.Settings{Shard: sh}}
	return PartOf(report.JSONReportOf(in, report.Analyze(in)))
}

// threePackages are cross-build runs of three packages with every class.
func threePackages() []Part {
	alloc := bench("Alloc-2", verdict.Same, 0.4, -0.5, 1.3, "the interval lies within ±1% (Negligible)")
	alloc.Allocs = against.Count{Base: 1, New: 2}
	return []Part{
		partOf("example.com/m/a", settings.Shard{}, against.Result{Benches: []against.Bench{
			bench("Work-2", verdict.Slower, 103.6, 99.1, 108.2, "the interval excludes 0 and lies above the control's"),
			bench("Same-2", verdict.Same, 0.1, -0.4, 0.6, "the interval lies within ±1% (Negligible)"),
		}}),
		partOf("example.com/m/b", settings.Shard{}, against.Result{Benches: []against.Bench{
			bench("Parse-2", verdict.Faster, -21, -24, -18, "the interval excludes 0 and lies below the control's"),
			bench("Hash-2", verdict.Undecided, 1.2, -3.1, 5.4, "the interval contains 0 and reaches beyond ±1%: too wide to tell with 10 rounds"),
		}}),
		partOf("example.com/m/c/d", settings.Shard{}, against.Result{Benches: []against.Bench{alloc}, OnlyBase: []string{"Gone"}, OnlyNew: []string{"Fresh"}}),
	}
}

// TestMarkdownOrder: over several packages, added one after another, the
// file reads regressions first (worst first), then improvements, then
// undecided with its reason, then the rest as counts; every package is
// listed once, and the text around benchkit's block is kept.
func TestMarkdownOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	require.NoError(t, os.WriteFile(path, []byte("# CI\nthe user's own line"), 0o600))
	for _, p := range threePackages() {
		require.NoError(t, Add(path, p))
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	md := string(b)
	t.Log("\n" + md)
	assert.True(t, strings.HasPrefix(md, "# CI\nthe user's own line\n"+blockBegin+"\n"), "the user's text first, then the block")
	assert.Contains(t, md, "### benchkit: 2 regressions · 1 improvement · 1 undecided · 3 more\n")
	order := []string{"**✗ Regressions", "| a | `Work-2` | +103.60% |", "| c/d | `Alloc-2` | +0.40% |", "allocs/op 1 → 2",
		"**✓ Improvements", "| b | `Parse-2` | -21.00%", "**? Undecided", "| b | `Hash-2` |", "too wide to tell with 10 rounds",
		"**The rest:** 1 same, 1 only in the base, 1 only in the new build", "<details><summary>3 packages</summary>",
		"- `example.com/m/a`: 1 regression (worst Work-2 +103.60%) · 1 same", "- `example.com/m/b`: 1 improvement · 1 undecided",
		"- `example.com/m/c/d`: 1 regression (worst Alloc-2 +0.40%) · 1 only in the base · 1 only in the new build", blockEnd}
	at := 0
	for _, s := range order {
		i := strings.Index(md[at:], s)
		require.GreaterOrEqual(t, i, 0, "%q after position %d", s, at)
		at += i + len(s)
	}
	assert.Equal(t, 1, strings.Count(md, "`Work-2`"), "listed once")
	assert.NotContains(t, md, "Same-2", "the same are only counted")
	assert.Equal(t, 1, strings.Count(md, blockBegin))

	parts, err := Read(path)
	require.NoError(t, err)
	assert.Len(t, parts, 3)

	fixed := partOf("example.com/m/a", settings.Shard{}, against.Result{Benches: []against.Bench{
		bench("Work-2", verdict.Same, 0.2, -0.3, 0.7, "the interval lies within ±1% (Negligible)")}})
	require.NoError(t, Add(path, fixed))
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "`Work-2`", "a package's new part replaces its old one")
	assert.Contains(t, string(b), "### benchkit: 1 regression · 1 improvement · 1 undecided · 3 more\n")
}

// TestPlainPart: a plain run lists its flagged benchmarks (not those
// allowed) and a Compare whose gate failed, and counts the rest.
func TestPlainPart(t *testing.T) {
	rep := report.JSONReport{Package: "example.com/m/p", Benchmarks: []report.JSONBenchmark{
		{Display: "Sum-2", Flags: []report.JSONFlag{{Kind: "eliminated", Message: "ns/op at the empty-loop floor"}}},
		{Display: "Ok-2"},
		{Display: "Allowed-2", Flags: []report.JSONFlag{{Kind: "allocs", Message: "x", Allowed: "known"}}},
	}, Comparisons: []report.JSONComparison{
		{Benchmark: "Cmp", Baseline: "old", GatePct: 5, GateFailed: true, Candidates: []report.JSONEstimate{
			{Name: "new", Verdict: "slower", DeltaPct: ptr(12), LoPct: ptr(10), HiPct: ptr(14)}}},
		{Benchmark: "Cmp2"},
	}}
	p := PartOf(rep)
	require.Len(t, p.Entries, 2)
	assert.Equal(t, Entry{Package: "example.com/m/p", Name: "Sum-2", Class: Flagged, Why: "eliminated: ns/op at the empty-loop floor"}, p.Entries[0])
	assert.Equal(t, Regression, p.Entries[1].Class)
	assert.Equal(t, "control.Compare: new slower than old, beyond the 5% gate", p.Entries[1].Why)
	assert.Equal(t, map[string]int{RestClean: 2, RestCompared: 1}, p.Rest)
	var b strings.Builder
	require.NoError(t, Markdown(&b, []Part{p}))
	assert.Contains(t, b.String(), "### benchkit: 1 regression · 1 flagged · 3 more\n")
	assert.Contains(t, b.String(), "| p | `Sum-2` | eliminated: ns/op at the empty-loop floor |")
	assert.Equal(t, "1 regression (worst Cmp +12.00%) · 1 flagged · 2 without flags · 1 control.Compare comparisons", Headline(p))
}

func ptr(x float64) *float64 { return &x }

// TestConcurrentAdd: goroutines and processes adding parts to one file
// at once leave a well-formed summary holding every part exactly once.
func TestConcurrentAdd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	const procs, each = 3, 8
	var wg sync.WaitGroup
	errs := make(chan error, procs+each)
	for i := range each {
		wg.Go(func() { errs <- Add(path, syntheticPart(fmt.Sprintf("example.com/g/p%d", i))) })
	}
	for i := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAdd$", "-test.count=1")
			cmd.Env = append(os.Environ(), "SUMMARY_HELPER_PATH="+path, "SUMMARY_HELPER_PROC="+strconv.Itoa(i))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("%v: %s", err, out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	parts, err := Read(path)
	require.NoError(t, err)
	seen := map[string]int{}
	for _, p := range parts {
		seen[p.Package]++
	}
	assert.Len(t, seen, each+procs*each)
	for pkg, n := range seen {
		assert.Equal(t, 1, n, pkg)
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(b), blockBegin))
	assert.Equal(t, 1, strings.Count(string(b), blockEnd))
	assert.Contains(t, string(b), fmt.Sprintf("<details><summary>%d packages</summary>", each+procs*each))
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".benchkit-*"))
	assert.Empty(t, leftovers, "no temporary file is left")
}

// TestHelperAdd is a process of TestConcurrentAdd: it adds its parts
// from goroutines of its own.
func TestHelperAdd(t *testing.T) {
	path := os.Getenv("SUMMARY_HELPER_PATH")
	if path == "" {
		t.Skip("a helper process of TestConcurrentAdd")
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			assert.NoError(t, Add(path, syntheticPart(fmt.Sprintf("example.com/proc%s/p%d", os.Getenv("SUMMARY_HELPER_PROC"), i))))
		})
	}
	wg.Wait()
}

func syntheticPart(pkg string) Part {
	return Part{Package: pkg, Against: true, Rest: map[string]int{RestSame: 1},
		Entries: []Entry{{Package: pkg, Name: "Work-2", Class: Regression, DeltaPct: ptr(math.Round(float64(len(pkg)))), Why: "slower"}}}
}

// TestBadBlock: a file whose block was cut or edited is refused with
// the fix, and left as it was.
func TestBadBlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	for content, msg := range map[string]string{
		"x\n" + blockBegin + "\nno end":                                   "delete the block, or the file",
		blockBegin + "\n" + blockEnd + "\n":                               "has no data line",
		blockBegin + "\n" + dataStart + "!!!" + dataEnd + "\n" + blockEnd: "benchkit's data line",
	} {
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		err := Add(path, syntheticPart("example.com/x"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), msg)
		assert.Contains(t, err.Error(), "delete the block, or the file")
		b, _ := os.ReadFile(path)
		assert.Equal(t, content, string(b))
	}
}

// TestMerge: the shards' parts of a package become one, with every
// listed benchmark once and the counts summed; shards that overlap or
// repeat are refused.
func TestMerge(t *testing.T) {
	s1 := partOf("example.com/m/a", settings.Shard{K: 1, N: 2}, against.Result{Benches: []against.Bench{
		bench("Work-2", verdict.Slower, 50, 40, 60, ""), bench("Same-2", verdict.Same, 0, -1, 1, "")}})
	s2 := partOf("example.com/m/a", settings.Shard{K: 2, N: 2}, against.Result{Benches: []against.Bench{
		bench("Hash-2", verdict.Undecided, 1, -2, 4, "too wide")}, OnlyNew: []string{"Fresh-2"}})
	other := partOf("example.com/m/b", settings.Shard{}, against.Result{Benches: []against.Bench{bench("X-2", verdict.Same, 0, -1, 1, "")}})
	got, err := Merge([]Part{s2, other, s1})
	require.NoError(t, err)
	require.Len(t, got, 2)
	a := got[0]
	assert.Equal(t, "example.com/m/a", a.Package)
	assert.Equal(t, &report.JSONShard{N: 2, Merged: []int{1, 2}}, a.Shard)
	assert.Len(t, a.Entries, 2)
	assert.Equal(t, map[string]int{RestSame: 1, RestOnlyNew: 1}, a.Rest)
	assert.Equal(t, other, got[1])
	var b strings.Builder
	require.NoError(t, Markdown(&b, got))
	assert.Contains(t, b.String(), "- `example.com/m/a` (2 shards of 2 merged): 1 regression")

	_, err = Merge([]Part{s1, s1})
	assert.ErrorContains(t, err, "summary: shard 1/2 of package example.com/m/a is given twice: give each shard's summary once")
	overlap := s2
	overlap.Entries = append(slices.Clone(s2.Entries), s1.Entries[0])
	_, err = Merge([]Part{s1, overlap})
	assert.ErrorContains(t, err, "summary: Work-2 of package example.com/m/a is listed by shards 1 and 2 of 2: the shards overlap")
	unsharded := partOf("example.com/m/a", settings.Shard{}, against.Result{})
	_, err = Merge([]Part{s1, unsharded})
	assert.ErrorContains(t, err, "is not one shard's (shard none) beside others")
}

// TestRevisionParts: against a revision, a package whose base did not
// build is listed as not compared with its first compiler error, and one
// not at the base as new, its benchmarks counted as only in the new
// build; both come after the undecided, before the rest's counts, and a
// shard's part of either is merged once.
func TestRevisionParts(t *testing.T) {
	rev := &against.Revision{Rev: "origin/main", Commit: "0123456789abcdef0123456789abcdef01234567"}
	broken := partOf("example.com/m/broken", settings.Shard{}, against.Result{BaseRev: rev, Failures: []against.Failure{{
		Side: "base", Build: true, Message: "go test -c: exit status 1 at 0123456789ab",
		Output: "# example.com/m/broken [example.com/m/broken.test]\n./broken.go:3:33: invalid operation: n / \"2\"\nFAIL\texample.com/m/broken [build failed]\n"}}})
	missing := *rev
	missing.Missing = "newonly is not in the base's files"
	fresh := partOf("example.com/m/newonly", settings.Shard{}, against.Result{BaseRev: &missing, OnlyNew: []string{"Fresh-2"}})
	assert.Equal(t, `the base did not build (go test -c: exit status 1 at 0123456789ab): ./broken.go:3:33: invalid operation: n / "2"`, broken.NotCompared)
	assert.False(t, broken.Empty(), "a package not compared has its part")
	assert.Empty(t, broken.New)
	assert.Equal(t, "newonly is not in the base's files", fresh.New)
	assert.Equal(t, map[string]int{RestOnlyNew: 1}, fresh.Rest)
	assert.Equal(t, Undecided, Worst(broken))
	assert.Contains(t, Headline(broken), "not compared: the base did not build")
	assert.Equal(t, "new: newonly is not in the base's files · 1 only in the new build", Headline(fresh))

	parts := append(threePackages(), broken, fresh)
	var b strings.Builder
	require.NoError(t, Markdown(&b, parts))
	md := b.String()
	t.Log("\n" + md)
	assert.Contains(t, md, "### benchkit: 2 regressions · 1 improvement · 1 undecided · 1 not compared · 1 new package · 4 more\n")
	order := []string{"**✗ Regressions", "**✓ Improvements", "**? Undecided", "**⊘ Not compared",
		"| broken | the base did not build (go test -c: exit status 1 at 0123456789ab): ./broken.go:3:33: invalid operation: n / \"2\" |",
		"**New:** `newonly`", "**The rest:** 1 same, 1 only in the base, 2 only in the new build",
		"- `example.com/m/broken`: not compared: the base did not build", "- `example.com/m/newonly`: new: newonly is not in the base's files"}
	at := 0
	for _, s := range order {
		i := strings.Index(md[at:], s)
		require.GreaterOrEqual(t, i, 0, "%q after position %d", s, at)
		at += i + len(s)
	}

	s1 := partOf("example.com/m/broken", settings.Shard{K: 1, N: 2}, against.Result{BaseRev: rev, Failures: []against.Failure{{Side: "base", Build: true, Message: "x"}}})
	s2 := partOf("example.com/m/broken", settings.Shard{K: 2, N: 2}, against.Result{BaseRev: rev, Failures: []against.Failure{{Side: "base", Build: true, Message: "x"}}})
	merged, err := Merge([]Part{s1, s2})
	require.NoError(t, err)
	require.Len(t, merged, 1)
	assert.Equal(t, "the base did not build (x)", merged[0].NotCompared)
	b.Reset()
	require.NoError(t, Markdown(&b, merged))
	assert.Equal(t, 1, strings.Count(b.String(), "| broken (2 shards of 2 merged) | the base did not build (x) |"))
}
