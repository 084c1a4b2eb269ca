package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// steadyBursty is a Loop timeline of a steady 170 ns workload with
// scattered interference bursts (sum on a busy 2-core box).
func steadyBursty(seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 5))
	xs := make([]float64, 256)
	for i := range xs {
		xs[i] = 170 * (1 + 0.03*math.Abs(r.NormFloat64()))
	}
	for range 10 {
		at, l := r.IntN(250), 1+r.IntN(6)
		for i := at; i < at+l; i++ {
			xs[i] *= 1.5 + 2*r.Float64()
		}
	}
	return xs
}

// TestBatchesGradeTheMedian: a steady workload's batches spread by 10% or
// more, but the run's median is pinned to a percent or two: the grade is
// of the median, the batch spread is shown ungraded, runs-needed is a
// lower bound from the run's own standard error, and bursts are outliers,
// not regimes.
func TestBatchesGradeTheMedian(t *testing.T) {
	for seed := range uint64(20) {
		tl := steadyBursty(seed)
		a := Analyze(Input{Benches: []registry.Bench{{Name: "BenchmarkSum", Runs: runs(2, 0.01, 172), TotalRuns: 1, Timeline: tl}}})
		r := rowByName(t, a, "Sum-2")
		assert.Greater(t, r.CVPct, 10.0, "seed %d: the bursts spread the batches", seed)
		assert.Equal(t, BasisBatchCI, r.GradeBasis)
		assert.NotEqual(t, GradeDoNotTrust, r.Grade, "seed %d: ±%.2f%%", seed, r.CIPct)
		assert.Nil(t, r.Regimes, "seed %d: bursts are not regimes", seed)
		assert.Equal(t, BasisBatchCI, r.RunsNeededBasis)
		assert.Equal(t, MinRunsForCI, r.RunsNeeded, "seed %d", seed)
	}
	text := render(t, Input{Benches: []registry.Bench{{Name: "BenchmarkSum", Runs: runs(2, 0.01, 172), TotalRuns: 1, Timeline: steadyBursty(1)}}})
	row := fields(lineWith(t, text, "Sum-2", "1 run, 256 batches"))
	assert.Equal(t, "6", row[7], "fast noise: both ends of the range are the floor")
	assert.Regexp(t, `^[0-9.]+ b$`, row[4], "the batch spread is marked as such")

	// A slowly wandering level (AR(1) with φ = 0.95 over 256 batches, 2%
	// per step): the run's own standard error and the spread of its
	// sixteenths differ, and the cell shows both ends.
	r := rand.New(rand.NewPCG(9, 9))
	wander := make([]float64, 256)
	a := 0.0
	for i := range wander {
		a = 0.95*a + 0.02*r.NormFloat64()
		wander[i] = 170 * (1 + a) * (1 + 0.03*math.Abs(r.NormFloat64()))
	}
	in := Input{Benches: []registry.Bench{{Name: "BenchmarkWander", Runs: runs(2, 0.01, 172), TotalRuns: 1, Timeline: wander}}}
	w := rowByName(t, Analyze(in), "Wander-2")
	require.Nil(t, w.Regimes)
	assert.Greater(t, w.RunsNeededHi, w.RunsNeeded)
	cell := fields(lineWith(t, render(t, in), "Wander-2", "1 run, 256 batches"))[7]
	assert.Equal(t, fmt.Sprintf("%d–%d", w.RunsNeeded, w.RunsNeededHi), cell)
}

// TestColdStartAdvice: fastjson's MarshalTo/canada, 407 ms at b.N=1 then
// 1.1 ms per op, wait 3.4%: the advice names the cold start and its fix,
// not contention or the machine.
func TestColdStartAdvice(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	tl := []float64{407e6}
	for range 87 {
		tl = append(tl, 1.1e6*(1+0.02*r.NormFloat64()))
	}
	in := Input{Benches: []registry.Bench{{Name: "BenchmarkMarshalTo/canada", Runs: runs(2, 0.034, 5.7e6), TotalRuns: 1, Timeline: tl}}}
	a := Analyze(in)
	row := rowByName(t, a, "MarshalTo/canada-2")
	assert.Greater(t, row.ColdStart, 300.0)
	assert.NotEqual(t, GradeDoNotTrust, row.Grade, "the cold batch is left out of the grade")
	text := renderFlat(t, in)
	cold := lineWith(t, text, "MarshalTo/canada-2: cold start:")
	assert.Contains(t, cold, "run the work once before the loop")
	assert.NotContains(t, text, "quiet the machine")
	assert.NotContains(t, text, "contention:")
	assert.Contains(t, lineWith(t, text, "MarshalTo/canada-2", "1 run, 88 batches"), "cold-start 3")
}

// TestContentionDriftAdvice: a high wait% is named as contention with its
// fix; a steady climb is a drift with its own, and not two regimes.
func TestContentionDriftAdvice(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	drift := make([]float64, 200)
	for i := range drift {
		drift[i] = (100 + 20*float64(i)/199) * (1 + 0.01*r.NormFloat64())
	}
	noisy := []float64{100, 112, 95, 108, 91, 117, 99, 104, 88, 110}
	in := Input{Benches: []registry.Bench{
		{Name: "BenchmarkDrift", Runs: runs(2, 0.01, 110), TotalRuns: 1, Timeline: drift},
		{Name: "BenchmarkBusy", Runs: runs(2, 0.25, noisy...), TotalRuns: len(noisy)},
		{Name: "BenchmarkOwn", Runs: runs(2, 0.01, noisy...), TotalRuns: len(noisy)},
	}}
	a := Analyze(in)
	d := rowByName(t, a, "Drift-2")
	require.NotNil(t, d.Drift)
	assert.Nil(t, d.Regimes)
	assert.InDelta(t, 20, d.Drift.ChangePct, 4)
	text := renderFlat(t, in)
	assert.Contains(t, lineWith(t, text, "Drift-2: drift:"), "warm up before measuring")
	assert.Contains(t, lineWith(t, text, "Busy-2: contention:"), "stop other work on the machine")
	assert.Contains(t, lineWith(t, text, "Busy-2: cv"), "caused by contention (wait 25.0%)")
	own := lineWith(t, text, "Own-2: cv")
	assert.Contains(t, own, "no contention, regimes or drift to blame")
	assert.Contains(t, own, "runs per side")
	assert.NotContains(t, own, "hypervisor")
	assert.NotContains(t, text, "Own-2: contention")

	// Under a hypervisor the host is named as a possible unseen cause, on
	// the row with no cause found only.
	in.Warnings = []env.Warning{{Key: env.KeyVirtualisation, Message: "running under a hypervisor"}}
	text = renderFlat(t, in)
	assert.Contains(t, lineWith(t, text, "Own-2: cv"), "the host slowing this guest, which neither wait% nor steal shows")
	assert.NotContains(t, lineWith(t, text, "Busy-2: cv"), "the host slowing")
}

// TestColdStartRuns: with -count, a first run that paid for a cold first
// iteration is left out of the run-to-run cv, the grade and the regimes,
// whose segments still count from the first run.
func TestColdStartRuns(t *testing.T) {
	ns := []float64{5.7e6}
	for i := range 19 {
		v := 1.1e6 * (1 + 0.005*float64(i%3))
		if i >= 9 {
			v *= 1.5 // a second regime from run 11 on
		}
		ns = append(ns, v)
	}
	a := Analyze(Input{Benches: []registry.Bench{{Name: "BenchmarkCold", Runs: runs(2, 0.01, ns...), TotalRuns: len(ns)}}})
	r := rowByName(t, a, "Cold-2")
	assert.Greater(t, r.ColdStart, 3.0, "5.7 ms over the median of the rest, 1.65 ms")
	require.NotNil(t, r.Regimes)
	assert.Equal(t, [][2]int{{1, 10}}, r.Regimes.Low.Segments, "indices of the runs as recorded")
	assert.Equal(t, [][2]int{{10, 20}}, r.Regimes.High.Segments)

	steady := []float64{5.7e6, 1.1e6, 1.11e6, 1.09e6, 1.1e6, 1.12e6, 1.1e6, 1.09e6}
	s := rowByName(t, Analyze(Input{Benches: []registry.Bench{{Name: "BenchmarkWarm", Runs: runs(2, 0.01, steady...), TotalRuns: len(steady)}}}), "Warm-2")
	assert.Greater(t, s.ColdStart, 4.0)
	assert.Equal(t, GradeExcellent, s.Grade, "cv %.2f%% without the cold run", s.CVPct)
	assert.Less(t, s.CVPct, 2.0)
}

// TestJSONGradeFields: the grade and cause fields added within v1.
func TestJSONGradeFields(t *testing.T) {
	tl := []float64{407e6}
	for i := range 63 {
		tl = append(tl, 1.1e6*(1+0.01*float64(i%4)))
	}
	in := Input{Benches: []registry.Bench{
		{Name: "BenchmarkCold", Runs: runs(2, 0.01, 5.7e6), TotalRuns: 1, Timeline: tl},
		{Name: "BenchmarkRuns", Runs: runs(2, 0.01, 100, 101, 99, 100, 102, 98), TotalRuns: 6},
	}}
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Benchmarks []struct {
			Display         string
			GradeBasis      string   `json:"grade_basis"`
			MedianCIPct     *float64 `json:"median_ci_pct"`
			RunsNeededBasis string   `json:"runs_needed_basis"`
			RunsNeededHi    *int     `json:"runs_needed_hi"`
			ColdStartRatio  *float64 `json:"cold_start_ratio"`
			Drift           *struct {
				ChangePct float64 `json:"change_pct"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	require.Len(t, rep.Benchmarks, 2)
	cold, rs := rep.Benchmarks[0], rep.Benchmarks[1]
	assert.Equal(t, "batch-ci", cold.GradeBasis)
	assert.Equal(t, "batch-ci", cold.RunsNeededBasis)
	require.NotNil(t, cold.MedianCIPct)
	require.NotNil(t, cold.RunsNeededHi)
	require.NotNil(t, cold.ColdStartRatio)
	assert.Greater(t, *cold.ColdStartRatio, 300.0)
	assert.Nil(t, cold.Drift)
	assert.Equal(t, "run-cv", rs.GradeBasis)
	assert.Equal(t, "run-cv", rs.RunsNeededBasis)
	assert.Nil(t, rs.RunsNeededHi)
	assert.Nil(t, rs.ColdStartRatio)
	require.NotNil(t, rs.MedianCIPct, "benchstat's ± with 6 runs")
}

// busySuite is a suite on a busy machine: n benchmarks of ten noisy runs
// each, the i-th waiting 5.2% + 5i% of its wall time for a CPU, so that
// contention is the cause of every noisy grade.
func busySuite(n int) []registry.Bench {
	noisy := []float64{100, 112, 95, 108, 91, 117, 99, 104, 88, 110}
	var bs []registry.Bench
	for i := range n {
		bs = append(bs, registry.Bench{Name: fmt.Sprintf("BenchmarkB%02d", i), Runs: runs(2, 0.052+0.05*float64(i), noisy...), TotalRuns: len(noisy)})
	}
	return bs
}

// drifting is a Loop timeline that climbs by pct percent through 200
// batches.
func drifting(seed uint64, pct float64) []float64 {
	r := rand.New(rand.NewPCG(seed, seed))
	xs := make([]float64, 200)
	for i := range xs {
		xs[i] = (100 + pct*float64(i)/199) * (1 + 0.01*r.NormFloat64())
	}
	return xs
}

// TestFindingsGroupContention: 28 benchmarks under contention give one
// contention line (how many, the wait% range, the worst three, the fix
// once) and one line for the grades it caused (a few names, then "and N
// more"), not a pair of lines each; a row's own finding (eliminated work)
// stays on its row.
func TestFindingsGroupContention(t *testing.T) {
	in := Input{Benches: busySuite(28)}
	in.Benches = append(in.Benches, registry.Bench{Name: "BenchmarkGone", Runs: runs(2, 0.001, 0.31, 0.31, 0.31, 0.31, 0.31, 0.31), TotalRuns: 6,
		Flags: []registry.Flag{{Kind: registry.FlagEliminated, Message: "benchkit: BenchmarkGone: 0.31 ns/op is at the empty-loop floor", Count: 6}}})
	lines := findingLines(Analyze(in).Rows, false)
	require.Len(t, lines, 3, "%q", lines)
	assert.Equal(t, "contention in 28 benchmarks (wait% 5.2–140; worst: B27-2 140%, B26-2 135%, B25-2 130%): "+
		"their processes waited for a CPU that share of the run's wall time "+contentionWhy+". "+contentionFix, lines[0])
	assert.Equal(t, "Gone-2: eliminated (from timing): 0.31 ns/op is at the empty-loop floor (raised by 6 runs)", lines[1])
	assert.Equal(t, "grade caused by contention (see above) in 28 benchmarks (28 noisy): B00-2, B01-2, B02-2, B03-2 and 24 more; "+
		"each one's cv% and ±% are in the table; "+causeFix, lines[2])

	text := renderFlat(t, in)
	assert.Equal(t, 1, strings.Count(text, contentionFix), "the fix is given once")
	assert.NotContains(t, text, "B05-2: contention")
}

// TestFindingsGroupThreshold: below MinGroupRows rows the findings stay
// one per row, with each row's own numbers.
func TestFindingsGroupThreshold(t *testing.T) {
	lines := findingLines(Analyze(Input{Benches: busySuite(MinGroupRows - 1)}).Rows, false)
	require.Len(t, lines, 2*(MinGroupRows-1), "%q", lines)
	assert.True(t, strings.HasPrefix(lines[0], "B00-2: contention: the process waited for a CPU 5.2% of the run's wall time"), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "B00-2: cv "), lines[1])
	assert.Contains(t, lines[1], "caused by contention (wait 5.2%) (see above)")
}

// TestFindingsGroupDriftAndOwnSpread: drifts shared by three rows are one
// line with the range of the change; noisy grades with no cause found are
// one line too, naming the hypervisor as a possible cause when the
// environment warned of one.
func TestFindingsGroupDriftAndOwnSpread(t *testing.T) {
	var in Input
	for i, pct := range []float64{20, -15, 30} {
		in.Benches = append(in.Benches, registry.Bench{Name: fmt.Sprintf("BenchmarkD%d", i), Runs: runs(2, 0.01, 110), TotalRuns: 1, Timeline: drifting(uint64(i+1), pct)})
	}
	noisy := []float64{100, 112, 95, 108, 91, 117, 99, 104, 88, 110}
	for i := range 3 {
		in.Benches = append(in.Benches, registry.Bench{Name: fmt.Sprintf("BenchmarkOwn%d", i), Runs: runs(2, 0.01, noisy...), TotalRuns: len(noisy)})
	}
	a := Analyze(in)
	for i := range 3 {
		require.NotNil(t, rowByName(t, a, fmt.Sprintf("D%d-2", i)).Drift, "D%d", i)
	}
	lines := findingLines(a.Rows, true)
	require.NotEmpty(t, lines)
	assert.Regexp(t, `^drift in 3 benchmarks \(the level moved -1\d\.\d% to \+[23]\d\.\d% through the samples, steadily: Mann–Kendall, Sen's slope; `+
		`largest: D2-2 \+[23]\d\.\d%, D0-2 \+[12]\d\.\d%, D1-2 -1\d\.\d%\): `, lines[0])
	assert.Equal(t, 1, strings.Count(strings.Join(lines, "\n"), driftFix))
	own := lines[len(lines)-1]
	assert.True(t, strings.HasPrefix(own, "grade with no contention, regimes or drift to blame in 3 benchmarks (3 noisy): Own0-2, Own1-2, Own2-2; "+ownSpread+hostNote), own)
	for _, l := range lines {
		assert.NotContains(t, l, "Own1-2: ")
	}
}

// TestParentsSummary: Track in parents that call b.Run gives one finding
// for all of them, which names the parents whose sub-benchmarks ran
// untracked and those whose sub-benchmarks are tracked, with the recipe;
// the flag is still each parent's in the table and the JSON.
func TestParentsSummary(t *testing.T) {
	parent := func(name string) registry.Bench {
		return registry.Bench{Name: name, Flags: []registry.Flag{{Kind: registry.FlagMisuse, Parent: true, Count: 1,
			Message: "benchkit: " + name + " calls b.Run, so testing measures only its sub-benchmarks and Track here records nothing. Fix: Track in each b.Run function"}}}
	}
	in := Input{Benches: []registry.Bench{
		parent("BenchmarkA"), parent("BenchmarkB"), parent("BenchmarkBoth"),
		{Name: "BenchmarkBoth/leaf-2", Runs: runs(2, 0.01, 100, 101, 99), TotalRuns: 3},
		{Name: "BenchmarkTwice-2", Runs: runs(2, 0.01, 100, 101, 99), TotalRuns: 3,
			Flags: []registry.Flag{{Kind: registry.FlagMisuse, Count: 1, Message: "benchkit: BenchmarkTwice-2: Track called twice in one run"}}},
	}}
	a := Analyze(in)
	lines := findingLines(a.Rows, false)
	require.Len(t, lines, 2, "%q", lines)
	assert.Equal(t, "misuse: Track at the top of a benchmark that calls b.Run records nothing, as testing measures only its sub-benchmarks; "+
		"in 3 benchmarks here: the sub-benchmarks of A, B ran untracked; those of Both call Track already, so the parent's call can go. "+
		"Fix: call benchkit.Track(b) at the top of the function given to b.Run", lines[0])
	assert.Equal(t, "Twice-2: misuse: Track called twice in one run", lines[1], "other misuse stays on its row")
	assert.Equal(t, []string{"misuse"}, rowByName(t, a, "A").Tags())

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	assert.Contains(t, buf.String(), "BenchmarkA calls b.Run", "the JSON keeps each parent's flag")
	assert.NotContains(t, buf.String(), `"parent"`, "and its fields as they were")

	assert.Empty(t, parentSummary(Analyze(Input{Benches: in.Benches[4:]}).Rows))
}
