package harness

import (
	"bytes"
	"github.com/benchkit/go-benchkit/internal/against"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/report"
)

// est is a verdict estimate with Δ and the interval [lo, hi] in percent.
func est(name string, delta, lo, hi float64, v verdict.Verdict) verdict.Estimate {
	return verdict.Estimate{Name: name, NsPerOp: 100 * (1 + delta/100), DeltaPct: delta, LoPct: lo, HiPct: hi, Verdict: v, Reason: "r"}
}

// writeRead writes in's JSON report with report.JSON and reads it back.
func writeRead(t *testing.T, in report.Input) report.JSONReport {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, report.JSON(&buf, in))
	rep, err := report.ReadJSON(&buf)
	require.NoError(t, err)
	return rep
}

func TestAgainstOutcomes(t *testing.T) {
	nan := math.NaN()
	a := &against.Result{Benches: []against.Bench{
		{Name: "Work-2", NewEst: est("new", 5.2, 4.1, 6.3, verdict.Slower), Mode: against.ModeLockstep,
			Groups: []int{3, 3, 3, 3}, Stop: "decided", BetweenPct: 6.1, WithinPct: 0.8, IdleCPUPct: -1,
			GC: &against.GCParts{MutatorDeltaPct: 0.3, CyclesPerOpBase: 0.010, CyclesPerOpNew: 0.0105, GCCPUBaseNs: nan, GCCPUNewNs: nan, Triples: 3}},
		{Name: "Split-half-2", NewEst: est("new", 0.4, nan, nan, verdict.Undecided), Mode: against.ModeRounds, ModeNote: "it calls neither",
			BetweenPct: -1, WithinPct: -1},
		{Name: "Sum/n=1-2", NewEst: verdict.Estimate{Name: "new", DeltaPct: nan, LoPct: nan, HiPct: nan, Verdict: verdict.Undecided}, Mode: against.ModeRounds},
	}}
	got, err := AgainstOutcomes(writeRead(t, report.Input{Against: a}))
	require.NoError(t, err)
	require.Len(t, got, 3)
	work := got["Work"]
	assert.InDelta(t, 5.0, work.CyclesPct, 1e-9, "new's collections per op over base's")
	work.CyclesPct = 0
	assert.Equal(t, AgainstOutcome{Estimate: Estimate{Delta: 5.2, Lo: 4.1, Hi: 6.3, HasCI: true, Verdict: "slower"}, Mode: "lockstep",
		Triples: 4, Stop: "decided", BetweenPct: 6.1, WithinPct: 0.8, MutatorPct: 0.3}, work)
	split := got["Split-half"]
	assert.True(t, math.IsNaN(split.BetweenPct) && math.IsNaN(split.WithinPct), "unknown components: NaN")
	assert.True(t, math.IsNaN(split.MutatorPct) && math.IsNaN(split.CyclesPct), "no collector parts: NaN")
	split.BetweenPct, split.WithinPct, split.MutatorPct, split.CyclesPct = 0, 0, 0, 0
	assert.Equal(t, AgainstOutcome{Estimate: Estimate{Delta: 0.4, Verdict: "undecided"}, Mode: "rounds", ModeNote: "it calls neither"}, split, "only the -procs suffix goes")
	assert.True(t, math.IsNaN(got["Sum/n=1"].Delta), "no estimate: NaN")
	assert.False(t, got["Sum/n=1"].HasCI)

	_, err = AgainstOutcomes(writeRead(t, report.Input{}))
	assert.EqualError(t, err, "the report holds no cross-build comparison")
}
