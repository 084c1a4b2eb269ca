package verdict

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// synthGroups makes g groups of n rounds: base around 100 ns with a level
// of its own per group (the process), the control equal to base times a
// small per-round jitter, the candidate base × (1 + pct/100) × jitter,
// plus a per-group offset of the candidate's ratio of spread points.
func synthGroups(r *rand.Rand, g, n int, pct, spread float64) [][]Sample {
	var groups [][]Sample
	for range g {
		level := 100 * (1 + 0.2*r.Float64())
		offset := spread * (r.Float64() - 0.5) / 100
		var base, ctl, cand []float64
		for range n {
			b := level * (1 + 0.01*r.NormFloat64())
			base = append(base, b)
			ctl = append(ctl, b*(1+0.002*r.NormFloat64()))
			cand = append(cand, b*(1+pct/100+offset)*(1+0.002*r.NormFloat64()))
		}
		groups = append(groups, []Sample{{Name: "base", NsPerOp: base}, {Name: "control", NsPerOp: ctl}, {Name: "new", NsPerOp: cand}})
	}
	return groups
}

// TestAnalyzeGroupsSynthetic: the estimator Compare's forks and against's
// triples share, on samples whose truth is known: +5% is decided slower
// with an interval that holds 5 and a per-group Δ for each group; the
// control is Same; identical code is Same; a large between-group spread
// widens the interval (so that it still holds the truth) and is undecided.
func TestAnalyzeGroupsSynthetic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	res, err := AnalyzeGroups(synthGroups(r, 10, 50, 5, 0.4), Options{Unit: "triples", Gate: 3})
	require.NoError(t, err)
	c := res.Candidates[0]
	assert.Equal(t, Slower, c.Verdict, c.Reason)
	assert.InDelta(t, 5, c.DeltaPct, 0.3)
	assert.True(t, c.LoPct < 5 && 5 < c.HiPct, "[%v, %v] holds the truth", c.LoPct, c.HiPct)
	assert.Len(t, c.ForkDeltaPct, 10, "one Δ per group")
	assert.Equal(t, Same, res.Control.Verdict, res.Control.Reason)
	assert.True(t, res.GateFailed, "a decided +5% is beyond a 3% gate")
	assert.Equal(t, 500, res.Rounds)
	assert.Equal(t, 10, res.Forks)

	same, err := AnalyzeGroups(synthGroups(r, 10, 50, 0, 0.2), Options{Unit: "triples"})
	require.NoError(t, err)
	assert.Equal(t, Same, same.Candidates[0].Verdict, same.Candidates[0].Reason)

	wide, err := AnalyzeGroups(synthGroups(r, 10, 50, 0.5, 8), Options{Unit: "triples", UnitFix: "more triples narrow it"})
	require.NoError(t, err)
	w := wide.Candidates[0]
	assert.Greater(t, w.HiPct-w.LoPct, 3.0, "the groups' spread is in the interval")
	assert.Equal(t, Undecided, w.Verdict)
	assert.Contains(t, w.Reason, "triples")
}

// TestAnalyzeGroupsRejects: groups that do not pair up, or too few to
// give an interval.
func TestAnalyzeGroupsRejects(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := synthGroups(r, 3, 5, 0, 0)
	g[1][2].NsPerOp = g[1][2].NsPerOp[:4]
	_, err := AnalyzeGroups(g, Options{})
	assert.Error(t, err, "a candidate with fewer rounds than its group's base")

	g = synthGroups(r, 3, 5, 0, 0)
	g[2][2].Name = "other"
	_, err = AnalyzeGroups(g, Options{})
	assert.Error(t, err, "groups naming different implementations")

	one, err := AnalyzeGroups(synthGroups(r, 1, 20, 10, 0), Options{Unit: "triples"})
	require.NoError(t, err)
	assert.Equal(t, Undecided, one.Candidates[0].Verdict, "one group: no interval across groups")
	assert.False(t, math.IsNaN(one.Candidates[0].DeltaPct))
}

// TestGateDecidedOnce: the gate is decided with the verdict, per
// candidate: a decided slowdown beyond it fails (GateFailed, on the
// candidate and the Result), an undecided estimate above it does not and
// says so (GateNote), and one below it says nothing.
func TestGateDecidedOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	decided, err := AnalyzeGroups(synthGroups(r, 10, 50, 5, 0.4), Options{Unit: "triples", Gate: 3})
	require.NoError(t, err)
	c := decided.Candidates[0]
	assert.True(t, c.GateFailed)
	assert.Empty(t, c.GateNote)
	assert.True(t, decided.GateFailed)

	wide, err := AnalyzeGroups(synthGroups(r, 10, 50, 6, 40), Options{Unit: "triples", Gate: 3})
	require.NoError(t, err)
	w := wide.Candidates[0]
	require.Equal(t, Undecided, w.Verdict, w.Reason)
	require.Greater(t, w.DeltaPct, 3.0)
	assert.False(t, w.GateFailed)
	assert.False(t, wide.GateFailed)
	assert.Contains(t, w.GateNote, "gate not applied: +")
	assert.Contains(t, w.GateNote, "above the 3% gate but undecided")

	below, err := AnalyzeGroups(synthGroups(r, 10, 50, 5, 0.4), Options{Unit: "triples", Gate: 20})
	require.NoError(t, err)
	assert.False(t, below.Candidates[0].GateFailed)
	assert.Empty(t, below.Candidates[0].GateNote)
}

// TestStoppedDecidesNothing: when measuring stopped early the rule itself
// leaves every verdict Undecided with the reason, and no gate fails, however
// clear the samples.
func TestStoppedDecidesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	res, err := AnalyzeGroups(synthGroups(r, 10, 50, 50, 0.4), Options{Unit: "triples", Gate: 3, Stopped: "the budget ran out"})
	require.NoError(t, err)
	for _, e := range append([]Estimate{res.Control}, res.Candidates...) {
		assert.Equal(t, Undecided, e.Verdict)
		assert.Equal(t, "measuring stopped: the budget ran out", e.Reason)
	}
	assert.False(t, res.GateFailed)
	assert.InDelta(t, 50, res.Candidates[0].DeltaPct, 1, "the estimate stays; only the verdict is withheld")
}
