package control

import (
	"github.com/benchkit/go-benchkit/control/verdict"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// synthFork returns one fork's samples: base, control and one candidate
// "new" whose time is the baseline's × (1 + shift) per round, with 0.1%
// noise per batch.
func synthFork(rng *rand.Rand, rounds int, ctlShift, shift float64) []verdict.Sample {
	s := []verdict.Sample{{Name: "base"}, {Name: ControlName}, {Name: "new"}}
	for range rounds {
		b := 100 * (1 + 0.001*rng.NormFloat64())
		s[0].NsPerOp = append(s[0].NsPerOp, b)
		s[1].NsPerOp = append(s[1].NsPerOp, b*(1+ctlShift)*(1+0.001*rng.NormFloat64()))
		s[2].NsPerOp = append(s[2].NsPerOp, b*(1+shift)*(1+0.001*rng.NormFloat64()))
	}
	return s
}

func TestAnalyzeForksWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// The same +3% in every fork: the interval stays narrow, the verdict
	// is slower.
	var agree, disagree [][]verdict.Sample
	for range 5 {
		agree = append(agree, synthFork(rng, 200, 0, 0.03))
	}
	// Forks that disagree (+1% … +5%, mean +3%): the interval widens to
	// take in the spread between processes.
	for _, sh := range []float64{0.01, 0.05, 0.02, 0.04, 0.03} {
		disagree = append(disagree, synthFork(rng, 200, 0, sh))
	}
	a, err := analyzeForks(agree, buildConfig(nil))
	require.NoError(t, err)
	d, err := analyzeForks(disagree, buildConfig(nil))
	require.NoError(t, err)
	assert.Equal(t, 5, a.Forks)
	assert.Equal(t, 1000, a.Rounds)
	ea, ed := a.Candidates[0], d.Candidates[0]
	assert.InDelta(t, 3, ea.DeltaPct, 0.05)
	assert.InDelta(t, 3, ed.DeltaPct, 0.05)
	assert.Len(t, ed.ForkDeltaPct, 5)
	assert.InDelta(t, 1, ed.ForkDeltaPct[0], 0.05, "each fork's own delta, in order")
	assert.Less(t, ea.HiPct-ea.LoPct, 0.1, "agreeing forks: narrow")
	assert.Greater(t, ed.HiPct-ed.LoPct, 2.0, "disagreeing forks: wide enough to hold their spread")
	assert.Equal(t, verdict.Slower, ea.Verdict)
	assert.Equal(t, verdict.Same, a.Control.Verdict)
	// A within-process analysis of the same rounds pooled would be narrow
	// either way: that is what the forks are for.
	pooled := []verdict.Sample{{Name: "base"}, {Name: ControlName}, {Name: "new"}}
	for _, f := range disagree {
		for i := range pooled {
			pooled[i].NsPerOp = append(pooled[i].NsPerOp, f[i].NsPerOp...)
		}
	}
	p, err := Analyze(pooled[0], pooled[1], pooled[2:])
	require.NoError(t, err)
	assert.Less(t, p.Candidates[0].HiPct-p.Candidates[0].LoPct, ed.HiPct-ed.LoPct)
	assert.Equal(t, 1, p.Forks)
}

func TestAnalyzeForksUndecided(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	one, err := analyzeForks([][]verdict.Sample{synthFork(rng, 100, 0, 0.05)}, buildConfig(nil))
	require.NoError(t, err)
	assert.Equal(t, verdict.Undecided, one.Candidates[0].Verdict)
	assert.Contains(t, one.Candidates[0].Reason, "only 1 fork: an interval across processes needs at least 2")

	empty := synthFork(rng, 0, 0, 0)
	r, err := analyzeForks([][]verdict.Sample{synthFork(rng, 100, 0, 0.05), empty}, buildConfig(nil))
	require.NoError(t, err)
	assert.Equal(t, verdict.Undecided, r.Candidates[0].Verdict)
	assert.Contains(t, r.Candidates[0].Reason, "fork 2 of 2 measured no round")

	// The control 2% off zero in every fork: +3% is not beyond it by 2%
	// again, and is not decided.
	var off [][]verdict.Sample
	for range 4 {
		off = append(off, synthFork(rng, 100, 0.02, 0.03))
	}
	r, err = analyzeForks(off, buildConfig(nil))
	require.NoError(t, err)
	assert.Equal(t, verdict.Undecided, r.Control.Verdict)
	assert.Equal(t, verdict.Undecided, r.Candidates[0].Verdict)
	assert.Contains(t, r.Candidates[0].Reason, "cannot decide: the control")
}

func TestAnalyzeForksBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	_, err := analyzeForks(nil, buildConfig(nil))
	assert.ErrorContains(t, err, "no forks")
	other := synthFork(rng, 10, 0, 0)
	other[2].Name = "other"
	_, err = analyzeForks([][]verdict.Sample{synthFork(rng, 10, 0, 0), other}, buildConfig(nil))
	assert.ErrorContains(t, err, "every fork must measure the same ones")
	short := synthFork(rng, 10, 0, 0)
	short[2].NsPerOp = short[2].NsPerOp[:3]
	_, err = analyzeForks([][]verdict.Sample{short}, buildConfig(nil))
	assert.ErrorContains(t, err, "control: fork 0: sample \"new\" has 3 rounds")
}

func TestCombineWarnings(t *testing.T) {
	frs := []forkResult{
		{Names: []string{"a"}, Warnings: []string{"the slowest batch took 660µs: lowered from 991 to 750", "x"}},
		{Names: []string{"a"}, Warnings: []string{"the slowest batch took 2.265ms: lowered from 1868 to 412"}},
		{Names: []string{"a"}},
	}
	ms := combine(frs)
	assert.Equal(t, []string{
		"the slowest batch took 660µs: lowered from 991 to 750 (in 2 of 3 forks)",
		"x (in 1 of 3 forks)",
	}, ms.warnings)
}

func TestAnalyzeForksWideReason(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var forks [][]verdict.Sample
	for _, sh := range []float64{-0.02, 0.015, -0.01, 0.02, 0.005} {
		forks = append(forks, synthFork(rng, 100, 0, sh))
	}
	r, err := analyzeForks(forks, buildConfig(nil))
	require.NoError(t, err)
	e := r.Candidates[0]
	assert.Equal(t, verdict.Undecided, e.Verdict)
	assert.Contains(t, e.Reason, "the 5 forks disagree by more than that")
	assert.Contains(t, e.Reason, "more forks (-benchkit.forks) narrow it")
}
