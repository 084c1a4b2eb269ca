package report

import (
	"bytes"
	"encoding/json"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/count"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/control/verdict"
)

func againstFixture() *against.Result {
	side := func(ns, allocs float64) against.Side {
		return against.Side{NsPerOp: []float64{ns, ns * 1.01, ns * 0.99}, AllocsPerOp: []float64{allocs, allocs, allocs}, BytesPerOp: []float64{64, 64, 64},
			Iters: []int{1000, 2000, 3000}}
	}
	return &against.Result{
		Base:    against.Binary{Path: "base.test", Package: "example.com/p", GoVersion: "go1.26.8", SHA256: strings.Repeat("ab", 32)},
		New:     against.Binary{Path: "/tmp/p.test", Package: "example.com/p", VCSRevision: "abc123", VCSModified: true},
		Pattern: ".", Benchtime: "667ms", Rounds: 3, Confidence: 0.975, Negligible: 1, GatePct: 5, GateAllocs: true,
		Benches: []against.Bench{{
			Name: "Work-2", Base: side(100, 1), New: side(150, 2), Control: side(100, 1),
			NewEst:     verdict.Estimate{Name: "new", NsPerOp: 150, DeltaPct: 50, LoPct: 45, HiPct: 55, Verdict: verdict.Slower, Reason: "the interval excludes 0"},
			ControlEst: verdict.Estimate{Name: "control", NsPerOp: 100, DeltaPct: 0.1, LoPct: -0.5, HiPct: 0.7, Verdict: verdict.Same, Reason: "noise floor"},
			Allocs:     against.Count{Base: 1, New: 2}, Bytes: against.Count{Base: 64, New: 64},
			GatesFailed: []string{against.GateTime, against.GateAllocs}, Mode: against.ModeRounds,
		}},
		OnlyNew:  []string{"Fresh-2"},
		Failures: []against.Failure{{Side: "base", Round: 1, Benchmarks: []string{"BenchmarkOld"}, Message: "exited with status 1", Output: "--- FAIL: BenchmarkOld\n    old_test.go:3: 100%\n"}},
	}
}

func TestAgainstText(t *testing.T) {
	in := Input{Against: againstFixture()}
	a := Analyze(in)
	require.Len(t, a.Failures, 2, "the time gate and the allocation gate; a base failure is not the run's")
	assert.Contains(t, a.Failures[0], "Work-2 is +50.00% slower than the base [+45.00%, +55.00%], beyond the 5% gate")
	assert.Contains(t, a.Failures[1], "Work-2 allocates more, 2 allocs/op against the base's 1")
	out := renderFlat(t, in)
	for _, want := range []string{
		"against base.test · -bench=. · base, new and base again (the A/A control) · 97.5% intervals",
		"· rounds: 3 rounds of 3 whole processes, each running the selection once at -benchtime=667ms",
		"base  base.test  pkg example.com/p  go1.26.8  sha256 abababababab",
		"new   /tmp/p.test  pkg example.com/p  vcs abc123 (modified)",
		"Work-2     rounds  100.0ns  150.0ns  +50.00%  [+45.00%, +55.00%]  +0.10%",
		"1 → 2 (+1)",
		"allocs/op up 1 → 2 (+1); time slower: the interval excludes 0",
		"only in new, not compared: Fresh-2",
		"gate 5%, allocs/op: FAILED (Work-2)",
		"✗ base process of round 1 failed (BenchmarkOld): exited with status 1; its output:",
		"benchkit │       --- FAIL: BenchmarkOld",
		"none in this process: under -benchkit.against",
	} {
		assert.Contains(t, out, want)
	}
	for _, l := range strings.Split(strings.TrimRight(render(t, in), "\n"), "\n") {
		assert.True(t, strings.HasPrefix(l, "benchkit │"), "every line has the prefix: %q", l)
	}
}

func TestAgainstJSONAndSamples(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, Input{}))
	assert.Contains(t, buf.String(), `"against": null`)

	in := Input{Against: againstFixture()}
	buf.Reset()
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Against struct {
			Base       map[string]any   `json:"base"`
			Benchmarks []map[string]any `json:"benchmarks"`
			OnlyBase   []string         `json:"only_base"`
			Failures   []map[string]any `json:"failures"`
		} `json:"against"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	assert.Equal(t, strings.Repeat("ab", 32), rep.Against.Base["sha256"])
	require.Len(t, rep.Against.Benchmarks, 1)
	b := rep.Against.Benchmarks[0]
	assert.Equal(t, []any{100.0, 101.0, 99.0}, b["base"].(map[string]any)["ns_per_op"])
	assert.Equal(t, true, b["allocs_per_op"].(map[string]any)["changed"])
	assert.Equal(t, "slower", b["estimate"].(map[string]any)["verdict"])
	assert.Equal(t, "same", b["control_estimate"].(map[string]any)["verdict"])
	assert.NotNil(t, rep.Against.OnlyBase, "arrays are never null")
	assert.Len(t, rep.Against.Failures, 1)

	buf.Reset()
	require.NoError(t, Samples(&buf, in))
	r := benchfmt.NewReader(&buf, "s.txt")
	sides := map[string]int{}
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			assert.Equal(t, "Work-2", res.Name.String())
			assert.Equal(t, 1000*(sides[res.GetConfig("side")]+1), res.Iters, "each round's b.N, in order")
			sides[res.GetConfig("side")]++
		}
	}
	assert.Equal(t, map[string]int{"base": 3, "new": 3, "control": 3}, sides)
}

func TestAnnotations(t *testing.T) {
	in := Input{Against: againstFixture()}
	in.Against.Benches[0].GatesFailed = nil
	in.Against.GatePct, in.Against.GateAllocs = 0, false
	var buf bytes.Buffer
	Annotations(&buf, in, Analyze(in))
	assert.Equal(t, "::warning title=benchkit::Work-2 is +50.00%25 slower than the base [+45.00%25, +55.00%25]: the interval excludes 0\n"+
		"::warning title=benchkit::Work-2 allocates more: allocs/op up 1 → 2 (+1)\n", buf.String())

	buf.Reset()
	Annotations(&buf, Input{}, Analysis{Failures: []string{"benchkit: 100% wrong\nsecond line"}})
	assert.Equal(t, "::error title=benchkit::benchkit: 100%25 wrong%0Asecond line\n", buf.String())
}

// TestAgainstCountsAreIntegers: allocs/op and B/op are printed as go test
// prints them, truncated integers, in the table, the verdict and the
// failures, never in exponent form; the legend says what "varies" means.
func TestAgainstCountsAreIntegers(t *testing.T) {
	a := againstFixture()
	a.Benches[0].Allocs = against.Count{Base: 33100, New: 33164.5, Varies: true}
	a.Benches[0].Bytes = against.Count{Base: 1234567, New: 1234567}
	in := Input{Against: a}
	an := Analyze(in)
	out := renderFlat(t, in)
	assert.NotContains(t, out, "e+0")
	row := fields(lineWith(t, out, "Work-2", "100.0ns"))
	assert.Contains(t, row, "33100 → 33164 (+64), varies")
	assert.Contains(t, row, "1234567")
	assert.Contains(t, out, "allocs/op up 33100 → 33164 (+64); time slower")
	assert.Contains(t, an.Failures[1], "33164 allocs/op against the base's 33100")
	assert.Contains(t, out, `"varies": the rounds of a side (base with the control, or new) printed different values`)

	assert.Equal(t, "3", fmtCount(3.9), "truncated, as go test prints it")
	assert.Equal(t, "?", fmtCount(-1))
	assert.Equal(t, "64 → 0 (-64)", countChange(against.Count{Base: 64, New: 0}))
}

// TestAgainstMediansDisagree: a row whose sides' medians point one way and
// Δ the other is marked, with a legend line saying why; a row where they
// agree, or Δ is 0, is not, and without a marked row there is no legend.
func TestAgainstMediansDisagree(t *testing.T) {
	a := againstFixture()
	a.Benches[0].Base.NsPerOp = []float64{97.63, 90, 105}
	a.Benches[0].NewEst.NsPerOp, a.Benches[0].NewEst.DeltaPct = 102.5, -5.14
	in := Input{Against: a}
	out := render(t, in)
	row := fields(lineWith(t, out, "Work-2", "97.63ns"))
	assert.Equal(t, []string{"Work-2", "rounds", "97.63ns", "102.5ns", "-5.14% †", "[+45.00%, +55.00%]"}, row[:6])
	lineWith(t, out, "· †: the medians and Δ point different ways: Δ pairs base and new round by round")

	assert.False(t, mediansDisagree(97.63, verdict.Estimate{NsPerOp: 102.5, DeltaPct: 5}), "same direction")
	assert.False(t, mediansDisagree(97.63, verdict.Estimate{NsPerOp: 102.5, DeltaPct: 0}), "Δ of 0 has no direction")
	assert.False(t, mediansDisagree(-1, verdict.Estimate{NsPerOp: 102.5, DeltaPct: -5}), "an unknown base median")
	assert.True(t, mediansDisagree(102.5, verdict.Estimate{NsPerOp: 97.63, DeltaPct: 1}))

	assert.NotContains(t, render(t, Input{Against: againstFixture()}), "†")
}

// lockstepFixture is againstFixture with Work-2 measured in lockstep: two
// triples of 3 and 2 runs of 500 iterations, and a second benchmark that
// fell back to rounds, with the reason.
func lockstepFixture() *against.Result {
	a := againstFixture()
	a.Pairing, a.RunTargetNs = against.ModeLockstep, 3e6
	side := func(ns float64) against.Side {
		return against.Side{NsPerOp: []float64{ns, ns + 1, ns + 2, ns + 10, ns + 30}, AllocsPerOp: []float64{1, 1, 2, 1, 2},
			BytesPerOp: []float64{64, 64, 64, 64, 64}, Iters: []int{500, 500, 500, 500, 500}}
	}
	w := &a.Benches[0]
	w.Mode, w.Groups = against.ModeLockstep, []int{3, 2}
	w.Base, w.New, w.Control = side(100), side(150), side(100)
	same := a.Benches[0]
	same.Name, same.Mode, same.Groups, same.ModeNote = "Same-2", against.ModeRounds, nil, "it calls neither benchkit.Track nor benchkit.Loop"
	same.Base, same.New, same.Control = againstFixture().Benches[0].Base, againstFixture().Benches[0].Base, againstFixture().Benches[0].Base
	a.Benches = append(a.Benches, same)
	return a
}

// TestAgainstLockstep: the mode column, the legend line of each mode, the
// reason a benchmark fell back; the JSON's mode, groups and pairing; one
// samples line per triple and side, the median of its runs, with the
// triple's iterations.
func TestAgainstLockstep(t *testing.T) {
	in := Input{Against: lockstepFixture()}
	out := renderFlat(t, in)
	assert.Equal(t, []string{"Work-2", "lockstep", "102.0ns"}, fields(lineWith(t, out, "Work-2", "lockstep  "))[:3], "base/op: the median of every run")
	assert.Equal(t, []string{"Same-2", "rounds"}, fields(lineWith(t, out, "Same-2", "rounds  "))[:2])
	lineWith(t, out, "· lockstep: triples of live processes, one run of N iterations (about 3ms each) at a time in balanced random order, 2–3 runs per process per triple (each benchmark's design below); Δ is the mean over triples")
	lineWith(t, out, "· rounds: 3 rounds of 3 whole processes")
	lineWith(t, out, "Same-2: rounds, not lockstep: it calls neither benchkit.Track nor benchkit.Loop (benchkit.Track(b) or benchkit.Loop in both builds gives lockstep)")

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Against struct {
			Pairing     string `json:"pairing"`
			RunTargetNs int64  `json:"run_target_ns"`
			Benchmarks  []struct {
				Name     string `json:"name"`
				Mode     string `json:"mode"`
				ModeNote string `json:"mode_note"`
				Groups   []int  `json:"groups"`
			} `json:"benchmarks"`
		} `json:"against"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	assert.Equal(t, "lockstep", rep.Against.Pairing)
	assert.Equal(t, int64(3e6), rep.Against.RunTargetNs)
	require.Len(t, rep.Against.Benchmarks, 2)
	assert.Equal(t, "lockstep", rep.Against.Benchmarks[0].Mode)
	assert.Equal(t, []int{3, 2}, rep.Against.Benchmarks[0].Groups)
	assert.Equal(t, "rounds", rep.Against.Benchmarks[1].Mode)
	assert.Equal(t, []int{}, rep.Against.Benchmarks[1].Groups, "[] when measured in rounds, never null")
	assert.Contains(t, rep.Against.Benchmarks[1].ModeNote, "benchkit.Track")

	buf.Reset()
	require.NoError(t, Samples(&buf, in))
	r := benchfmt.NewReader(&buf, "s.txt")
	var ns []float64
	var iters []int
	var allocs []float64
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok || res.Name.String() != "Work-2" || res.GetConfig("side") != "base" {
			continue
		}
		ns = append(ns, res.Values[0].OrigValue)
		iters = append(iters, res.Iters)
		for _, v := range res.Values {
			if v.Unit == "allocs/op" {
				allocs = append(allocs, v.Value)
			}
		}
	}
	assert.Equal(t, []float64{101, 120}, ns, "the median of each triple's runs")
	assert.Equal(t, []int{1500, 1000}, iters, "each triple's iterations")
	assert.Equal(t, []float64{1, 1}, allocs, "the lower median, a whole count")
}

// TestAgainstInstructions: with counts, the instr/op column, the change
// leading the verdict, the legend line, the failure of the instruction
// gate, the note for a benchmark that could not be counted, the JSON
// field, the annotation, and the sentence when time and count disagree.
func TestAgainstInstructions(t *testing.T) {
	a := againstFixture()
	a.GatePct, a.GateAllocs, a.GateInstr = 0, false, 2
	w := &a.Benches[0]
	w.Allocs = against.Count{Base: 1, New: 1}
	w.Instr = &against.InstrChange{Base: count.Result{PerOp: 28229}, New: count.Result{PerOp: 29736, Children: "the benchmark started processes"},
		DeltaPct: 5.34, TolerancePct: 0.25, Changed: true}
	w.GatesFailed = []string{against.GateInstr}
	miss := a.Benches[0]
	miss.Name, miss.GatesFailed = "Miss-2", nil
	miss.Instr = &against.InstrChange{Base: count.Result{PerOp: -1, Reason: "valgrind-missing", Error: "count: no valgrind on PATH: apt-get install valgrind"},
		New: count.Result{PerOp: -1, Reason: "valgrind-missing", Error: "count: no valgrind on PATH: apt-get install valgrind"}, DeltaPct: math.NaN()}
	a.Benches = append(a.Benches, miss)
	w = &a.Benches[0] // the append moved the slice
	in := Input{Against: a}
	an := Analyze(in)
	out := renderFlat(t, in)
	head := fields(lineWith(t, out, "benchmark", "mode"))
	assert.Equal(t, []string{"B/op", "instr/op", "verdict"}, head[len(head)-3:])
	row := lineWith(t, out, "Work-2", "rounds  ")
	assert.Contains(t, row, "28229 → 29736 (+5.34%)")
	assert.Contains(t, row, "instr/op +5.34%; time slower: the interval excludes 0")
	lineWith(t, out, "· instr/op: instructions per op counted under valgrind in each binary the same way")
	lineWith(t, out, "Miss-2: instructions not counted in the base (valgrind-missing): no valgrind on PATH: apt-get install valgrind")
	lineWith(t, out, "Work-2: instructions counted in this binary's benchmark process only: the benchmark started processes")
	assert.NotContains(t, out, "counted in the base's benchmark process only")
	lineWith(t, out, "gate instructions 2%: FAILED (Work-2)")
	require.Len(t, an.Failures, 1)
	assert.Contains(t, an.Failures[0], "Work-2 executes +5.34% more instructions per op (28229 → 29736), beyond the 2% instruction gate")

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Against struct {
			GateInstr  float64 `json:"gate_instructions_pct"`
			Benchmarks []struct {
				Instr *struct {
					Base struct {
						PerOp *float64 `json:"per_op"`
					} `json:"base"`
					DeltaPct *float64 `json:"delta_pct"`
					Changed  bool     `json:"changed"`
				} `json:"instructions_per_op"`
			} `json:"benchmarks"`
		} `json:"against"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	assert.Equal(t, 2.0, rep.Against.GateInstr)
	require.NotNil(t, rep.Against.Benchmarks[0].Instr)
	assert.Equal(t, 28229.0, *rep.Against.Benchmarks[0].Instr.Base.PerOp)
	assert.True(t, rep.Against.Benchmarks[0].Instr.Changed)
	assert.Nil(t, rep.Against.Benchmarks[1].Instr.DeltaPct, "not counted: null, never NaN")

	w.GatesFailed, a.GateInstr = nil, 0
	buf.Reset()
	Annotations(&buf, in, Analyze(in))
	assert.Contains(t, buf.String(), "::warning title=benchkit::Work-2 executes more instructions per op: 28229 → 29736 (+5.34%25)")

	w.Instr = &against.InstrChange{Base: count.Result{PerOp: 28229}, New: count.Result{PerOp: 28230}, DeltaPct: 0.004, TolerancePct: 0.25}
	out = renderFlat(t, in)
	assert.Contains(t, out, "28229 → 28230 (+0.00%, same within ±0.25%)")
	assert.Contains(t, out, "time and instructions disagree: the instructions did not change, so the time difference is not in the code path")
}

// TestNoIntervalEverywhere: an estimate without an interval (one round,
// one triple) is shown as no interval in every output, never as a point
// [Δ, Δ] a reader or a dashboard would take for certainty.
func TestNoIntervalEverywhere(t *testing.T) {
	a := againstFixture()
	none := math.NaN()
	b := &a.Benches[0]
	b.NewEst = verdict.Estimate{Name: "new", NsPerOp: 97, DeltaPct: -2.76, LoPct: none, HiPct: none, Verdict: verdict.Undecided, Reason: "only 1 round"}
	b.ControlEst = verdict.Estimate{Name: "control", NsPerOp: 100, DeltaPct: 0.3, LoPct: none, HiPct: none, Verdict: verdict.Undecided, Reason: "only 1 round"}
	b.GatesFailed = nil
	in := Input{Against: a}
	text := renderFlat(t, in)
	assert.Contains(t, text, "-2.76%  no interval")
	assert.NotContains(t, text, "[-2.76%, -2.76%]")

	var js bytes.Buffer
	require.NoError(t, JSON(&js, in))
	var rep struct {
		Against struct {
			Benchmarks []struct {
				Estimate map[string]any `json:"estimate"`
			} `json:"benchmarks"`
		} `json:"against"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &rep))
	est := rep.Against.Benchmarks[0].Estimate
	assert.InDelta(t, -2.76, est["delta_pct"], 1e-9)
	assert.Nil(t, est["lo_pct"], "null, not the point estimate")
	assert.Nil(t, est["hi_pct"])

	var bmf bytes.Buffer
	require.NoError(t, BMF(&bmf, in, Analyze(in)))
	assert.NotContains(t, bmf.String(), "lower_value\": -2.76")
	assert.NotContains(t, bmf.String(), "upper_value\": -2.76")

	var gab bytes.Buffer
	require.NoError(t, GAB(&gab, in, Analyze(in)))
	assert.NotContains(t, gab.String(), `"range"`)
	assert.Contains(t, gab.String(), "no interval")
}

// TestAgainstDesign: a lockstep benchmark's design (its variance
// components, triples, runs and why it stopped) and its intervals' own
// level are said under the table and in the JSON; an undecided one says
// the smallest change the run could have told.
func TestAgainstDesign(t *testing.T) {
	a := lockstepFixture()
	w := &a.Benches[0]
	w.Design = "processes differ by 6.1%, runs by 1.8%: 48 triples of 5–41 runs; stopped: the budget of 16s (16 × -benchtime) spent"
	w.Confidence = 0.98
	w.NewEst.Verdict, w.GatesFailed = verdict.Undecided, nil
	w.DetectablePct = 4.25
	in := Input{Against: a}
	out := renderFlat(t, in)
	lineWith(t, out, "Work-2: processes differ by 6.1%, runs by 1.8%: 48 triples of 5–41 runs; stopped: the budget of 16s (16 × -benchtime) spent (its intervals at 98%)")
	lineWith(t, out, "Work-2: undecided; this run could tell a change beyond ±4.25% (its control's interval and as much again)")

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	rep, err := ReadJSON(&buf)
	require.NoError(t, err)
	b := rep.Against.Benchmarks[0]
	assert.Equal(t, w.Design, b.Design)
	require.NotNil(t, b.Confidence)
	assert.Equal(t, 0.98, *b.Confidence)
	require.NotNil(t, b.DetectablePct)
	assert.Equal(t, 4.25, *b.DetectablePct)
	assert.Nil(t, rep.Against.Benchmarks[1].Confidence, "a rounds row has the comparison's level")
}

// TestAgainstRevision: a base built from a revision is named by the
// revision and its merge base, with the flags carried and whether the
// cache had it; a package not at the base says so; a base that did not
// build shows the go command's output, and with a gate the run fails as
// one that compared nothing.
func TestAgainstRevision(t *testing.T) {
	commit := strings.Repeat("c0ffee", 6) + "beef"
	a := againstFixture()
	a.BaseRev = &against.Revision{Rev: "origin/main", Commit: commit, Reused: true, Flags: []string{"-race", "CGO_CFLAGS=", "GOTOOLCHAIN=go1.26.8"}}
	out := renderFlat(t, Input{Against: a})
	for _, want := range []string{
		"against origin/main (merge base c0ffeec0ffee) · -bench=.",
		"at " + commit + ", the merge base of origin/main and HEAD with -race GOTOOLCHAIN=go1.26.8 (reused from the cache)",
	} {
		assert.Contains(t, out, want)
	}
	assert.Contains(t, Analyze(Input{Against: a}).Failures[0], "benchkit: against origin/main: Work-2 is +50.00% slower")

	missing := &against.Result{New: a.New, Pattern: ".", OnlyNew: []string{"Fresh-2"},
		BaseRev: &against.Revision{Rev: "main", Commit: commit, Missing: "p is not in the base's files"}}
	out = renderFlat(t, Input{Against: missing})
	assert.Contains(t, out, "base  none")
	assert.Contains(t, out, "the package has no base (p is not in the base's files): every benchmark is new")
	assert.Contains(t, out, "only in new, not compared: Fresh-2")

	broken := &against.Result{New: a.New, Pattern: ".", GatePct: 5, BaseRev: &against.Revision{Rev: "main", Commit: commit},
		Failures:        []against.Failure{{Side: "base", Build: true, Message: "go test -c exited with status 1 at c0ffeec0ffee", Output: "./p.go:3:1: syntax error\n"}},
		NothingCompared: "benchkit: against main: the gate compared nothing"}
	out = renderFlat(t, Input{Against: broken})
	assert.Contains(t, out, "✗ the base did not build, so nothing was compared: go test -c exited with status 1 at c0ffeec0ffee; the go command's output:")
	assert.Contains(t, out, "./p.go:3:1: syntax error")
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, Input{Against: broken}))
	assert.Contains(t, buf.String(), `"build": true`)
	assert.Contains(t, buf.String(), `"base_revision": {`)
}
