package against

import (
	"flag"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

func TestAgainstShare(t *testing.T) {
	assert.Equal(t, "667ms", share(testflag.Benchtime{D: time.Second}))
	assert.Equal(t, "20ms", share(testflag.Benchtime{D: 30 * time.Millisecond}))
	assert.Equal(t, "1ms", share(testflag.Benchtime{D: time.Microsecond}))
	assert.Equal(t, "7x", share(testflag.Benchtime{N: 10}))
	assert.Equal(t, "1x", share(testflag.Benchtime{N: 1}))
}

func TestParseOutput(t *testing.T) {
	out := []byte("goos: linux\npkg: p\n" +
		"BenchmarkA-2   \t 100\t 12.5 ns/op\t 64 B/op\t 1 allocs/op\n" +
		"BenchmarkB/n=1-2 \t 10\t 3000 ns/op\n" +
		"--- FAIL: BenchmarkC\n" +
		"BenchmarkD-2 \t 1\n" +
		"benchkit │ report line\nPASS\n")
	got := parseOutput(out, selection{bench: ".", procs: []int{2}})
	assert.Equal(t, map[string]measurement{
		"A-2":     {ns: 12.5, allocs: 1, bytes: 64, iters: 100},
		"B/n=1-2": {ns: 3000, allocs: -1, bytes: -1, iters: 10},
	}, got.results)
	assert.Empty(t, got.bad)
}

// TestParseOutputRejects: lines a benchmark printed to stdout are never
// taken for results: a fake result in another format, the remains of a
// line something printed into, two results for one name, a result for a
// benchmark the process did not select.
func TestParseOutputRejects(t *testing.T) {
	sel := selection{bench: "^Benchmark(Sum|Other)$", procs: []int{2}}
	for _, tc := range []struct {
		name, out, bad, why string
	}{
		{"fake line", "BenchmarkSum-2 1000000 1.000 ns/op\nBenchmarkOther-2 \t 10\t 5 ns/op\n", "Sum-2", "not in testing's format"},
		{"printed into", "BenchmarkSum-2   \tBenchmarkSum-2 1000000 1.000 ns/op\n    1000\t      5883 ns/op\n", "Sum-2", "was broken by something the benchmark printed"},
		{"twice", "BenchmarkSum-2 \t 10\t 1 ns/op\nBenchmarkSum-2 \t 1000\t 5883 ns/op\n", "Sum-2", "two result lines"},
		{"not selected", "BenchmarkSum-2 \t 10\t 5 ns/op\nBenchmarkElse-2 \t 10\t 1 ns/op\n", "Else-2", "did not select"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := parseOutput([]byte("goos: linux\n"+tc.out), sel)
			assert.Contains(t, got.bad[tc.bad], tc.why)
			assert.NotContains(t, got.results, tc.bad, "never taken")
		})
	}
	phantom := "BenchmarkSum-2 \t 10\t 1 ns/op\ngoos: linux\nBenchmarkOther-2 \t 10\t 5 ns/op\nPASS\nBenchmarkSum-2 \t 10\t 1 ns/op\n"
	got := parseOutput([]byte(phantom), sel)
	assert.Equal(t, map[string]measurement{"Other-2": {ns: 5, allocs: -1, bytes: -1, iters: 10}}, got.results,
		"lines TestMain prints before the header or after PASS are no benchmark's")
	assert.Empty(t, got.bad)
	assert.Empty(t, parseOutput([]byte("BenchmarkSum-2 \t 10\t 1 ns/op\nPASS\n"), sel).results, "no header: no benchmark ran")
}

func TestFailedBenchmarks(t *testing.T) {
	assert.Equal(t, []string{"BenchmarkB", "BenchmarkD", "BenchmarkD/s=1"}, failedBenchmarks([]byte(
		"BenchmarkA-2 \t 1\t 5 ns/op\n--- FAIL: BenchmarkB\n    x_test.go:4: boom\n--- FAIL: BenchmarkD\n    --- FAIL: BenchmarkD/s=1\n"), []int{2}),
		"--- FAIL lines, sub-benchmarks too")
	assert.Equal(t, []string{"BenchmarkC-2"}, failedBenchmarks([]byte(
		"BenchmarkA-2 \t 1\t 5 ns/op\nBenchmarkC-2 \t 1\npanic: kaboom\n\ngoroutine 22 [running]:\np.BenchmarkC(0x1)\n"), []int{2}),
		"the cut-short line of the benchmark that was running")
	assert.Equal(t, []string{"BenchmarkC"}, failedBenchmarks([]byte(
		"BenchmarkA-2 \t 1\t 5 ns/op\npanic: kaboom\n\ngoroutine 22 [running]:\nexample.com/p.helper()\nexample.com/p.BenchmarkC.func1(0x1)\n"), []int{2}),
		"from the stack when testing had not printed the name")
	assert.Empty(t, failedBenchmarks([]byte("BenchmarkA-2 \t 1\t 5 ns/op\nsignal: killed\n"), []int{2}))
	assert.Equal(t, []string{"BenchmarkHang"}, failedBenchmarks([]byte(
		"=== RUN   BenchmarkA\nBenchmarkA-2 \t 1\t 5 ns/op\n=== RUN   BenchmarkHang\n"), []int{2}),
		"killed in its first call: the last benchmark the verbose output started")
	assert.Empty(t, failedBenchmarks([]byte("=== RUN   BenchmarkA\nBenchmarkA-2 \t 1\t 5 ns/op\n"), []int{2}), "it finished: nothing to blame")
}

func TestSkipFor(t *testing.T) {
	st := &state{failed: map[string]bool{"BenchmarkB": true}}
	st.seen[sideBase] = map[string]bool{"A-2": true, "Old-2": true, "Both/x-2": true}
	st.seen[sideNew] = map[string]bool{"A-2": true, "New/y-2": true, "Both/z-2": true}
	assert.Equal(t, "^(BenchmarkB|BenchmarkOld)$", st.skipFor(sideBase), "failed ones and the families only this binary has")
	assert.Equal(t, "^(BenchmarkB|BenchmarkNew)$", st.skipFor(sideNew), "Both has sub-benchmarks in both binaries: kept")
	st.p.skip = "^X$"
	assert.Equal(t, "^X$", st.skipFor(sideNew), "the user's -skip wins")
}

// synth returns n rounds of ns/op around ns, alternating ±jitter percent.
func synth(n int, ns, jitter float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = ns * (1 + jitter/100*float64(i%3-1))
	}
	return xs
}

func TestAgainstBench(t *testing.T) {
	a := Result{Confidence: 0.975, Negligible: 1, GatePct: 5, GateAllocs: true}
	base := Side{NsPerOp: synth(10, 100, 0.2), AllocsPerOp: synth(10, 1, 0), BytesPerOp: synth(10, 64, 0)}
	slow := Side{NsPerOp: synth(10, 110, 0.2), AllocsPerOp: synth(10, 2, 0), BytesPerOp: synth(10, 96, 0)}
	ctl := Side{NsPerOp: synth(10, 100, 0.2), AllocsPerOp: synth(10, 1, 0), BytesPerOp: synth(10, 64, 0)}

	b := benchOf("X-2", base, slow, ctl, a)
	assert.Equal(t, verdict.Slower, b.NewEst.Verdict, b.NewEst.Reason)
	assert.InDelta(t, 10, b.NewEst.DeltaPct, 0.5)
	assert.Equal(t, verdict.Same, b.ControlEst.Verdict, b.ControlEst.Reason)
	assert.Equal(t, Count{Base: 1, New: 2}, b.Allocs)
	assert.Equal(t, Count{Base: 64, New: 96}, b.Bytes)
	assert.True(t, b.GateFailed())

	// The control 5% off zero: nothing is decided, and the gate says so.
	off := Side{NsPerOp: synth(10, 105, 0.2)}
	b = benchOf("X-2", base, slow, off, Result{Confidence: 0.975, Negligible: 1, GatePct: 5})
	assert.Equal(t, verdict.Undecided, b.NewEst.Verdict)
	assert.Contains(t, b.NewEst.Reason, "cannot decide: the control")
	assert.False(t, b.GateFailed(), "undecided never fails the gate")
	assert.Contains(t, b.GateNote, "undecided")

	// One round: no interval; counts still compared.
	b = benchOf("X-2", Side{NsPerOp: []float64{100}}, Side{NsPerOp: []float64{150}}, Side{NsPerOp: []float64{100}}, a)
	assert.Equal(t, verdict.Undecided, b.NewEst.Verdict)
	assert.Contains(t, b.NewEst.Reason, "raise -benchkit.rounds")
	assert.Equal(t, Count{Base: -1, New: -1}, b.Allocs)
}

func TestCountVaries(t *testing.T) {
	c := countOf([]float64{0, 0, 1}, []float64{0, 0, 0}, []float64{0})
	assert.True(t, c.Varies)
	assert.False(t, c.Changed(), "medians agree")
}

func TestAgainstFlagsOK(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("test.bench", "", "")
	fs.String("test.count", "1", "")
	fs.String("test.cpuprofile", "", "")
	fs.String("test.list", "", "")
	require.NoError(t, fs.Parse([]string{"-test.bench=."}))
	assert.NoError(t, flagsOK(fs, "."))
	assert.ErrorContains(t, flagsOK(fs, ""), "add -bench=PATTERN")
	require.NoError(t, fs.Set("test.cpuprofile", "c.out"))
	assert.ErrorContains(t, flagsOK(fs, "."), "drop -cpuprofile")
	require.NoError(t, fs.Set("test.count", "3"))
	assert.ErrorContains(t, flagsOK(fs, "."), "drop -count")
}

// TestJoinOutput: a name cut short on stdout (no line break, the panic on
// stderr) is still found; CI once lost it (TestAgainstE2E/PanicInNew).
func TestJoinOutput(t *testing.T) {
	out := joinOutput([]byte("BenchmarkWork-2 \t 1\t 5 ns/op\nBenchmarkPanics-2   \t"),
		[]byte("panic: boom\n\ngoroutine 21 [running]:\nexample.com/p.BenchmarkPanics(0x1)\n"))
	assert.Equal(t, []string{"BenchmarkPanics-2"}, failedBenchmarks(out, []int{2}))
	assert.Equal(t, "a\nb", string(joinOutput([]byte("a\n"), []byte("b"))))
}

// TestCountMedianIsACount: an even number of rounds split between 2 and 3
// allocs/op gives a count that was measured, never 2.5.
func TestCountMedianIsACount(t *testing.T) {
	c := countOf([]float64{2, 3, 2, 3}, []float64{2, 3, 3, 2}, nil)
	assert.Equal(t, Count{Base: 2, New: 2, Varies: true}, c)
	assert.False(t, c.Changed())
}

// TestSettingsDiff: build settings that change speed by themselves are
// named, base → new; the VCS stamp, -ldflags and DefaultGODEBUG are not.
func TestSettingsDiff(t *testing.T) {
	base := map[string]string{"-compiler": "gc", "GOAMD64": "v1", "vcs.revision": "a", "-ldflags": "-X v=1", "DefaultGODEBUG": "x=1", "-gcflags": "-N -l"}
	cand := map[string]string{"-compiler": "gc", "GOAMD64": "v3", "-race": "true", "vcs.revision": "b", "-ldflags": "-X v=2", "-tags": "new", "-trimpath": "true"}
	assert.Equal(t, []string{"-gcflags: -N -l → unset", "-race: unset → true", "GOAMD64: v1 → v3"}, settingsDiff(base, cand))
	assert.Empty(t, settingsDiff(base, base))
	assert.Nil(t, settingsDiff(nil, cand), "unknown: nothing to say")
}

// TestFlagsOKCount: -count=1, as a user may give it explicitly, is what
// every process runs anyway and is taken; any other count is refused
// with the fix.
func TestFlagsOKCount(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("test.bench", "", "")
	fs.String("test.count", "1", "")
	fs.String("test.list", "", "")
	require.NoError(t, fs.Parse([]string{"-test.bench=.", "-test.count=1"}))
	assert.NoError(t, flagsOK(fs, "."))
	require.NoError(t, fs.Set("test.count", "3"))
	assert.ErrorContains(t, flagsOK(fs, "."), "-count=3 cannot apply: drop -count")
}

// TestDetectable: the smallest change either way the control's interval
// lets a run decide: beyond it by a candidate interval as wide.
func TestDetectable(t *testing.T) {
	assert.InDelta(t, 2.0, detectable(verdict.Estimate{LoPct: -1, HiPct: 1}), 1e-12)
	assert.InDelta(t, 2.5, detectable(verdict.Estimate{DeltaPct: 0.5, LoPct: -0.5, HiPct: 1.5}), 1e-12, "a control off centre: the far side")
	assert.Zero(t, detectable(verdict.Estimate{LoPct: math.NaN(), HiPct: math.NaN()}), "no interval: nothing to say")
}

// TestNothingCompared: a gated run that compared nothing fails and says
// why (a base that did not build first), except when every benchmark is
// new; without a gate it passes.
func TestNothingCompared(t *testing.T) {
	build := Failure{Side: "base", Build: true, Message: "go test -c exited with status 1"}
	rev := &Revision{Rev: "main"}
	assert.Contains(t, nothingCompared(Result{BaseRev: rev, Failures: []Failure{build}}, true),
		"against main: the gate compared nothing, and a gate that compared nothing does not pass: the base did not build")
	assert.Empty(t, nothingCompared(Result{BaseRev: rev, Failures: []Failure{build}}, false), "no gate, no failure")
	assert.Empty(t, nothingCompared(Result{BaseRev: rev, OnlyNew: []string{"Fresh"}}, true), "every benchmark new: nothing to gate")
	assert.Contains(t, nothingCompared(Result{Base: Binary{Path: "base.test"}, OnlyBase: []string{"Old"}}, true), "against base.test: ")
}
