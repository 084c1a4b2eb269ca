package benchkit

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/internal/testbin"
)

// The go test compatibility matrix of docs/compatibility.md: each row runs
// testdata/compat (benchkit.Main, Track in b.Loop and b.N style, Loop,
// sub-benchmarks, RunParallel, control.Compare, testing.Benchmark from a
// Test) under one go test flag and checks what the page says benchkit
// does. Rows that need the go command's own flags (-race, -cover, -json)
// run go test; the others run the compiled test binary.

// compatOut is one run's output: the result lines by name (as printed,
// with the GOMAXPROCS suffix), each as its units → value.
type compatOut struct {
	text    string
	code    int
	results map[string][]map[string]float64
}

func compatParse(t *testing.T, text string, code int) compatOut {
	t.Helper()
	o := compatOut{text: text, code: code, results: map[string][]map[string]float64{}}
	r := benchfmt.NewReader(strings.NewReader(text), "out")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			vals := map[string]float64{}
			for _, v := range rec.Values {
				u, x := v.Unit, v.Value
				if v.OrigUnit != "" {
					u, x = v.OrigUnit, v.OrigValue
				}
				vals[u] = x
			}
			vals["iters"] = float64(rec.Iters)
			o.results[rec.Name.String()] = append(o.results[rec.Name.String()], vals)
		case *benchfmt.SyntaxError:
			assert.Fail(t, "a line benchfmt cannot parse", "%v", rec)
		}
	}
	require.NoError(t, r.Err())
	return o
}

// p is the printed name of a benchmark at GOMAXPROCS 2 (the -test.cpu the
// binary rows pass).
func p(name string) string { return name + "-2" }

var compatBench = []string{"-test.run=^$", "-test.bench=.", "-test.cpu=2", "-benchkit.warmup=off", "-benchkit.forks=1"}

func TestCompatibilityBinary(t *testing.T) {
	bin := mainBinaryOf(t, "", "compat")
	run := func(t *testing.T, args ...string) compatOut {
		t.Helper()
		r := mainExec(t, bin, nil, args...)
		return compatParse(t, r.stdout+r.stderr, r.code)
	}
	tracked := []string{"TrackLoop", "TrackN", "Batches", "Sub/n=64", "Sub/n=256", "Parallel"}
	for _, tc := range []struct {
		name  string
		args  []string
		check func(t *testing.T, o compatOut)
	}{
		{"-count=3: a line per repeat, cv% from the second, one report row", []string{"-test.count=3", "-test.benchtime=10ms", "-test.bench=TrackLoop"},
			func(t *testing.T, o compatOut) {
				rs := o.results[p("TrackLoop")]
				require.Len(t, rs, 3)
				assert.NotContains(t, rs[0], "cv%")
				assert.Contains(t, rs[1], "cv%")
				assert.Contains(t, rs[2], "cv%")
				assert.Regexp(t, `(?m)^benchkit │   TrackLoop-2 +3 runs `, o.text)
			}},
		{"-cpu=1,2: a line per GOMAXPROCS value, a comparison for each", []string{"-test.cpu=1,2", "-test.benchtime=10ms", "-test.bench=TrackLoop|Compare"},
			func(t *testing.T, o compatOut) {
				assert.Len(t, o.results["TrackLoop"], 1)
				assert.Len(t, o.results[p("TrackLoop")], 1)
				assert.Len(t, o.results["Compare"], 1)
				assert.Len(t, o.results[p("Compare")], 1)
				assert.Regexp(t, `(?m)^benchkit │   Compare: baseline full`, o.text, "a comparison per -cpu value")
				assert.Regexp(t, `(?m)^benchkit │   Compare-2: baseline full`, o.text, "a comparison per -cpu value")
				assert.Regexp(t, `(?m)^benchkit │   TrackLoop +1 run `, o.text, "a row per -cpu value")
				assert.Regexp(t, `(?m)^benchkit │   TrackLoop-2 +1 run `, o.text, "a row per -cpu value")
				assert.Contains(t, o.text, "golang/go#49980", "the first run's stale GOMAXPROCS is said")
			}},
		{"-benchtime=20ms: every shape measured, metrics on every line", []string{"-test.benchtime=20ms"},
			func(t *testing.T, o compatOut) {
				for _, name := range tracked {
					require.Len(t, o.results[p(name)], 1, name)
					assert.Contains(t, o.results[p(name)][0], "ns/op", name)
				}
				assert.Contains(t, o.results[p("Batches")][0], "batchcv%")
				// On a loaded machine a 40 ms budget can end before the
				// first round ("measuring stopped"): rounds is always there.
				require.Len(t, o.results[p("Compare")], 1)
				assert.Contains(t, o.results[p("Compare")][0], "rounds")
			}},
		{"-benchtime=100x: exactly 100 iterations, Compare runs 100 rounds", []string{"-test.benchtime=100x"},
			func(t *testing.T, o compatOut) {
				for _, name := range tracked {
					require.Len(t, o.results[p(name)], 1, name)
					assert.Equal(t, 100.0, o.results[p(name)][0]["iters"], name)
				}
				assert.Equal(t, 100.0, o.results[p("Compare")][0]["rounds"])
			}},
		{"-benchtime=1x: the smoke run passes, Compare is undecided", []string{"-test.benchtime=1x"},
			func(t *testing.T, o compatOut) {
				for _, name := range tracked {
					assert.Len(t, o.results[p(name)], 1, name)
				}
				assert.Contains(t, o.text, "undecided: only 1 round")
			}},
		{"-benchmem: B/op and allocs/op on tracked and Compare lines", []string{"-test.benchmem", "-test.benchtime=10ms", "-test.bench=TrackLoop|Compare"},
			func(t *testing.T, o compatOut) {
				for _, name := range []string{"TrackLoop", "Compare"} {
					require.Len(t, o.results[p(name)], 1, name)
					assert.Contains(t, o.results[p(name)][0], "allocs/op", name)
					assert.Contains(t, o.results[p(name)][0], "B/op", name)
				}
			}},
		{"-v: the output still parses, the report follows", []string{"-test.v", "-test.benchtime=10ms", "-test.bench=TrackLoop"},
			func(t *testing.T, o compatOut) {
				assert.Len(t, o.results[p("TrackLoop")], 1)
				assert.Regexp(t, compatHeader, o.text)
			}},
		{"-run with -bench: tests run first, then the benchmarks and the report", []string{"-test.run=Quick", "-test.v", "-test.benchtime=10ms", "-test.bench=TrackLoop"},
			func(t *testing.T, o compatOut) {
				assert.Contains(t, o.text, "--- PASS: TestQuick")
				assert.Regexp(t, compatHeader, o.text)
				assert.Regexp(t, `(?m)^benchkit │   TrackLoop-2 +1 run `, o.text)
			}},
		{"-short: passed through to the tests", []string{"-test.short", "-test.run=Quick", "-test.v", "-test.benchtime=10ms", "-test.bench=TrackLoop"},
			func(t *testing.T, o compatOut) {
				assert.Contains(t, o.text, "short mode")
				assert.Regexp(t, compatHeader, o.text)
			}},
		{"-timeout: covers tests, not benchmarks", []string{"-test.timeout=1s", "-test.benchtime=250ms"},
			func(t *testing.T, o compatOut) {
				assert.NotContains(t, o.text, "panic: test timed out")
				assert.Regexp(t, compatHeader, o.text)
			}},
		{"RunParallel: Track at the top records the run", []string{"-test.benchtime=10ms", "-test.bench=Parallel"},
			func(t *testing.T, o compatOut) {
				assert.Len(t, o.results[p("Parallel")], 1)
				assert.Regexp(t, `(?m)^benchkit │   Parallel-2 +1 run `, o.text)
			}},
		{"sub-benchmarks: a row per leaf, none for the parent", []string{"-test.benchtime=10ms", "-test.bench=Sub"},
			func(t *testing.T, o compatOut) {
				assert.Regexp(t, `(?m)^benchkit │   Sub/n=64-2 `, o.text)
				assert.Regexp(t, `(?m)^benchkit │   Sub/n=256-2 `, o.text)
				assert.NotRegexp(t, `(?m)^benchkit │   Sub-2 `, o.text)
			}},
		{"testing.Benchmark from a Test: the Test passes and the run is recorded", []string{"-test.run=FromTest", "-test.v", "-test.benchtime=10ms", "-test.bench=TrackLoop"},
			func(t *testing.T, o compatOut) {
				assert.Contains(t, o.text, "--- PASS: TestBenchmarkFromTest")
				assert.Regexp(t, `(?m)^benchkit │   TrackLoop-2 +1 run `, o.text)
				assert.Regexp(t, `(?m)^benchkit │   testing\.Benchmark\(compat\.TestBenchmarkFromTest\.func1\)-2 `, o.text,
					"named after the function it runs")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{}, compatBench...), tc.args...)
			o := run(t, args...)
			require.Equal(t, 0, o.code, o.text)
			tc.check(t, o)
		})
	}
}

// goTestCompat runs `go test flags ./testdata/compat args...` and returns
// what it wrote to stdout (go test's stderr is for build errors) and its
// exit code.
func goTestCompat(t *testing.T, flags []string, args ...string) (string, int) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go test")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmdArgs := append(append(append([]string{"test"}, flags...), "./testdata/compat"), args...)
	out, err := exec.CommandContext(ctx, goBin, cmdArgs...).Output()
	require.NoError(t, ctx.Err(), "go %v timed out:\n%s", cmdArgs, out)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
		out = append(out, ee.Stderr...)
	} else {
		require.NoError(t, err)
	}
	return string(out), code
}

var compatGoTestArgs = []string{"-run=^$", "-bench=TrackLoop|Parallel|Compare", "-benchtime=10ms", "-cpu=2",
	"-benchkit.warmup=off", "-benchkit.forks=1"}

func TestCompatibilityGoTest(t *testing.T) {
	t.Run("-race: measured, no race in benchkit, the report warns", func(t *testing.T) {
		testbin.SkipWithoutRace(t)
		out, code := goTestCompat(t, []string{"-race"}, compatGoTestArgs...)
		require.Equal(t, 0, code, out)
		assert.NotContains(t, out, "DATA RACE")
		assert.Regexp(t, `(?m)^benchkit │ .* · ⚠ race detector on\b`, out, "the header line names the worst warning first")
		o := compatParse(t, out, code)
		assert.Len(t, o.results[p("Parallel")], 1)
	})
	t.Run("-cover: measured, the report warns", func(t *testing.T) {
		out, code := goTestCompat(t, []string{"-cover"}, compatGoTestArgs...)
		require.Equal(t, 0, code, out)
		assert.Regexp(t, `(?m)^benchkit │ .* · ⚠ coverage on\b`, out)
	})
	t.Run("-json: every line an event, the report in output events", func(t *testing.T) {
		out, code := goTestCompat(t, []string{"-json"}, compatGoTestArgs...)
		require.Equal(t, 0, code, out)
		var text strings.Builder
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			var ev struct{ Action, Output string }
			require.NoError(t, json.Unmarshal(sc.Bytes(), &ev), "not a test2json event: %s", sc.Text())
			if ev.Action == "output" {
				text.WriteString(ev.Output)
			}
		}
		// The report, from its header line, is in the output events.
		assert.Regexp(t, compatHeader, text.String())
		assert.Regexp(t, `(?m)^benchkit │   TrackLoop-2 +1 run `, text.String())
		o := compatParse(t, text.String(), 0)
		assert.Len(t, o.results[p("TrackLoop")], 1)
	})
	t.Run("-benchkit.report=stderr: go test merges it into its own stdout", func(t *testing.T) {
		out, code := goTestCompat(t, nil, append(compatGoTestArgs, "-benchkit.report=stderr")...)
		require.Equal(t, 0, code, out)
		assert.Regexp(t, compatHeader, out)
	})
}

// compatHeader matches the first line of testdata/compat's report.
var compatHeader = regexp.MustCompile(`(?m)^benchkit │ github\.com/benchkit/go-benchkit/benchkit/testdata/compat · go1\.\d+`)
