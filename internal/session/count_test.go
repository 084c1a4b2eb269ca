package session

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// fakeCounter counts each benchmark as perOp says (an error for a name
// it does not hold) and records the targets it was given.
type fakeCounter struct {
	perOp   map[string]float64
	findErr error
	targets []count.Target
	limits  []count.Limits
}

func (f *fakeCounter) counter() counter {
	return counter{
		find: func() (count.Valgrind, error) {
			return count.Valgrind{Path: "/usr/bin/valgrind", Version: "valgrind-3.19.0"}, f.findErr
		},
		instructions: func(vg count.Valgrind, t count.Target, lim count.Limits) (count.Result, error) {
			f.targets, f.limits = append(f.targets, t), append(f.limits, lim)
			v, ok := f.perOp[t.Benchmark]
			if !ok {
				return count.Result{Benchmark: t.Benchmark}, &count.Error{Reason: count.ReasonFailed, Benchmark: t.Benchmark,
					Message: "the process at -test.benchtime=2x failed under valgrind (exit status 2)", Output: "panic: boom\n"}
			}
			return count.Result{Benchmark: t.Benchmark, PerOp: v, N1: 2, N2: 1002, Total1: 1000, Total2: 1000 + int64(1000*v),
				Runs: make([]count.Run, 3), Valgrind: vg.Version}, nil
		},
		self: func() (string, error) { return "/proc/self/exe", nil },
	}
}

func TestMainCountInstructions(t *testing.T) {
	fc := &fakeCounter{perOp: map[string]float64{"BenchmarkClean": 16021.6}}
	h := newHarness("-test.bench=.", "-benchkit.count=instructions", "-benchkit.warmup=off")
	h.deps.counter = fc.counter()
	assert.Equal(t, 0, h.run(fakeM{run: h.record}), "a benchmark that could not be counted fails nothing")

	require.Len(t, fc.targets, 2)
	assert.Equal(t, count.Target{Binary: "/proc/self/exe", Benchmark: "BenchmarkClean", Args: []string{"-benchkit.warmup=off"}},
		fc.targets[0], "the name without -procs, this binary, the flags but the selection")
	assert.Equal(t, "BenchmarkTwo", fc.targets[1].Benchmark)
	assert.InDelta(t, 100.1, fc.limits[0].NsPerOp, 0.1, "the native ns/op sizes N2")

	out := h.stdout.String()
	assert.Contains(t, out, "instr/op")
	assert.Regexp(t, `Clean-2 .* 16022 `, out)
	assert.Contains(t, out, "Two-2: instructions not counted (failed): the process at -test.benchtime=2x failed under valgrind (exit status 2)")
	assert.Contains(t, out, "      panic: boom")
	assert.Contains(t, h.stderr.String(), "benchkit: counting the instructions per op of 2 benchmarks under valgrind-3.19.0")
}

func TestMainCountOffByDefault(t *testing.T) {
	fc := &fakeCounter{}
	h := newHarness("-test.bench=.")
	h.deps.counter = fc.counter()
	assert.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Empty(t, fc.targets)
	assert.NotContains(t, h.stdout.String(), "instr/op")

	h = newHarness("-test.bench=.", "-benchkit.count=off")
	h.env["BENCHKIT_COUNT"] = "instructions"
	h.deps.counter = fc.counter()
	assert.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Empty(t, fc.targets, "the flag overrides the variable")

	h = newHarness("-test.bench=.")
	h.env["BENCHKIT_COUNT"] = "instructions"
	h.deps.counter = fc.counter()
	assert.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Len(t, fc.targets, 2, "BENCHKIT_COUNT")
}

func TestMainCountWithoutValgrind(t *testing.T) {
	missing := &count.Error{Reason: count.ReasonMissing, Message: "instructions are counted under valgrind, and there is no valgrind on PATH: " + count.InstallHint}
	fc := &fakeCounter{findErr: missing}
	h := newHarness("-test.bench=.", "-benchkit.count=instructions")
	h.deps.counter = fc.counter()
	assert.Equal(t, 0, h.run(fakeM{run: h.record}), "the run goes on")
	assert.Empty(t, fc.targets)
	out := h.stdout.String()
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "instructions not counted") {
			require.Empty(t, line, "one line for every benchmark")
			line = l
		}
	}
	assert.Contains(t, line, "Clean-2, Two-2: instructions not counted (valgrind-missing)")
	assert.Contains(t, out, "apt-get install valgrind")

	h = newHarness("-test.bench=.", "-benchkit.count=instructions")
	assert.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stdout.String(), "no instruction counter in this session")

	fc = &fakeCounter{perOp: map[string]float64{"BenchmarkClean": 1}}
	h = newHarness("-test.bench=.", "-benchkit.count=instructions")
	h.deps.counter = fc.counter()
	h.deps.counter.self = func() (string, error) { return "", errors.New("this test binary changed on disk") }
	assert.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stdout.String(), "cannot run this test binary again to count it: this test binary changed on disk")
}

func TestMainCountBadValue(t *testing.T) {
	h := newHarness("-test.bench=.", "-benchkit.count=cycles")
	assert.Equal(t, 2, h.run(fakeM{}))
	assert.Contains(t, h.stderr.String(), `benchkit: flag -benchkit.count="cycles" is not a count: use instructions (counted under valgrind, docs/counts.md) or off`)
}

func TestCountTargets(t *testing.T) {
	run := func(procs int, ns float64) registry.Run { return registry.Run{Procs: procs, NsPerOp: ns} }
	ts := countTargets([]registry.Bench{
		{Name: "BenchmarkA", Runs: []registry.Run{run(1, 10), run(1, 30), run(1, 20)}},
		{Name: "BenchmarkA-4", Runs: []registry.Run{run(4, 5)}},
		{Name: "BenchmarkCmp"}, // a comparison only: not tracked
		{Name: "BenchmarkB/size=1K-2", Runs: []registry.Run{run(2, 7)}},
		{Name: "BenchmarkC-2", Runs: []registry.Run{run(1, 7)}}, // a name ending in -2 at one P
	})
	require.Len(t, ts, 3)
	assert.Equal(t, countTarget{name: "BenchmarkA", keys: []string{"BenchmarkA", "BenchmarkA-4"}, nsPerOp: 20}, ts[0], "once per name, for every -cpu value")
	assert.Equal(t, "BenchmarkB/size=1K", ts[1].name)
	assert.Equal(t, "BenchmarkC-2", ts[2].name, "the suffix of the run's procs only")
}

func TestMainCountCompareOnly(t *testing.T) {
	cmp := registry.Comparison{Result: verdict.Result{Baseline: "old", Candidates: []verdict.Estimate{{Name: "new", DeltaPct: 9, LoPct: 8, HiPct: 10, Verdict: verdict.Slower}}}}
	fc := &fakeCounter{perOp: map[string]float64{"BenchmarkClean": 16021.6, "BenchmarkTwo": 40}}
	h := newHarness("-test.bench=.", "-benchkit.count=instructions", "-benchkit.warmup=off")
	h.deps.counter = fc.counter()
	assert.Equal(t, 0, h.run(fakeM{run: func() {
		h.record()
		h.reg.AddComparison("BenchmarkCmp", cmp)
		h.reg.AddComparison("BenchmarkCmpToo", cmp)
	}}), "fails nothing")
	assert.Len(t, fc.targets, 2, "the tracked benchmarks only")
	out := h.stdout.String()
	assert.Equal(t, 1, strings.Count(out, "control.Compare alone records no run to count"), "said once:\n%s", out)
	assert.Contains(t, out, "Cmp, CmpToo: instructions not counted (compare-only): control.Compare alone records no run to count: "+
		"-benchkit.count=instructions counts the benchmarks that")
	assert.Contains(t, out, "call benchkit.Track or benchkit.Loop")

	// A run of Compare-only benchmarks counts nothing, and says why.
	fc = &fakeCounter{}
	js := filepath.Join(t.TempDir(), "r.json")
	h = newHarness("-test.bench=.", "-benchkit.count=instructions", "-benchkit.warmup=off", "-benchkit.json="+js)
	h.deps.counter = fc.counter()
	assert.Equal(t, 0, h.run(fakeM{run: func() { h.reg.AddComparison("BenchmarkCmp", cmp) }}))
	assert.Empty(t, fc.targets)
	assert.Contains(t, h.stdout.String(), "Cmp: instructions not counted (compare-only)")
	assert.NotContains(t, h.stderr.String(), "counting the instructions", "no valgrind is looked for")
	b, err := os.ReadFile(js)
	require.NoError(t, err)
	var rep struct {
		Benchmarks []struct {
			Name         string
			Instructions *struct{ Reason, Error string }
		}
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	require.Len(t, rep.Benchmarks, 1)
	require.NotNil(t, rep.Benchmarks[0].Instructions, "not null: the reason is there")
	assert.Equal(t, "compare-only", rep.Benchmarks[0].Instructions.Reason)
	assert.Contains(t, rep.Benchmarks[0].Instructions.Error, "benchkit.Track or benchkit.Loop")
}
