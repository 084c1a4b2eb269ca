package benchkit_test

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/internal/testbin"
)

// The end-to-end tests build a testdata package's test binary once with
// go test -c, run it as `go test -bench` would, and read its output with
// benchfmt, as benchstat does.

// e2eBuild compiles ./testdata/<pkg> into a test binary in t's temp dir.
func e2eBuild(t *testing.T, pkg string) string {
	t.Helper()
	return testbin.Build(t, "./testdata/"+pkg)
}

// e2eOutput is one run of a test binary.
type e2eOutput struct {
	text    string
	failed  bool                    // non-zero exit
	results map[string][]e2eResult  // by name as printed, in order
	logs    map[string][]string     // --- BENCH: / --- FAIL: blocks by name, one per block
	fails   map[string]bool         // names with a --- FAIL: block
	errs    []*benchfmt.SyntaxError // lines benchfmt could not parse
}

type e2eResult struct {
	iters  int
	values map[string]float64 // original units, as printed
}

// e2eRun runs bin with args under a timeout and parses its output.
func e2eRun(t *testing.T, bin string, timeout time.Duration, args ...string) e2eOutput {
	t.Helper()
	return e2eRunEnv(t, bin, timeout, nil, args...)
}

// e2eRunEnv is e2eRun with extra environment variables ("KEY=value").
func e2eRunEnv(t *testing.T, bin string, timeout time.Duration, env []string, args ...string) e2eOutput {
	t.Helper()
	run := testbin.Run(t, bin, "", timeout, env, append([]string{"-test.run=^$"}, args...)...)
	out := []byte(run.Combined())
	o := e2eOutput{
		text:    string(out),
		failed:  run.Code != 0,
		results: map[string][]e2eResult{},
		logs:    map[string][]string{},
		fails:   map[string]bool{},
	}
	r := benchfmt.NewReader(bytes.NewReader(out), "out")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			res := e2eResult{iters: rec.Iters, values: map[string]float64{}}
			for _, v := range rec.Values {
				unit, val := v.Unit, v.Value
				if v.OrigUnit != "" {
					unit, val = v.OrigUnit, v.OrigValue
				}
				res.values[unit] = val
			}
			name := "Benchmark" + rec.Name.String()
			o.results[name] = append(o.results[name], res)
		case *benchfmt.SyntaxError:
			o.errs = append(o.errs, rec)
		}
	}
	// Log blocks: "--- BENCH: Name" or "--- FAIL: Name" then indented lines.
	var cur string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "--- BENCH: ") || strings.Contains(line, "--- FAIL: ") {
			i := strings.Index(line, "--- ")
			fields := strings.Fields(line[i:])
			cur = fields[2]
			if fields[1] == "FAIL:" {
				o.fails[cur] = true
			}
			o.logs[cur] = append(o.logs[cur], "")
			continue
		}
		if cur != "" && strings.HasPrefix(line, "    ") {
			l := o.logs[cur]
			l[len(l)-1] += strings.TrimSpace(line) + "\n"
			continue
		}
		cur = ""
	}
	return o
}

// reportPhrase is a regular expression that matches phrase in the
// report, where a wrapped line may break it between any two words: the
// continuation line starts with the report's prefix and an indent.
func reportPhrase(phrase string) string {
	words := strings.Fields(phrase)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(words, `(?: |\nbenchkit │ +)`)
}

// name returns the benchmark name as printed, with the GOMAXPROCS suffix.
func e2eName(base string) string {
	if p := runtime.GOMAXPROCS(0); p != 1 {
		return base + "-" + strconv.Itoa(p)
	}
	return base
}

// checkParses fails on any line benchfmt cannot parse, except testing's
// own "BenchmarkX-2 \t--- FAIL: BenchmarkX-2" lines for failed benchmarks,
// and on any NaN or Inf value.
func (o e2eOutput) checkParses(t *testing.T) {
	t.Helper()
	lines := strings.Split(o.text, "\n")
	for _, e := range o.errs {
		_, n := e.Pos()
		failLine := n >= 1 && n <= len(lines) && strings.Contains(lines[n-1], "--- FAIL: ")
		assert.True(t, failLine, "benchfmt could not parse a line: %v", e)
	}
	for name, rs := range o.results {
		for i, r := range rs {
			for unit, v := range r.values {
				assert.False(t, math.IsNaN(v) || math.IsInf(v, 0), "%s repeat %d: %s = %v", name, i+1, unit, v)
			}
		}
	}
}

// TestE2ESeed004 runs the user's copy of seed 004 (examples/seed004):
// the flags warn and never fail, the metrics appear where they should.
func TestE2ESeed004(t *testing.T) {
	bin := testbin.Build(t, "../examples/seed004")
	const count = 3
	o := e2eRun(t, bin, 5*time.Minute, "-test.bench=.", "-test.benchtime=50ms", "-test.count=3", "-test.benchmem")
	require.False(t, o.failed, "seed004 benchmarks failed; flags must warn, not fail:\n%s", o.text)
	o.checkParses(t)
	names := []string{
		"BenchmarkMakeBuffer_DCE", "BenchmarkMakeBuffer_Correct",
		"BenchmarkOnesCount_ConstantFolded", "BenchmarkOnesCount_Correct",
		"BenchmarkProcess_TimerOrder_Fixed", "BenchmarkProcess_PerIterSetup",
		"BenchmarkHash_BLoop", "BenchmarkHash_Loop",
	}
	for _, base := range names {
		name := e2eName(base)
		t.Run(base, func(t *testing.T) {
			rs := o.results[name]
			require.Len(t, rs, count, "%d result lines for %s, want %d:\n%s", len(rs), name, count, o.text)
			for i, r := range rs {
				_, hasCV := r.values["cv%"]
				assert.Equal(t, i > 0, hasCV, "repeat %d: cv%% present = %v; want it from the second repeat on", i+1, hasCV)
				if runtime.GOOS == "linux" {
					assert.Contains(t, r.values, "wait%", "repeat %d: no wait%% on Linux: %v", i+1, r.values)
				}
				_, hasBatch := r.values["batchcv%"]
				want := base == "BenchmarkHash_Loop"
				assert.Equal(t, want, hasBatch, "repeat %d: batchcv%% present = %v, want %v", i+1, hasBatch, want)
			}
		})
	}

	logs := func(base string) string { return strings.Join(o.logs[e2eName(base)], "") }
	dce := o.logs[e2eName("BenchmarkMakeBuffer_DCE")]
	allocsFlags, elimFlags := 0, 0
	for _, l := range dce {
		if strings.Contains(l, "ExpectAllocs(1) declared") {
			allocsFlags++
		}
		if strings.Contains(l, "empty loop iteration") {
			elimFlags++
		}
	}
	// A warning is logged the first time a benchmark raises its kind, not
	// under every repeat; the report counts the repeats.
	const dceWant = "MakeBuffer_DCE: allocs flag logged in %d of %d repeats (want 1), eliminated flag in %d (want ≥ 1):\n%s"
	assert.Equal(t, 1, allocsFlags, dceWant, allocsFlags, count, elimFlags, strings.Join(dce, "---\n"))
	for _, l := range dce {
		assert.NotContains(t, l, "track.go:", "messages are attributed to the benchmark's own line: %s", l)
	}
	assert.GreaterOrEqual(t, elimFlags, 1, dceWant, allocsFlags, count, elimFlags, strings.Join(dce, "---\n"))
	for _, base := range []string{"BenchmarkMakeBuffer_Correct", "BenchmarkHash_BLoop"} {
		l := logs(base)
		assert.NotContains(t, l, "benchkit:", "%s flagged; want no flag:\n%s", base, l)
	}
}

// TestE2ESetupCost: per-iteration StopTimer/StartTimer pairs that cost
// more wall time than the work raise timer-toggling (b.N style) and
// setup-cost (LoopWithSetup), as warnings.
func TestE2ESetupCost(t *testing.T) {
	bin := e2eBuild(t, "setupcost")
	o := e2eRun(t, bin, 5*time.Minute, "-test.bench=.", "-test.benchtime=50ms")
	require.False(t, o.failed, "the flags must warn, not fail:\n%s", o.text)
	o.checkParses(t)
	l := strings.Join(o.logs[e2eName("BenchmarkStopStart")], "")
	assert.Contains(t, l, "stop-the-world pauses", "per-iteration StopTimer/StartTimer not reported as heavy toggling:\n%s", l)
	l = strings.Join(o.logs[e2eName("BenchmarkLoopWithSetup")], "")
	assert.Contains(t, l, "StopTimer/StartTimer pairs cost", "LoopWithSetup's pair cost not reported:\n%s", l)
}

var e2eGrew = regexp.MustCompile(`b\.N grew from (\d+) to (\d+)`)

func TestE2EStoppedTimer(t *testing.T) {
	bin := e2eBuild(t, "stopped")
	// 40000x: 200ms of untimed work in the final step, which no load on a
	// 2-core machine explains away (at 1000x, 5ms, a load average of 8
	// once left it undecided, which the audit prefers to a false failure;
	// at 10000x, 50ms, a loaded first step's own untimed time once did).
	for _, bt := range []string{"1s", "40000x"} {
		t.Run("benchtime="+bt, func(t *testing.T) {
			// Without Track these take 80 minutes at 1s; the timeout is the test.
			o := e2eRun(t, bin, 2*time.Minute, "-test.bench=Stop", "-test.benchtime="+bt)
			require.True(t, o.failed, "stopped-timer benchmarks passed:\n%s", o.text)
			o.checkParses(t)
			for _, base := range []string{"BenchmarkStopNoStart", "BenchmarkStopInLoop"} {
				name := e2eName(base)
				l := strings.Join(o.logs[name], "")
				caught := o.fails[name] && strings.Contains(l, "benchkit: "+base+":") && strings.Contains(l, "b.StartTimer()")
				if !assert.True(t, caught, "%s: want a failure naming it and b.StartTimer():\n%s", name, o.text) {
					continue
				}
				m := e2eGrew.FindStringSubmatch(l)
				if !assert.NotNil(t, m, "%s: message lacks the ramp step: %s", name, l) {
					continue
				}
				// The step it is caught at depends on the machine's load (at
				// b.N = 100 on a quiet machine, a step or two later when
				// the load explains the untimed time), so the test only
				// requires what no load can change: it was caught before
				// testing's ramp reached its 1e9 cap, where a stopped timer
				// would print about 0 ns/op (that run is also what the
				// process timeout above would cut short).
				to, _ := strconv.Atoi(m[2])
				assert.Less(t, to, 1_000_000_000, "%s failed at b.N = %d, testing's cap: the audit did not catch it on the ramp: %s", name, to, l)
				t.Logf("%s caught at b.N = %d", name, to)
				assert.Empty(t, o.results[name], "%s printed a result line after failing", name)
			}
		})
	}
	t.Run("legitimate timer use passes", func(t *testing.T) {
		o := e2eRun(t, bin, 2*time.Minute, "-test.bench=PerIterationToggle|ResetAfterSetup", "-test.benchtime=20ms", "-test.count=2")
		for _, base := range []string{"BenchmarkPerIterationToggle", "BenchmarkResetAfterSetup"} {
			n := len(o.results[e2eName(base)])
			require.False(t, o.failed, "%s: %d result lines, failed=%v; want 2 and a pass:\n%s", base, n, o.failed, o.text)
			require.Equal(t, 2, n, "%s: %d result lines, failed=%v; want 2 and a pass:\n%s", base, n, o.failed, o.text)
		}
		o.checkParses(t)
	})
}

func TestE2EMisuse(t *testing.T) {
	bin := e2eBuild(t, "misuse")
	o := e2eRun(t, bin, 2*time.Minute, "-test.bench=.", "-test.benchtime=20ms", "-test.count=2")
	o.checkParses(t)
	tests := []struct {
		base    string
		results int    // result lines expected
		fail    bool   // --- FAIL: expected
		want    string // in the logs ("" for no benchkit message at all)
		reason  string
	}{
		{"BenchmarkTrackTwice", 2, false, "Track called twice", "a misuse flag warns"},
		{"BenchmarkNilLoopFunc", 0, true, "benchkit: Loop called with a nil f", "nil f fails the benchmark with the fix"},
		{"BenchmarkNilSetupFunc", 0, true, "benchkit: LoopWithSetup called with a nil setup or f", "nil setup fails the benchmark with the fix"},
		{"BenchmarkSkips", 0, false, "", "a skip records and prints nothing"},
		{"BenchmarkFails", 0, true, "", "a failure gets no benchkit metric or flag"},
		{"BenchmarkParent/len=16", 2, false, "", "sub-benchmarks are measured"},
		{"BenchmarkParent/len=64", 2, false, "", "sub-benchmarks are measured"},
		{"BenchmarkParallel", 2, false, "", "RunParallel with Track at the top works"},
		{"BenchmarkStrictDCE", 0, true, "ExpectAllocs(1) declared", "FailOnFlags turns the flag into a failure"},
		{"BenchmarkLoopTwice", 0, true, "benchkit: BenchmarkLoopTwice: Loop called after b.Loop already ran", "a second Loop fails with benchkit's message"},
		{"BenchmarkLoopAfterBLoop", 0, true, "benchkit: BenchmarkLoopAfterBLoop: LoopWithSetup called after b.Loop already ran", "LoopWithSetup after a plain b.Loop fails with benchkit's message"},
		{"BenchmarkLoopInParallel", 0, true, "benchkit: BenchmarkLoopInParallel: Loop called inside a RunParallel body", "Loop in a RunParallel body fails with benchkit's message"},
		{"BenchmarkTrackInParallel", 2, false, "benchkit: BenchmarkTrackInParallel: Track called inside a RunParallel body", "Track in a RunParallel body warns and is ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			name := tt.base
			// A failure in testing's run1 (a b.Loop benchmark, or a
			// check before the first ramp step) prints no -P suffix.
			if tt.results > 0 || tt.base == "BenchmarkStrictDCE" {
				name = e2eName(tt.base)
			}
			got := len(o.results[name])
			assert.Equal(t, tt.results, got, "%d result lines, want %d (%s)", got, tt.results, tt.reason)
			assert.Equal(t, tt.fail, o.fails[name], "failed = %v, want %v (%s)", o.fails[name], tt.fail, tt.reason)
			l := strings.Join(o.logs[name], "")
			if tt.want == "" {
				assert.NotContains(t, l, "benchkit:", "logs %q; want %q (%s)", l, tt.want, tt.reason)
			} else {
				assert.Contains(t, l, tt.want, "logs %q; want %q (%s)", l, tt.want, tt.reason)
			}
			if strings.HasPrefix(tt.want, "benchkit: ") {
				assert.Regexp(t, `(?m)^\s*misuse_test\.go:\d+: `+regexp.QuoteMeta(tt.want), l, "attributed to the benchmark's own line")
				// Once: a warning is not repeated per repeat, goroutine
				// or ramp step, and a failure in testing's first call
				// (run1) ends the benchmark's repeats.
				assert.Equal(t, 1, strings.Count(l, tt.want), "logged once: %s", l)
			}
			if tt.base == "BenchmarkTrackInParallel" {
				return // Track was ignored: no metrics
			}
			for i, r := range o.results[name] {
				_, ok := r.values["cv%"]
				assert.Equal(t, i > 0, ok, "repeat %d: cv%% present = %v", i+1, ok)
			}
		})
	}
	assert.True(t, o.failed, "the binary exited 0; the failing benchmarks must fail it")
}

var e2eSetupStopped = regexp.MustCompile(`LoopWithSetup stopped at iteration (\d+): the run would take about (\S+)`)

// TestE2ESetupRunaway: a 200 µs setup before a 100 ns f
// fails at an early iteration with the projection and the fix, at the
// default -benchtime and at a longer one; without the guard it would run
// for about 40 minutes (the process timeout would cut it short). Under
// -benchtime=Nx the run is bounded and passes; a setup cheaper than f
// passes.
func TestE2ESetupRunaway(t *testing.T) {
	bin := e2eBuild(t, "setupslow")
	for _, bt := range []string{"1s", "10s"} {
		t.Run("benchtime="+bt, func(t *testing.T) {
			o := e2eRun(t, bin, 2*time.Minute, "-test.bench=SlowSetup", "-test.benchtime="+bt)
			require.True(t, o.failed, "the runaway LoopWithSetup passed:\n%s", o.text)
			o.checkParses(t)
			// A b.Loop benchmark runs in testing's run1, whose failure
			// line has no GOMAXPROCS suffix.
			name := "BenchmarkSlowSetup"
			l := strings.Join(o.logs[name], "")
			require.True(t, o.fails[name], "no --- FAIL for %s:\n%s", name, o.text)
			m := e2eSetupStopped.FindStringSubmatch(l)
			require.NotNil(t, m, "no runaway message:\n%s", l)
			assert.Contains(t, l, "-benchtime=Nx", "the fix is named")
			iters, _ := strconv.Atoi(m[1])
			// 16 iterations and 10 ms of wall time are the least evidence;
			// a 200 µs setup passes 10 ms by iteration 64 on a quiet
			// machine and sooner under load. 4096 leaves room for a clock
			// that runs the spin far faster than asked, and is still ten
			// thousand times short of where the run was headed.
			assert.LessOrEqual(t, iters, 4096, "stopped late: %s", l)
			assert.Empty(t, o.results[e2eName(name)], "a result line after failing")
			t.Logf("stopped at iteration %d, projected %s", iters, m[2])
		})
	}
	t.Run("benchtime=Nx is bounded and passes", func(t *testing.T) {
		o := e2eRun(t, bin, 2*time.Minute, "-test.bench=SlowSetup", "-test.benchtime=200x")
		require.False(t, o.failed, "-benchtime=200x failed:\n%s", o.text)
		assert.Len(t, o.results[e2eName("BenchmarkSlowSetup")], 1)
	})
	t.Run("a cheap setup passes", func(t *testing.T) {
		o := e2eRun(t, bin, 2*time.Minute, "-test.bench=CheapSetup", "-test.benchtime=100ms")
		require.False(t, o.failed, "a cheap setup failed:\n%s", o.text)
		assert.NotContains(t, strings.Join(o.logs[e2eName("BenchmarkCheapSetup")], ""), "LoopWithSetup stopped")
	})
}

// TestE2ETrackInParent: Track in a benchmark that calls b.Run records
// nothing (testing measures only the sub-benchmarks) and says so once per
// parent in the log, which testing prints for a parent only under -v, and
// Main's report says it once for all parents, under the names testing
// uses, with whose sub-benchmarks ran untracked.
func TestE2ETrackInParent(t *testing.T) {
	bin := e2eBuild(t, "parent")
	const msg = "calls b.Run, so testing measures only its sub-benchmarks and Track here records nothing"
	for _, v := range []bool{false, true} {
		t.Run(fmt.Sprintf("v=%v", v), func(t *testing.T) {
			args := []string{"-test.bench=.", "-test.benchtime=1x", "-test.count=3", "-benchkit.warmup=off"}
			if v {
				args = append(args, "-test.v")
			}
			o := e2eRun(t, bin, 2*time.Minute, args...)
			require.False(t, o.failed, "a flag warns:\n%s", o.text)
			o.checkParses(t)
			for _, line := range []string{
				"misuse: Parent calls Track and b.Run, and its sub-benchmarks ran untracked. Fix: call benchkit.Track(b) in the function given to b.Run",
				"misuse: Both calls Track and b.Run, and its sub-benchmarks call Track already. Fix: remove the parent's call",
			} {
				assert.Len(t, regexp.MustCompile(reportPhrase(line)).FindAllString(o.text, -1), 1, "once in the report:\n%s", o.text)
			}
			for _, parent := range []string{"Parent", "Both"} {
				logs := regexp.MustCompile(`(?m)^\s+\S+\.go:\d+: benchkit: Benchmark` + parent + ` ` + regexp.QuoteMeta(msg))
				want := 0
				if v {
					want = 1
				}
				assert.Len(t, logs.FindAllString(o.text, -1), want, "%s: logged %d times (-v %v):\n%s", parent, want, v, o.text)
			}
			assert.Regexp(t, `(?m)^benchkit │   Both/leaf(-\d+)? +3 runs`, o.text, "the tracked leaf is recorded")
			assert.NotRegexp(t, `(?m)^benchkit │   Parent/`, o.text, "untracked leaves are not")
		})
	}
}

// TestE2EParallelMisuseRace runs the RunParallel misuse cases under -race:
// Track called on every goroutine of a RunParallel body used to race on
// the benchmark's state and timer.
func TestE2EParallelMisuseRace(t *testing.T) {
	testbin.SkipWithoutRace(t)
	bin := testbin.BuildAs(t, "./testdata/misuse", "misuse-race", "-race")
	o := e2eRun(t, bin, 5*time.Minute, "-test.bench=InParallel", "-test.benchtime=20ms", "-test.cpu=4")
	assert.NotContains(t, o.text, "DATA RACE", o.text)
	assert.Contains(t, o.text, "Track called inside a RunParallel body")
	assert.Contains(t, o.text, "Loop called inside a RunParallel body")
}
