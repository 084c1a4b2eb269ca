package control

import (
	"github.com/benchkit/go-benchkit/control/verdict"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// synth returns n per-round times of an implementation costing cost ns,
// where every round's time is multiplied by the round's machine speed
// (shared by all implementations in that round, as on a real machine) and
// by the implementation's own noise of relative size noise.
type synthRun struct {
	speed []float64
	rng   *rand.Rand
}

func newSynth(n int, seed uint64) *synthRun {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := &synthRun{rng: rng}
	for range n {
		s.speed = append(s.speed, 1+0.5*rng.Float64()) // the machine drifts by up to 50% between rounds
	}
	return s
}

func (s *synthRun) sample(name string, cost, noise float64) verdict.Sample {
	out := verdict.Sample{Name: name}
	for _, sp := range s.speed {
		out.NsPerOp = append(out.NsPerOp, cost*sp*(1+noise*(2*s.rng.Float64()-1)))
	}
	return out
}

func TestAnalyzeVerdicts(t *testing.T) {
	tests := []struct {
		name        string
		ctlCost     float64
		candCost    float64
		candNoise   float64
		want        verdict.Verdict
		wantCtl     verdict.Verdict
		reasonParts []string
		tol         float64
		reason      string
	}{
		{"slower", 100, 105, 0.01, verdict.Slower, verdict.Same, []string{"excludes 0", "above the control's"}, 0.5, "+5% with 1% noise is decided"},
		{"faster", 100, 95, 0.01, verdict.Faster, verdict.Same, []string{"below the control's"}, 0.5, "-5% with 1% noise is decided"},
		{"same", 100, 100, 0.01, verdict.Same, verdict.Same, []string{"within ±1%"}, 0.5, "no difference, tight interval"},
		{"too wide", 100, 100, 0.40, verdict.Undecided, verdict.Same, []string{"contains 0", "too wide"}, 10, "40% noise cannot resolve 1%"},
		{"control off", 103, 105, 0.01, verdict.Undecided, verdict.Undecided, []string{"cannot decide", "the control (a copy of base) came out +2.9", "off zero"}, 0.5, "a control 3% off zero leaves +5% undecided: not beyond it by its offset again"},
		{"control off, far beyond", 103, 110, 0.01, verdict.Slower, verdict.Undecided, []string{"came out +2.9", "off zero, and the interval lies above it by more than that offset again"}, 0.5, "+10% lies beyond a control 3% off by more than 3% again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSynth(200, 7)
			base := s.sample("base", 100, 0.01)
			ctl := s.sample("control", tt.ctlCost, 0.01)
			cand := s.sample("cand", tt.candCost, tt.candNoise)
			res, err := Analyze(base, ctl, []verdict.Sample{cand})
			require.NoError(t, err)
			require.Len(t, res.Candidates, 1)
			e := res.Candidates[0]
			assert.Equal(t, tt.want, e.Verdict, "%s: %+v", tt.reason, e)
			assert.Equal(t, tt.wantCtl, res.Control.Verdict, tt.reason)
			for _, p := range tt.reasonParts {
				assert.Contains(t, e.Reason, p, tt.reason)
			}
			assert.LessOrEqual(t, e.LoPct, e.DeltaPct)
			assert.LessOrEqual(t, e.DeltaPct, e.HiPct)
			assert.InDelta(t, 100*(tt.candCost/100-1), e.DeltaPct, tt.tol, "the estimate tracks the synthetic truth")
			assert.Equal(t, 200, res.Rounds)
			assert.InDelta(t, 0.975, res.Confidence, 1e-12, "one candidate + control: Bonferroni over 2")
		})
	}
}

// TestAnalyzeOverlapsControl: a candidate whose interval excludes 0 but
// reaches into the control's interval is undecided, not slower.
func TestAnalyzeOverlapsControl(t *testing.T) {
	n := 40
	base, ctl, cand := verdict.Sample{Name: "base"}, verdict.Sample{Name: "control"}, verdict.Sample{Name: "cand"}
	for i := range n {
		base.NsPerOp = append(base.NsPerOp, 100)
		// control ratios spread over [0.99, 1.01): median 1.0, interval
		// about ±0.4%.
		ctl.NsPerOp = append(ctl.NsPerOp, 100*(0.99+0.02*float64(i)/float64(n)))
		// candidate ratios 1.001 + 0.05·u³, u over [0, 1): most mass
		// just above 1, so the interval excludes 0 but starts inside
		// the control's interval and ends beyond +1%.
		u := float64((i*7)%n) / float64(n)
		cand.NsPerOp = append(cand.NsPerOp, 100*(1.001+0.05*u*u*u))
	}
	res, err := Analyze(base, ctl, []verdict.Sample{cand})
	require.NoError(t, err)
	e := res.Candidates[0]
	require.Greater(t, e.LoPct, 0.0, "precondition: excludes 0")
	require.Less(t, e.LoPct, res.Control.HiPct, "precondition: overlaps the control")
	require.Greater(t, e.HiPct, res.Negligible, "precondition: not within ±ε")
	assert.Equal(t, verdict.Undecided, e.Verdict)
	assert.Contains(t, e.Reason, "overlaps the control's")
}

// TestAnalyzeBonferroni: the same candidate sample is Slower when it is
// the only candidate and Undecided when two more candidates widen every
// interval, and the reported confidence follows 1 − 0.05/m.
func TestAnalyzeBonferroni(t *testing.T) {
	lvl2, _ := stats.PairedConfidence(0.95, 2)
	lvl4, _ := stats.PairedConfidence(0.95, 4)
	// Find a round count where the two levels pick different order
	// statistics for the lower bound.
	var n, l2, l4 int
	for n = 20; n < 100; n++ {
		ranks := make([]float64, n)
		for i := range ranks {
			ranks[i] = float64(i + 1)
		}
		ci2, _ := stats.PairedSignCI(ranks, lvl2)
		ci4, _ := stats.PairedSignCI(ranks, lvl4)
		if l2, l4 = int(ci2.Lo), int(ci4.Lo); l4 < l2 {
			break
		}
	}
	require.Less(t, l4, l2, "precondition: the corrected interval starts at a lower order statistic")
	// Ratios: the lowest l4 rounds are 0.98 (below zero), the rest 1.05+.
	base, ctl, cand := verdict.Sample{Name: "base"}, verdict.Sample{Name: "control"}, verdict.Sample{Name: "cand"}
	for i := range n {
		base.NsPerOp = append(base.NsPerOp, 100)
		ctl.NsPerOp = append(ctl.NsPerOp, 100*(1+0.001*float64(i%3-1)))
		r := 1.05 + 0.001*float64(i)
		if i < l4 {
			r = 0.98
		}
		cand.NsPerOp = append(cand.NsPerOp, 100*r)
	}
	other := verdict.Sample{Name: "other", NsPerOp: base.NsPerOp}
	other2 := verdict.Sample{Name: "other2", NsPerOp: base.NsPerOp}

	one, err := Analyze(base, ctl, []verdict.Sample{cand})
	require.NoError(t, err)
	three, err := Analyze(base, ctl, []verdict.Sample{cand, other, other2})
	require.NoError(t, err)
	assert.InDelta(t, lvl2, one.Confidence, 1e-12)
	assert.InDelta(t, lvl4, three.Confidence, 1e-12)
	assert.Equal(t, verdict.Slower, one.Candidates[0].Verdict, "%+v", one.Candidates[0])
	assert.Equal(t, verdict.Undecided, three.Candidates[0].Verdict, "%+v", three.Candidates[0])
	assert.Equal(t, verdict.Same, three.Candidates[1].Verdict)
}

func TestAnalyzeTooFewRounds(t *testing.T) {
	s := newSynth(5, 1)
	res, err := Analyze(s.sample("base", 100, 0), s.sample("control", 100, 0), []verdict.Sample{s.sample("cand", 200, 0)})
	require.NoError(t, err)
	assert.Equal(t, verdict.Undecided, res.Candidates[0].Verdict)
	assert.Contains(t, res.Candidates[0].Reason, "only 5 rounds")
	assert.Contains(t, res.Candidates[0].Reason, "at least 7")
	assert.InDelta(t, 100, res.Candidates[0].DeltaPct, 1e-9, "the point estimate is still reported")
	assert.Equal(t, verdict.Undecided, res.Control.Verdict)

	res, err = Analyze(verdict.Sample{Name: "base"}, verdict.Sample{Name: "control"}, nil)
	require.NoError(t, err, "zero rounds is a result, not an error")
	assert.Equal(t, verdict.Undecided, res.Control.Verdict)
}

func TestAnalyzeGate(t *testing.T) {
	s := newSynth(100, 3)
	base, ctl := s.sample("base", 100, 0.005), s.sample("control", 100, 0.005)
	slow := s.sample("slow", 110, 0.005)
	res, err := Analyze(base, ctl, []verdict.Sample{slow}, Gate(5))
	require.NoError(t, err)
	assert.Equal(t, verdict.Slower, res.Candidates[0].Verdict)
	assert.True(t, res.GateFailed, "+10% decided beyond a 5% gate")

	res, err = Analyze(base, ctl, []verdict.Sample{slow}, Gate(15))
	require.NoError(t, err)
	assert.False(t, res.GateFailed, "+10% within a 15% gate")

	// Undecided (control off, the candidate not beyond it by its offset
	// again) never fails the gate, though beyond it.
	res, err = Analyze(base, s.sample("control", 105, 0.005), []verdict.Sample{s.sample("slow", 108, 0.005)}, Gate(5))
	require.NoError(t, err)
	assert.Equal(t, verdict.Undecided, res.Candidates[0].Verdict)
	assert.False(t, res.GateFailed)
}

func TestAnalyzeBootstrap(t *testing.T) {
	s := newSynth(100, 5)
	base, ctl, cand := s.sample("base", 100, 0.01), s.sample("control", 100, 0.01), s.sample("cand", 105, 0.01)
	a, err := Analyze(base, ctl, []verdict.Sample{cand}, Bootstrap(500), Seed(9))
	require.NoError(t, err)
	b, err := Analyze(base, ctl, []verdict.Sample{cand}, Bootstrap(500), Seed(9))
	require.NoError(t, err)
	assert.Equal(t, a, b, "deterministic for a seed")
	assert.Equal(t, verdict.Slower, a.Candidates[0].Verdict)
	sign, err := Analyze(base, ctl, []verdict.Sample{cand})
	require.NoError(t, err)
	assert.Equal(t, sign.Candidates[0].DeltaPct, a.Candidates[0].DeltaPct, "same point estimate")
	assert.NotEqual(t, sign.Candidates[0].LoPct, a.Candidates[0].LoPct, "a different interval")
}

func TestAnalyzeErrors(t *testing.T) {
	ok := verdict.Sample{Name: "base", NsPerOp: []float64{1, 2, 3}}
	tests := []struct {
		name       string
		base, ctl  verdict.Sample
		cands      []verdict.Sample
		opts       []Option
		wantSubstr string
	}{
		{"length", ok, verdict.Sample{Name: "control", NsPerOp: []float64{1, 2}}, nil, nil, "has 2 rounds, the baseline 3"},
		{"zero time", ok, verdict.Sample{Name: "control", NsPerOp: []float64{1, 0, 3}}, nil, nil, "round 1 has time 0"},
		{"NaN", ok, verdict.Sample{Name: "control", NsPerOp: []float64{1, math.NaN(), 3}}, nil, nil, "finite and > 0"},
		{"duplicate", ok, verdict.Sample{Name: "base", NsPerOp: []float64{1, 2, 3}}, nil, nil, "two samples are named \"base\""},
		{"empty name", ok, verdict.Sample{NsPerOp: []float64{1, 2, 3}}, nil, nil, "empty name"},
		{"candidate named control", ok, verdict.Sample{Name: "ctl", NsPerOp: []float64{1, 2, 3}}, []verdict.Sample{{Name: "control", NsPerOp: []float64{1, 2, 3}}}, nil,
			`control: candidate 1 has the invalid name "control": the name "control" is reserved for the automatic copy of the baseline: rename the implementation`},
		{"baseline named control", verdict.Sample{Name: "control", NsPerOp: []float64{1, 2, 3}}, verdict.Sample{Name: "ctl", NsPerOp: []float64{1, 2, 3}}, nil, nil,
			`control: the baseline has the invalid name "control": the name "control" is reserved`},
		{"bad gate", ok, verdict.Sample{Name: "control", NsPerOp: []float64{1, 2, 3}}, nil, []Option{Gate(-1)}, "Gate(-1)"},
		{"bad confidence", ok, verdict.Sample{Name: "control", NsPerOp: []float64{1, 2, 3}}, nil, []Option{Confidence(1)}, "Confidence(1)"},
		{"bad negligible", ok, verdict.Sample{Name: "control", NsPerOp: []float64{1, 2, 3}}, nil, []Option{Negligible(math.Inf(1))}, "Negligible(+Inf)"},
		{"bad bootstrap", ok, verdict.Sample{Name: "control", NsPerOp: []float64{1, 2, 3}}, nil, []Option{Bootstrap(3)}, "Bootstrap(3)"},
		{"bad batch", ok, verdict.Sample{Name: "control", NsPerOp: []float64{1, 2, 3}}, nil, []Option{BatchTime(1)}, "BatchTime(1ns)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Analyze(tt.base, tt.ctl, tt.cands, tt.opts...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantSubstr)
			assert.True(t, strings.HasPrefix(err.Error(), "control: "), err.Error())
		})
	}
}

// TestAnalyzeExtremeTimes: finite times whose ratio would overflow a
// percentage (1 ns against 1e308 ns) or underflow to 0 (1e-200 against
// 1e200, where −100% is right) are rejected with a message; extreme times
// whose ratios stay within 1e±100 give finite results. Nothing in a
// Result is ever NaN or ±Inf, within one process or over forks.
func TestAnalyzeExtremeTimes(t *testing.T) {
	const n = 10
	rep := func(name string, v float64) verdict.Sample {
		s := verdict.Sample{Name: name}
		for range n {
			s.NsPerOp = append(s.NsPerOp, v)
		}
		return s
	}
	tests := []struct {
		name            string
		base, ctl, cand float64
		want            string  // error substring; "" = accepted
		wantDelta       float64 // the candidate's delta when accepted
	}{
		{"1 against 1e308", 1, 1, 1e308, `sample "cand" round 0 is 1e+308 times the baseline's time (1e+308 ns against 1 ns)`, 0},
		{"1e308 against 1", 1e308, 1e308, 1, `sample "cand" round 0 is 1e-308 times the baseline's time (1 ns against 1e+308 ns)`, 0},
		{"1e-200 against 1e200", 1e200, 1e200, 1e-200, `sample "cand" round 0 is 1e-400 times`, 0},
		{"1e200 against 1e-200", 1e-200, 1e-200, 1e200, `sample "cand" round 0 is 1e+400 times`, 0},
		{"control off the scale", 1, 1e101, 1, `sample "control" round 0 is 1e+101 times`, 0},
		{"1e100 times", 1, 1, 1e100, "", 1e102},
		{"1e-100 times", 1e100, 1e100, 1, "", -100},
		{"near MaxFloat64", math.MaxFloat64, math.MaxFloat64, math.MaxFloat64 / 2, "", -50},
		{"smallest times", math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64, 2 * math.SmallestNonzeroFloat64, "", 100},
	}
	finite := func(t *testing.T, res verdict.Result) {
		t.Helper()
		vals := []float64{res.BaselineNsPerOp, res.Confidence}
		for _, e := range append([]verdict.Estimate{res.Control}, res.Candidates...) {
			vals = append(vals, e.NsPerOp, e.DeltaPct, e.LoPct, e.HiPct, ratioPct(e))
			vals = append(vals, e.ForkDeltaPct...)
		}
		for i, v := range vals {
			assert.False(t, math.IsNaN(v) || math.IsInf(v, 0), "value %d is %v: %+v", i, v, res)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, ctl, cand := rep("base", tt.base), rep("control", tt.ctl), rep("cand", tt.cand)
			res, err := Analyze(base, ctl, []verdict.Sample{cand})
			fres, ferr := analyzeForks([][]verdict.Sample{{base, ctl, cand}, {base, ctl, cand}}, buildConfig(nil))
			if tt.want != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
				assert.Contains(t, err.Error(), "check the units")
				require.Error(t, ferr)
				assert.Contains(t, ferr.Error(), tt.want)
				return
			}
			require.NoError(t, err)
			require.NoError(t, ferr)
			finite(t, res)
			finite(t, fres)
			assert.InEpsilon(t, tt.wantDelta, res.Candidates[0].DeltaPct, 1e-9)
			assert.InEpsilon(t, tt.wantDelta, fres.Candidates[0].DeltaPct, 1e-9)
		})
	}
}

func TestLines(t *testing.T) {
	res := verdict.Result{Baseline: "old", BaselineNsPerOp: 412.3, Rounds: 712, BatchIters: 120, OverheadNsPerOp: 1.8, Confidence: 0.975, Seed: 1,
		Control:    verdict.Estimate{Name: "control", DeltaPct: 0.02, LoPct: -0.21, HiPct: 0.25, Verdict: verdict.Same, Reason: "noise floor"},
		Candidates: []verdict.Estimate{{Name: "new", DeltaPct: 4.93, LoPct: 4.61, HiPct: 5.2, Verdict: verdict.Slower, Reason: "r"}},
		Warnings:   []string{"w"}}
	got := lines(res)
	require.Len(t, got, 4)
	assert.Equal(t, "control: old 412.3 ns/op; 712 rounds × 120 calls within one process; closure 1.8 ns/op; 97.5% intervals (Bonferroni over 2); seed 1", got[0])
	assert.Equal(t, "control: control   +0.02% [-0.21%, +0.25%] same: noise floor", got[1])
	assert.Equal(t, "control: new       +4.93% [+4.61%, +5.20%] slower: r", got[2])
	assert.Equal(t, "control: warning: w", got[3])
}

// TestAnalyzeAA: a comparison with only a baseline is an A/A run: one
// interval (the control's) at the uncorrected level.
func TestAnalyzeAA(t *testing.T) {
	s := newSynth(50, 11)
	res, err := Analyze(s.sample("base", 100, 0.01), s.sample("control", 100, 0.01), nil)
	require.NoError(t, err)
	assert.Empty(t, res.Candidates)
	assert.InDelta(t, 0.95, res.Confidence, 1e-12)
	assert.Equal(t, verdict.Same, res.Control.Verdict)
	assert.Contains(t, res.Control.Reason, "noise floor")
	assert.Less(t, res.Control.LoPct, 0.0)
	assert.Greater(t, res.Control.HiPct, 0.0)
}
