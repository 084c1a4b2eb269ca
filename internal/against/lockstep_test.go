package against

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	vd "github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

// TestLockedOfSharesTheEstimator: a lockstep benchmark's estimate is
// verdict.AnalyzeGroups over its triples, the function Compare's forks
// call: the same numbers from the same runs. Twice the work is Slower
// near +100%, the control Same; the counts are the sides' lower medians.
func TestLockedOfSharesTheEstimator(t *testing.T) {
	var lb lockedBench
	lb.name = "Work-2"
	var groups [][]vd.Sample
	for tr := range 5 {
		level := 100 + 7*float64(tr)
		var g [sides][]float64
		for r := range 9 {
			b := level + float64(r%3)
			g[sideBase] = append(g[sideBase], b)
			g[sideNew] = append(g[sideNew], 2*b+float64(r%2))
			g[sideControl] = append(g[sideControl], b+float64(r%2)*0.1)
		}
		for s := range sides {
			lb.sides[s].NsPerOp = append(lb.sides[s].NsPerOp, g[s]...)
			for range g[s] {
				lb.sides[s].AllocsPerOp = append(lb.sides[s].AllocsPerOp, float64(1+s%2))
				lb.sides[s].BytesPerOp = append(lb.sides[s].BytesPerOp, 64)
			}
		}
		lb.groups = append(lb.groups, 9)
		groups = append(groups, []vd.Sample{{Name: "base", NsPerOp: g[sideBase]}, {Name: "control", NsPerOp: g[sideControl]}, {Name: "new", NsPerOp: g[sideNew]}})
	}
	a := Result{Negligible: 1, GatePct: 5, Pairing: ModeLockstep}
	b := lockedOf(lb, a, 0)
	want, err := vd.AnalyzeGroups(groups, vd.Options{Negligible: 1, Gate: 5, Unit: "triples"})
	require.NoError(t, err)
	assert.Equal(t, want.Candidates[0].DeltaPct, b.NewEst.DeltaPct)
	assert.Equal(t, want.Candidates[0].LoPct, b.NewEst.LoPct)
	assert.Equal(t, want.Control.HiPct, b.ControlEst.HiPct)
	assert.Equal(t, vd.Slower, b.NewEst.Verdict, b.NewEst.Reason)
	assert.InDelta(t, 100, b.NewEst.DeltaPct, 1)
	assert.Equal(t, vd.Same, b.ControlEst.Verdict, b.ControlEst.Reason)
	assert.True(t, b.GateFailed())
	assert.Equal(t, ModeLockstep, b.Mode)
	assert.Equal(t, Count{Base: 1, New: 2}, b.Allocs)
}

// TestSizeFor: a run lasts about runTarget; a process spends runShare of
// -benchtime in runs, within the least and most rounds; -benchtime=Nx
// keeps N.
func TestSizeFor(t *testing.T) {
	p := Plan{bt: testflag.Benchtime{D: time.Second}}
	sz := p.sizeFor(1000) // 1 µs an op
	assert.Equal(t, 3000, sz.n)
	assert.Equal(t, 3*time.Millisecond, sz.run)
	assert.Equal(t, 166, sz.rounds, "1/2 s of 3 ms runs")

	assert.Equal(t, minTripleRounds, p.sizeFor(1e9).rounds, "an op of a second: the least rounds, one op a run")
	assert.Equal(t, 1, p.sizeFor(1e9).n)
	assert.Equal(t, maxTripleRounds, Plan{bt: testflag.Benchtime{D: time.Hour}}.sizeFor(1000).rounds)
	assert.Equal(t, 3_000_000, p.sizeFor(0).n, "an unknown time per op counts as 1 ns")

	nx := Plan{bt: testflag.Benchtime{N: 500}}.sizeFor(1000)
	assert.Equal(t, 500, nx.n)
	assert.Equal(t, minTripleRounds, nx.rounds)
}

// TestClassify: a benchmark both binaries track runs in lockstep; one a
// binary does not track falls back with the binary named; a base that
// tracks nothing while the new binary does is an old base; a benchmark
// in one binary only, or that failed, is neither.
func TestClassify(t *testing.T) {
	tracked := func(names ...string) map[string]child.Tracked {
		m := map[string]child.Tracked{}
		for _, n := range names {
			m[n] = child.Tracked{Name: "Benchmark" + n, NsPerOp: 10}
		}
		return m
	}
	set := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	d := discovery{
		printed: [2]map[string]bool{set("A-2", "B-2", "C-2", "Gone-2", "Broken-2"), set("A-2", "B-2", "C-2", "Broken-2", "Fresh-2")},
		tracked: [2]map[string]child.Tracked{tracked("A-2", "B-2", "Broken-2"), tracked("A-2", "C-2", "Broken-2")},
		speaks:  [2]bool{true, true},
	}
	lock, why := d.classify(map[string]bool{"BenchmarkBroken": true})
	require.Len(t, lock, 1)
	assert.Equal(t, "A-2", lock[0].name)
	assert.Equal(t, 10.0, lock[0].nsPerOp, "the base's time per op")
	assert.Equal(t, map[string]string{
		"B-2": "it calls neither benchkit.Track nor benchkit.Loop in this binary",
		"C-2": "it calls neither benchkit.Track nor benchkit.Loop in the base binary",
	}, why)

	// A base that speaks the protocol but tracks none of the selected
	// benchmarks: each is said to lack Track in the base, not to come
	// from a base that cannot take part.
	d.tracked[0] = tracked()
	_, why = d.classify(nil)
	assert.Equal(t, "it calls neither benchkit.Track nor benchkit.Loop in the base binary", why["A-2"])

	d.speaks[0] = false
	_, why = d.classify(nil)
	assert.Contains(t, why["A-2"], "the base binary does not speak the lockstep protocol")
	assert.Equal(t, "it calls neither benchkit.Track nor benchkit.Loop in either binary", why["B-2"])
}

// TestCountAll: each compared benchmark is counted once per name in
// each binary (Work-2 and Work at -cpu=1,2 share one count), with the
// user's flags but none of benchkit's; the change is called beyond its
// tolerance and a rise beyond the instruction gate fails the benchmark;
// a side that could not be counted fails nothing and says why; identical
// code whose count moves from process to process gets more processes and
// is not called changed.
func TestCountAll(t *testing.T) {
	var calls []string
	counter := func(tg count.Target, lim count.Limits) (count.Result, error) {
		calls = append(calls, tg.Binary+" "+tg.Benchmark)
		assert.NotContains(t, strings.Join(tg.Args, " "), "-benchkit.", "the base need not define benchkit's flags")
		assert.Contains(t, tg.Args, "-test.short=true")
		switch {
		case tg.Benchmark == "BenchmarkBroken" && tg.Binary == "new.test":
			return count.Result{}, &count.Error{Reason: count.ReasonFailed, Message: "count: it crashed under valgrind"}
		case tg.Benchmark == "BenchmarkSeeded":
			// ±1% between processes, the interval's half-width
			// shrinking as processes are added; +0.5% between the
			// sides' means, beyond the floor.
			n := max(lim.Repeats, count.DefaultRepeats)
			if lim.From != nil {
				calls[len(calls)-1] += " +1"
			}
			per := map[string]float64{"base.test": 32_000, "new.test": 32_160}[tg.Binary]
			return count.Result{Benchmark: tg.Benchmark, PerOp: per, PerOps: make([]float64, n), ResolutionPct: 0.01, HalfWidthPct: 2.0 / float64(n)}, nil
		case tg.Binary == "new.test":
			return count.Result{PerOp: 1053, ResolutionPct: 0.01}, nil
		}
		return count.Result{PerOp: 1000, ResolutionPct: 0.01}, nil
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Bool("test.short", false, "")
	fs.String("benchkit.against", "", "")
	require.NoError(t, fs.Parse([]string{"-test.short", "-benchkit.against=base.test"}))
	st := &state{p: Plan{counter: counter, Against: settings.Against{GateInstr: 2}, base: Binary{Path: "base.test"},
		baseExe: func() (string, error) { return "base.test", nil }, newExe: func() (string, error) { return "new.test", nil }}}
	a := Result{GateInstr: 0.3, Benches: []Bench{{Name: "Work-2"}, {Name: "Work"}, {Name: "Broken-2"}, {Name: "Seeded"}}}
	var stderr strings.Builder
	st.countAll(&a, fs, &stderr)
	assert.Equal(t, []string{"base.test BenchmarkWork", "new.test BenchmarkWork", "base.test BenchmarkBroken", "new.test BenchmarkBroken",
		"base.test BenchmarkSeeded", "new.test BenchmarkSeeded",
		"base.test BenchmarkSeeded +1", "new.test BenchmarkSeeded +1", "base.test BenchmarkSeeded +1", "new.test BenchmarkSeeded +1",
		"base.test BenchmarkSeeded +1", "new.test BenchmarkSeeded +1"}, calls, "the seeded pair grows to count.MaxRepeats processes")
	assert.Contains(t, stderr.String(), "counting the instructions per op of 4 benchmarks in both binaries")
	for _, b := range a.Benches[:2] {
		require.NotNil(t, b.Instr)
		assert.InDelta(t, 5.3, b.Instr.DeltaPct, 1e-9)
		assert.True(t, b.Instr.Changed)
		assert.True(t, b.GateFailed(), "+5.3%% is beyond the 0.3%% instruction gate")
	}
	seeded := a.Benches[3]
	assert.InDelta(t, 0.5, seeded.Instr.DeltaPct, 1e-9)
	assert.InDelta(t, 0.8, seeded.Instr.TolerancePct, 1e-9, "two half-widths of 2/5 %")
	assert.False(t, seeded.Instr.Changed, "within the processes' spread")
	assert.False(t, seeded.GateFailed(), "+0.5%% of process-dependent counts does not fail a 0.3%% gate")
	broken := a.Benches[2]
	assert.False(t, broken.Instr.Counted())
	assert.False(t, broken.GateFailed())
	assert.Contains(t, broken.GateNote, "instruction gate not applied: not counted (failed)")
}

// TestGateInstrNeedsCounts: the instruction gate without the counts is
// refused before anything runs, naming the flag that gives them.
func TestGateInstrNeedsCounts(t *testing.T) {
	_, err := NewPlan(settings.Against{Base: "base.test", GateInstr: 1}, "", nil, flag.NewFlagSet("x", flag.ContinueOnError), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "add -benchkit.count=instructions")
}

// TestIdleCPU: the waiting processes' CPU time over the runs' wall time;
// unknown without a reading; a warning only above IdleCPUWarnPct.
func TestIdleCPU(t *testing.T) {
	var ic idleCPU
	assert.Equal(t, -1.0, ic.Pct(), "nothing read")
	ms := time.Millisecond
	// Side 0 runs for 10 ms while sides 1 and 2 use 2 ms and 3 ms.
	ic.add(0, [sides]time.Duration{0, 10 * ms, 20 * ms}, [sides]time.Duration{9 * ms, 12 * ms, 23 * ms}, 10*ms)
	// Side 1 runs for 10 ms; the others use nothing.
	ic.add(1, [sides]time.Duration{9 * ms, 12 * ms, 23 * ms}, [sides]time.Duration{9 * ms, 22 * ms, 23 * ms}, 10*ms)
	assert.InDelta(t, 25.0, ic.Pct(), 1e-9, "5 ms of 20 ms")
	assert.Contains(t, idleWarning("Spins-2", ic.Pct()), "Spins-2: while one process of a triple ran, the two waiting ones used the CPUs for 25%")
	assert.Empty(t, idleWarning("Quiet-2", IdleCPUWarnPct))
	assert.Empty(t, idleWarning("Unknown-2", -1))
}

// TestRoundNs: a round whose three runs all said how long their thread
// waited for a CPU has each wait taken out of its run's time; if one
// side could not say (or says more than its timed time), the round stays
// whole on every side, so that the sides are measured alike.
func TestRoundNs(t *testing.T) {
	step := func(timed, wait int64) child.Step { return child.Step{N: 100, TimedNs: timed, WaitNs: wait} }
	ns, w := roundNs([sides]child.Step{step(300_000, 100_000), step(200_000, 0), step(250_000, 50_000)})
	assert.Equal(t, [sides]float64{2000, 2000, 2000}, ns, "each run less its wait")
	assert.Equal(t, runWait{wait: 150_000, timed: 750_000, rounds: 1}, w)
	assert.InDelta(t, 20, w.Pct(), 1e-9)

	for _, odd := range []child.Step{step(250_000, -1), step(250_000, 250_000)} {
		ns, w = roundNs([sides]child.Step{step(300_000, 100_000), step(200_000, 0), odd})
		assert.Equal(t, [sides]float64{3000, 2000, 2500}, ns, "whole")
		assert.Equal(t, runWait{rounds: 1, whole: 1}, w)
		assert.Equal(t, -1.0, w.Pct(), "no wait known")
	}
	var all runWait
	all.merge(runWait{wait: 10, timed: 100, rounds: 2})
	all.merge(runWait{rounds: 1, whole: 1})
	assert.Equal(t, runWait{wait: 10, timed: 100, rounds: 3, whole: 1}, all)
	assert.InDelta(t, 10, all.Pct(), 1e-9)
	assert.Equal(t, "; its runs waited 10% of their time for a CPU, taken out", waitNote(all))
	assert.Empty(t, waitNote(runWait{wait: 1, timed: 1000, rounds: 1}), "below 1%: nothing to say")
}
