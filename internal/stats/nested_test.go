package stats

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// genGroups makes groups of runs values about 1: each group's level
// offset by between (a normal share), each run's by within.
func genGroups(r *rand.Rand, groups, runs int, between, within float64) [][]float64 {
	out := make([][]float64, groups)
	for g := range out {
		level := 1 + between*r.NormFloat64()
		for range runs {
			out[g] = append(out[g], level+within*r.NormFloat64())
		}
	}
	return out
}

// TestNested: on synthetic groups of known components the estimates
// land near the truth: processes 6% apart and runs 2% apart, and the
// reverse; fewer than two usable groups give nothing.
func TestNested(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n, ok := NestedOf(genGroups(r, 400, 21, 0.06, 0.02))
	assert.True(t, ok)
	assert.InDelta(t, 0.06, n.Between, 0.006)
	assert.InDelta(t, 0.02, n.Within, 0.002)
	n, ok = NestedOf(genGroups(r, 400, 21, 0.002, 0.02))
	assert.True(t, ok)
	assert.Less(t, n.Between, 0.005, "processes alike: the groups' spread is the runs'")
	assert.InDelta(t, 0.02, n.Within, 0.002)
	assert.InEpsilon(t, medianVarFactor*0.02*0.02/21, n.MedianVar(21), 0.35, "normal runs: about (π/2)·σ²/r, which overstates a little at small r")
	_, ok = NestedOf([][]float64{{1, 2, 3}, {1, 2}})
	assert.False(t, ok)
}

// TestNestedHeavyTail: runs of which a quarter are slowed two- to
// eightfold (a loaded machine), processes alike. The median of a few
// such runs varies far more than the normal formula says: MedianVar
// sees it, the groups of 5 runs are not mistaken for processes that
// differ, and the allocation asks for many runs per group.
func TestNestedHeavyTail(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	run := func() float64 {
		x := 1 + 0.01*r.NormFloat64()
		if r.Float64() < 0.25 {
			x *= 2 + 6*r.Float64()
		}
		return x
	}
	var groups [][]float64
	for g := range 30 {
		size := 5
		if g < 3 {
			size = 83 // the pilot's
		}
		var grp []float64
		for range size {
			grp = append(grp, run())
		}
		groups = append(groups, grp)
	}
	n, ok := NestedOf(groups)
	assert.True(t, ok)
	normal := medianVarFactor * n.Within * n.Within / 5
	assert.Greater(t, n.MedianVar(5), 2*normal, "the median of 5 contaminated runs varies more than a normal's")
	assert.Less(t, n.Between, 0.01, "processes alike: the 5-run groups' spread is the runs'")
	ms := time.Millisecond
	assert.Greater(t, n.OptimalRuns(300*ms, 9*ms, 5, 200), 40, "many runs per group")
}

// TestOptimalRuns: the nested design's allocation: processes that differ
// more than runs want few runs per group, runs that are the noise want
// many, within the bounds.
func TestOptimalRuns(t *testing.T) {
	ms := time.Millisecond
	// fixed 300 ms (three starts), a run round 9 ms; between 6%, within 2%:
	// √(1.571·4·300/(36·9)) ≈ 2.4 → the floor.
	n := Nested{Between: 0.06, Within: 0.02}
	assert.Equal(t, 5, n.OptimalRuns(300*ms, 9*ms, 5, 200))
	// between 0.2%, within 2%: √(1.571·4·300/(0.04·9)) ≈ 72, on the grid.
	n = Nested{Between: 0.002, Within: 0.02}
	assert.InDelta(t, 72, n.OptimalRuns(300*ms, 9*ms, 5, 200), 7)
	assert.Equal(t, 200, Nested{Within: 0.02}.OptimalRuns(300*ms, 9*ms, 5, 200), "processes alike: as many runs as allowed")
	assert.Equal(t, 200, Nested{Between: 0.0001, Within: 0.5}.OptimalRuns(300*ms, 9*ms, 5, 200))
	assert.Equal(t, []int{5, 6, 7, 8}, runGrid(5, 8))
	g := runGrid(5, 200)
	assert.Equal(t, 5, g[0])
	assert.Equal(t, 200, g[len(g)-1])
	assert.Less(t, len(g), 45, "about 10% steps")
}

// TestSpendingRepeatedLooks: over many simulated A/A comparisons that
// look after every few groups and stop at the first interval that
// excludes the truth, the false-alarm rate stays within the nominal α,
// where looking as often at the fixed level would exceed it severalfold;
// a clear difference stops at an early look.
func TestSpendingRepeatedLooks(t *testing.T) {
	const alpha, sims = 0.05, 4000
	looks := []int{3, 5, 8, 12, 18, 27}
	sp := Spending{Alpha: alpha, Interim: 0.2}
	r := rand.New(rand.NewPCG(11, 12))
	falseSeq, falseNaive := 0, 0
	for range sims {
		xs := make([]float64, looks[len(looks)-1])
		for i := range xs {
			xs[i] = 1 + 0.01*r.NormFloat64()
		}
		seq, naive := false, false
		for j, n := range looks {
			level := sp.Look(j + 1)
			if j == len(looks)-1 {
				level = sp.Final()
			}
			if ci, ok := ForkInterval(xs[:n], 1-level); ok && (ci.Lo > 1 || ci.Hi < 1) {
				seq = true
			}
			if ci, ok := ForkInterval(xs[:n], 1-alpha); ok && (ci.Lo > 1 || ci.Hi < 1) {
				naive = true
			}
		}
		if seq {
			falseSeq++
		}
		if naive {
			falseNaive++
		}
	}
	rate := float64(falseSeq) / sims
	t.Logf("false alarms over %d looks: sequential %.4f (bound %.2f), fixed level at every look %.4f", len(looks), rate, alpha, float64(falseNaive)/sims)
	// The bound, with three standard errors of a binomial estimate.
	assert.LessOrEqual(t, rate, alpha+3*math.Sqrt(alpha*(1-alpha)/sims))
	assert.Greater(t, float64(falseNaive)/sims, 2*alpha, "looking at the fixed level inflates the rate: the check is not vacuous")

	// A clear difference (+20% with 1% noise) stops at the first look,
	// nearly always (three groups leave a t-interval with two degrees of
	// freedom, which an unlucky sample can still widen).
	stopped := 0
	for range 200 {
		xs := make([]float64, 3)
		for i := range xs {
			xs[i] = 1.2 + 0.01*r.NormFloat64()
		}
		if ci, ok := ForkInterval(xs, 1-sp.Look(1)); ok && ci.Lo > 1 {
			stopped++
		}
	}
	assert.GreaterOrEqual(t, stopped, 195)
}
