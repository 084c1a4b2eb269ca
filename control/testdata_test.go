package control

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/testbin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// TestTestdataBench builds testdata/bench once and runs its benchmarks,
// which misuse the package on purpose, checking each message and exit
// status, and the Rounds output as benchstat would read it.
func TestTestdataBench(t *testing.T) {
	bin := testbin.Build(t, "./testdata/bench")
	// run returns stdout and stderr together, and the exit status. The
	// timeout only stops a hung binary; no test here depends on it.
	run := func(t *testing.T, args ...string) (string, int) {
		t.Helper()
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=1"}, append([]string{"-test.run=^$"}, args...)...)
		return r.Combined(), r.Code
	}
	// forked is run with BENCHKIT_FORKS=2.
	forked := func(t *testing.T, args ...string) testbin.Result {
		t.Helper()
		return testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=2"}, append([]string{"-test.run=^$"}, args...)...)
	}

	t.Run("Forks", func(t *testing.T) {
		r := forked(t, "-test.bench=^BenchmarkForks$", "-test.benchtime=40x") // Nx: no fork stops early, however loaded the machine
		require.Equal(t, 0, r.Code, r.Combined())
		for _, name := range []string{"a.b*c+(d)|e", "x_y", "dup", "dup#01"} {
			full := "BenchmarkForks/" + name + "/size=[10]"
			assert.Contains(t, r.Stdout, full+"-", "%s ran", full)
		}
		assert.Equal(t, 4, strings.Count(r.Stdout, "over 2 forks, t-interval over the forks"), r.Stdout)
		assert.Equal(t, 4, strings.Count(r.Stdout, "control: per fork (%): control "), r.Stdout)
		// Nothing a fork printed reaches this stdout: exactly one result
		// line per benchmark, and every line parses.
		br := benchfmt.NewReader(strings.NewReader(r.Stdout), "forks")
		results := 0
		for br.Scan() {
			switch rec := br.Result().(type) {
			case *benchfmt.SyntaxError:
				assert.Fail(t, "unparsable line", "%v", rec)
			case *benchfmt.Result:
				results++
			}
		}
		assert.Equal(t, 4, results)
	})

	t.Run("GateDecidesInTheParent", func(t *testing.T) {
		// Six forks: three processes on a loaded machine (a 32-bit
		// build beside other tests) disagreed from +141% to +254% and
		// left +185% undecided. -benchtime=Nx: under a time budget a
		// loaded machine can stop every fork early, leaving nothing to
		// decide.
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=6"}, "-test.run=^$", "-test.bench=^BenchmarkGateInForks$", "-test.benchtime=600x")
		out := r.Combined()
		assert.NotContains(t, out, "fork 1 of 6", "no fork fails on the gate")
		// A fork whose warm-up does not fit its share under heavy load is
		// left out (with a warning): the others are combined.
		assert.Regexp(t, `over [2-6] forks, t-interval over the forks`, out, "decided on the combined forks")
		if strings.Contains(out, "new: gate not applied:") {
			// Under heavy load (two busy loops on two CPUs beside other
			// tests) one fork can read identical code 2× apart; the
			// control's interval then covers +100%, which is undecided,
			// and an undecided comparison never fails the gate.
			assert.Equal(t, 0, r.Code, out)
			assert.Contains(t, out, "undecided", out)
			return
		}
		assert.NotEqual(t, 0, r.Code, "a decided +100%% fails the 5%% gate:\n%s", out)
		assert.Equal(t, 1, strings.Count(out, "control: gate failed: new is"), "the gate is applied once, in the parent:\n%s", out)
	})

	t.Run("SkipInFork", func(t *testing.T) {
		r := forked(t, "-test.bench=^BenchmarkSkipInImpl$", "-test.benchtime=100ms", "-test.v=true") // testing prints a skipped benchmark only under -v
		out := r.Combined()
		require.Equal(t, 0, r.Code, out)
		assert.Contains(t, out, "--- SKIP: BenchmarkSkipInImpl")
		assert.Contains(t, out, "control: an implementation skipped the benchmark in its fork:")
		assert.Contains(t, out, "the fixture is not here")
		assert.NotContains(t, out, "wrote no result")
	})

	t.Run("AfterCompareOnlyInTheParent", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "after.txt")
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=3", "BENCHKIT_TEST_AFTER=" + file}, "-test.run=^$", "-test.bench=^BenchmarkAfterCompare$", "-test.benchtime=30x") // Nx: the forks do not depend on the machine's speed
		require.Equal(t, 0, r.Code, r.Combined())
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		require.Len(t, lines, 2, "one line after Compare and one teardown, both from the parent:\n%s", b)
		assert.Regexp(t, `^after pid=\d+ forks=3 rounds=30$`, lines[0], "the code after Compare sees the combined Result")
		assert.Regexp(t, `^teardown pid=\d+$`, lines[1])
		assert.Equal(t, strings.Fields(lines[0])[1], strings.Fields(lines[1])[1], "the same process")
	})

	t.Run("CPUListMeasuresAtEachValue", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "procs.txt")
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=2", "BENCHKIT_TEST_PROCS=" + file}, "-test.run=^$", "-test.bench=^BenchmarkProcs$", "-test.benchtime=20x", "-test.cpu=1,2") // Nx: two forks however loaded the machine
		require.Equal(t, 0, r.Code, r.Combined())
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		got := strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(got)
		assert.Equal(t, []string{"cpu=1 procs=1", "cpu=1 procs=1", "cpu=2 procs=2", "cpu=2 procs=2"}, got,
			"each -cpu value's forks get that -test.cpu and measure at it, the first one included")
	})

	t.Run("NxSpreadsExactly", func(t *testing.T) {
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=10"}, "-test.run=^$", "-test.bench=^BenchmarkCount$", "-test.benchtime=25x")
		require.Equal(t, 0, r.Code, r.Combined())
		assert.Contains(t, r.Stdout, "25 rounds × ", "exactly the rounds asked for")
		assert.Contains(t, r.Stdout, "over 5 forks, t-interval over the forks", "at least 5 rounds a fork")
		r = testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=10"}, "-test.run=^$", "-test.bench=^BenchmarkCount$", "-test.benchtime=5x")
		require.Equal(t, 0, r.Code, r.Combined())
		assert.Contains(t, r.Stdout, "-benchtime=5x: too few rounds to spread over processes")
		assert.Contains(t, r.Stdout, "5 rounds × ")
	})

	t.Run("TooManyForks", func(t *testing.T) {
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=1000"}, "-test.run=^$", "-test.bench=^BenchmarkCount$", "-test.benchtime=1x")
		assert.NotEqual(t, 0, r.Code)
		assert.Contains(t, r.Combined(), `BENCHKIT_FORKS="1000" is more than the 100 processes benchkit starts at most: use a whole number from 1 to 100`)
	})

	t.Run("ForkPanics", func(t *testing.T) {
		r := forked(t, "-test.bench=^BenchmarkPanic$")
		assert.NotEqual(t, 0, r.Code)
		out := r.Combined()
		assert.Contains(t, out, "control: fork 1 of 2 of BenchmarkPanic failed: child process")
		assert.Contains(t, out, `control: implementation "boom" panicked: assignment to entry in nil map`)
		assert.Contains(t, out, "exited with status 1", "the child fails the benchmark (b.Fatal) rather than crashing")
		assert.Contains(t, out, "original stack")
	})

	t.Run("ForkFails", func(t *testing.T) {
		r := forked(t, "-test.bench=^BenchmarkFailInFork$")
		assert.NotEqual(t, 0, r.Code)
		out := r.Combined()
		assert.Contains(t, out, "control: fork 1 of 2 of BenchmarkFailInFork failed")
		assert.Contains(t, out, "the input file is missing in this process")
	})

	t.Run("ForkStops", func(t *testing.T) {
		r := forked(t, "-test.bench=^BenchmarkSlow$", "-test.benchtime=100ms")
		require.Equal(t, 0, r.Code, r.Combined())
		assert.Contains(t, r.Stdout, "control: note: an implementation is slow: a fork needs about")
		assert.Contains(t, r.Stdout, "more than the 100ms each of 2 forks would get, so it is measured within this one process")
		assert.Contains(t, r.Stdout, "undecided: measuring stopped: one call of \"glacial\" took")
		assert.NotContains(t, r.Stdout, "per fork")
	})

	t.Run("SlowGetsFewerForks", func(t *testing.T) {
		// A fork needs about 230ms here when the machine is quiet (its
		// sleeps), and more under load: at 800ms ten forks get 160ms
		// each, and 2–6 forks of 1.5 needs fit up to a need of 530ms.
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=10"}, "-test.run=^$", "-test.bench=^BenchmarkSlowish$", "-test.benchtime=800ms")
		require.Equal(t, 0, r.Code, r.Combined())
		// Heavily loaded, the need can outgrow even one fork of four:
		// then it is measured within this process, saying so.
		assert.Regexp(t, `control: note: an implementation is slow: a fork needs about \S+ to measure 7 rounds, more than the 160ms each of 10 forks would get, so it is measured in [2-9] forks of`, r.Stdout)
		assert.Regexp(t, `rounds × \d+ calls (over [2-9] forks, t-interval over the forks|within one process)`, r.Stdout)
		assert.NotRegexp(t, `(?m)\s0 rounds$`, r.Stdout, "rounds were measured")
	})

	t.Run("ForkStallsOnce", func(t *testing.T) {
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=3"}, "-test.run=^$", "-test.bench=^BenchmarkStallInFork2$", "-test.benchtime=600ms")
		require.Equal(t, 0, r.Code, r.Combined())
		assert.Contains(t, r.Stdout, "control: warning: left out one fork that stopped early: one call of \"b\" took")
		assert.Contains(t, r.Stdout, "(in fork 2 of 3, whose share")
		assert.Contains(t, r.Stdout, "the interval is over the other 2")
		assert.Contains(t, r.Stdout, "over 2 forks, t-interval over the forks", "analysed without the stalled fork")
		assert.NotContains(t, r.Stdout, "undecided: measuring stopped")
	})

	t.Run("ForksBadSetting", func(t *testing.T) {
		r := testbin.Run(t, bin, "", 5*time.Minute, []string{"BENCHKIT_FORKS=many"}, "-test.run=^$", "-test.bench=^BenchmarkCount$", "-test.benchtime=1x")
		assert.NotEqual(t, 0, r.Code)
		assert.Contains(t, r.Combined(), `benchkit: environment variable BENCHKIT_FORKS="many" is not a number of processes: use a whole number from 1 to 100, like 5`)
	})

	t.Run("ForksProfile", func(t *testing.T) {
		prof := filepath.Join(t.TempDir(), "cpu.out")
		r := forked(t, "-test.bench=^BenchmarkCount$", "-test.benchtime=50ms", "-test.count=2", "-test.cpuprofile="+prof)
		require.Equal(t, 0, r.Code, r.Combined())
		assert.Equal(t, 1, strings.Count(r.Stdout, "-test.cpuprofile is set: measuring within this one process so that the profile holds the measurement"), "said once:\n%s", r.Stdout)
		assert.Equal(t, 2, strings.Count(r.Stdout, "within one process;"), "both repeats measured in this process:\n%s", r.Stdout)
	})

	t.Run("Rounds", func(t *testing.T) {
		out, code := run(t, "-test.bench=^BenchmarkRounds$", "-test.benchtime=1x", "-test.count=1")
		require.Equal(t, 0, code, out)
		r := benchfmt.NewReader(strings.NewReader(out), "rounds")
		type leaf struct{ round, impl string }
		var leaves []leaf
		for r.Scan() {
			switch rec := r.Result().(type) {
			case *benchfmt.SyntaxError:
				assert.Fail(t, "unparsable line", "%v", rec)
			case *benchfmt.Result:
				base, parts := rec.Name.Parts()
				require.Equal(t, "Rounds", string(base))
				var kv []string
				for _, p := range parts {
					if p[0] == '/' {
						kv = append(kv, string(p[1:]))
					}
				}
				require.Len(t, kv, 2, "name %s has round and impl parts (no GOMAXPROCS confusion)", rec.Name)
				require.True(t, strings.HasPrefix(kv[0], "round="), kv[0])
				require.True(t, strings.HasPrefix(kv[1], "impl="), kv[1])
				assert.NotContains(t, rec.Name.String(), "#", "no duplicate-name suffixes")
				leaves = append(leaves, leaf{strings.TrimPrefix(kv[0], "round="), strings.TrimPrefix(kv[1], "impl=")})
			}
		}
		require.NoError(t, r.Err())
		require.Len(t, leaves, 5*4)
		var orders []string
		for rd := range 5 {
			block := leaves[4*rd : 4*rd+4]
			var impls []string
			for _, l := range block {
				assert.Equal(t, leaves[4*rd].round, l.round, "round %d runs contiguously", rd)
				impls = append(impls, l.impl)
			}
			orders = append(orders, strings.Join(impls, ","))
			slices.Sort(impls)
			assert.Equal(t, []string{"alpha", "beta", "control", "plus5"}, impls, "round %d runs every implementation once", rd)
		}
		assert.Equal(t, "alpha,control,beta,plus5", orders[0], "round 000 keeps the declared order, so benchstat's first column is the baseline")
		assert.Greater(t, len(slices.Compact(slices.Sorted(slices.Values(orders)))), 1, "the order changes between rounds: %v", orders)
		assert.Equal(t, []string{"000", "001", "002", "003", "004"}, []string{leaves[0].round, leaves[4].round, leaves[8].round, leaves[12].round, leaves[16].round})
	})

	bad := []struct {
		bench string
		args  []string
		want  []string
	}{
		{"NilFunc", nil, []string{`control: candidate 1 ("b") has a nil function: pass a func() T`}},
		{"Duplicate", nil, []string{`control: implementations 0 and 1 are both named "a": names must be unique`}},
		{"EmptyName", nil, []string{`control: the baseline has the invalid name "": the name is empty`}},
		{"WhitespaceName", nil, []string{`invalid name "new impl": the name contains whitespace`}},
		{"ClosureName", []string{"-test.benchtime=1x"}, []string{`control: candidate 1 ("closure") reports its time as "closure-ns/op", the unit of Compare's own closure-call overhead: rename the implementation`}},
		{"RoundsDigitsName", nil, []string{`invalid name "copy-2"`, "GOMAXPROCS suffix"}},
		{"RoundsZero", nil, []string{"control: Benchstat(b, 0, ...): the number of rounds must be ≥ 1"}},
		{"BadOption", nil, []string{"control: Gate(-3): the threshold must be a finite percentage ≥ 0"}},
		{"Panic", nil, []string{`control: implementation "boom" panicked: assignment to entry in nil map`, "original stack"}},
		{"Twice", []string{"-test.benchtime=1x"}, []string{"control: Compare called twice in BenchmarkTwice: call it once per benchmark function"}},
		{"Parallel", []string{"-test.benchtime=200ms", "-test.cpu=2"}, []string{"control: Compare called on BenchmarkParallel from inside a RunParallel body"}},
		{"ParallelOneProc", []string{"-test.cpu=1"}, []string{"control: Compare called on BenchmarkParallel from inside a RunParallel body"}},
		{"Goroutines", []string{"-test.benchtime=200ms"}, []string{"while another control call is running on the same *testing.B: do not call it from a RunParallel body or from goroutines"}},
	}
	for _, tc := range bad {
		t.Run(tc.bench, func(t *testing.T) {
			args := append([]string{"-test.bench=^Benchmark" + strings.TrimSuffix(tc.bench, "OneProc") + "$"}, tc.args...)
			out, code := run(t, args...)
			assert.NotEqual(t, 0, code, "misuse must fail: %s", out)
			for _, w := range tc.want {
				assert.Contains(t, out, w)
			}
		})
	}

	t.Run("Slow", func(t *testing.T) {
		out, code := run(t, "-test.bench=^BenchmarkSlow$", "-test.benchtime=100ms")
		assert.Equal(t, 0, code, "a slow function is reported, not failed: %s", out)
		// glacial sleeps 300ms: its one call takes at least that, and on a
		// loaded machine any amount more, so the duration is not pinned.
		assert.Regexp(t, `one call of "glacial" took [\dhm.]+s, more than the whole budget of 200ms: raise -benchtime`, out)
		assert.Regexp(t, regexp.MustCompile(`(?m)^BenchmarkSlow\S*\s+1\s+[\d.]+ ns/op\s+[\d.]+ a-ns/op\s+[\d.e+]+ glacial-ns/op\s+0 rounds$`), out,
			"no round measured: the probed call of each, no ratio, 0 rounds")
		assert.Contains(t, out, "no round was measured: each ns/op here is one call")
	})

	t.Run("OneXAndCount", func(t *testing.T) {
		out, code := run(t, "-test.bench=^BenchmarkCount$", "-test.benchtime=1x", "-test.count=3")
		require.Equal(t, 0, code, out)
		assert.Equal(t, 3, strings.Count(out, "-benchtime=1x: running 1 round within"), "the 1x note, once per run")
		assert.Equal(t, 1, strings.Count(out, "-count=3: Compare interleaves inside each run"), "the -count note, once per process")
		assert.Equal(t, 6, strings.Count(out, "undecided: only 1 round:"), "control and candidate, in each of 3 runs")
		checkParses(t, out, 3)
	})

	t.Run("GateUndecidedNeverFails", func(t *testing.T) {
		out, code := run(t, "-test.bench=^BenchmarkGate$", "-test.benchtime=1x")
		assert.Equal(t, 0, code, out)
		assert.Contains(t, out, "undecided: only 1 round:")
		// plus200 does 3× the work, but one round is one batch each: on a
		// loaded machine its ratio can land below the gate, and then no
		// note is due. The note follows the measured ratio either way
		// (printed to 4 digits, so within 0.1 of the gate nothing is said).
		m := regexp.MustCompile(`(\S+) plus200/base-%`).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		ratio, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err)
		switch delta := ratio - 100; {
		case delta > 10.1:
			assert.Contains(t, out, "control: plus200: gate not applied")
		case delta < 9.9:
			assert.NotContains(t, out, "control: plus200: gate not applied")
		}
	})

	t.Run("Gate", func(t *testing.T) {
		// 3× the work against a 10% gate. On a machine too noisy to
		// decide, the comparison is undecided and must say so instead of
		// failing; either way the output explains itself.
		out, code := run(t, "-test.bench=^BenchmarkGate$", "-test.benchtime=100ms")
		if code != 0 {
			assert.Contains(t, out, "control: gate failed: plus200 is +")
			assert.Contains(t, out, "beyond the 10% gate")
			assert.Contains(t, out, "--- FAIL: BenchmarkGate")
		} else if !strings.Contains(out, "control: plus200 undecided: measuring stopped:") {
			// Undecided with rounds measured: the gate says it was not
			// applied. (Under heavy load the warm-up round may not fit the
			// budget at all; then the verdict itself says measuring stopped
			// and names the fix.)
			assert.Contains(t, out, "control: plus200: gate not applied")
		}
		assert.NotContains(t, out, "panic")
		out, code = run(t, "-test.bench=^BenchmarkGateFaster$", "-test.benchtime=100ms")
		assert.Equal(t, 0, code, "a faster candidate never fails a gate: %s", out)
	})
}

// checkParses asserts that every line of a go test output is either
// ignored by benchfmt or a clean result, and that want results are there.
func checkParses(t *testing.T, out string, want int) {
	t.Helper()
	r := benchfmt.NewReader(bytes.NewReader([]byte(out)), "out")
	n := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			assert.Fail(t, "unparsable line", "%v", rec)
		case *benchfmt.Result:
			n++
			for _, v := range rec.Values {
				assert.False(t, v.Value != v.Value, "NaN in %s", rec.Name)
			}
		}
	}
	assert.Equal(t, want, n)
}
