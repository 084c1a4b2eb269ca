package stats

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestComponents: on synthetic groups of known components the estimates
// land near the truth: processes 6% apart and runs 2% apart, and the
// reverse; fewer than two usable groups give nothing.
func TestComponents(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	gen := func(groups, runs int, between, within float64) [][]float64 {
		out := make([][]float64, groups)
		for g := range out {
			level := 1 + between*r.NormFloat64()
			for range runs {
				out[g] = append(out[g], level+within*r.NormFloat64())
			}
		}
		return out
	}
	b, w, ok := Components(gen(400, 21, 0.06, 0.02))
	assert.True(t, ok)
	assert.InDelta(t, 0.06, b, 0.006)
	assert.InDelta(t, 0.02, w, 0.002)
	b, w, ok = Components(gen(400, 21, 0.002, 0.02))
	assert.True(t, ok)
	assert.Less(t, b, 0.005, "processes alike: the groups' spread is the runs'")
	assert.InDelta(t, 0.02, w, 0.002)
	_, _, ok = Components([][]float64{{1, 2, 3}, {1, 2}})
	assert.False(t, ok)
}

// TestOptimalRuns: the nested design's allocation: processes that differ
// more than runs want few runs per group, runs that are the noise want
// many, within the bounds.
func TestOptimalRuns(t *testing.T) {
	ms := time.Millisecond
	// fixed 300 ms (three starts), a run round 9 ms; between 6%, within 2%:
	// √(1.571·4·300/(36·9)) ≈ 2.4 → the floor.
	assert.Equal(t, 5, OptimalRuns(0.06, 0.02, 300*ms, 9*ms, 5, 200))
	// between 0.2%, within 2%: √(1.571·4·300/(0.04·9)) ≈ 72.
	assert.Equal(t, 72, OptimalRuns(0.002, 0.02, 300*ms, 9*ms, 5, 200))
	assert.Equal(t, 200, OptimalRuns(0, 0.02, 300*ms, 9*ms, 5, 200), "processes alike: as many runs as allowed")
	assert.Equal(t, 200, OptimalRuns(0.0001, 0.5, 300*ms, 9*ms, 5, 200))
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
