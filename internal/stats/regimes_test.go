package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// shapes are unimodal (or trending) samples that are not two regimes.
var unimodalShapes = []struct {
	name string
	draw func(r *rand.Rand, i, n int) float64
}{
	{"normal CV 2%", func(r *rand.Rand, i, n int) float64 { return 100 * (1 + 0.02*r.NormFloat64()) }},
	{"normal CV 10%", func(r *rand.Rand, i, n int) float64 { return 100 * (1 + 0.10*r.NormFloat64()) }},
	{"normal CV 25%", func(r *rand.Rand, i, n int) float64 { return 100 * (1 + 0.25*r.NormFloat64()) }},
	{"lognormal σ=0.5", func(r *rand.Rand, i, n int) float64 { return 100 * math.Exp(0.5*r.NormFloat64()) }},
	{"exponential tail", func(r *rand.Rand, i, n int) float64 { return 100 + 15*r.ExpFloat64() }},
	{"uniform 100–120", func(r *rand.Rand, i, n int) float64 { return 100 + 20*r.Float64() }},
	{"two extreme outliers", func(r *rand.Rand, i, n int) float64 {
		if i == 3 || i == n-5 {
			return 1000
		}
		return 100 * (1 + 0.03*r.NormFloat64())
	}},
	{"one extreme outlier", func(r *rand.Rand, i, n int) float64 {
		if i == n/2 {
			return 5
		}
		return 100 * (1 + 0.03*r.NormFloat64())
	}},
	{"slow linear drift 100→120", func(r *rand.Rand, i, n int) float64 {
		return 100 + 20*float64(i)/float64(n-1) + r.NormFloat64()
	}},
	{"stationary AR(1) 0.7", nil}, // filled by unimodalSample()
}

// sample draws n values of shape k from a source seeded by seed.
func unimodalSample(k, n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, uint64(k)))
	xs := make([]float64, n)
	if unimodalShapes[k].draw == nil { // AR(1) noise: autocorrelated, stationary
		a := 0.0
		for i := range xs {
			a = 0.7*a + r.NormFloat64()
			xs[i] = 100 + 3*a
		}
		return xs
	}
	for i := range xs {
		xs[i] = unimodalShapes[k].draw(r, i, n)
	}
	return xs
}

// TestTwoRegimesUnimodal checks one seeded sample per shape and size: none
// is two regimes.
func TestTwoRegimesUnimodal(t *testing.T) {
	for k, s := range unimodalShapes {
		for _, n := range []int{10, 20, 50, 200} {
			xs := unimodalSample(k, n, 1)
			if r, bimodal := TwoRegimes(xs); bimodal {
				t.Errorf("%s, n=%d: bimodal, want not: D=%.2f (critical %.2f/%.2f) OrderP=%.3g low %+v high %+v",
					s.name, n, r.Separation, RegimeCriticalD(n, true), RegimeCriticalD(n, false), r.OrderP, r.Low, r.High)
			}
		}
	}
}

// TestTwoRegimesFalsePositiveRate checks the calibration: over 400 seeded
// samples per shape and size, at most 1% are called two regimes (the
// simulated design rate is about 0.1%). Autocorrelated noise is left out:
// it persists in run order like real regimes, and with few runs it cannot
// be told apart from them. Measured over 5000 samples (see
// docs/statistics.md), AR(1) noise with φ = 0.7 and 5% CV is flagged
// 0.9–1.0% of the time at n = 10–20, φ = 0.9 up to 2.8%, and a random walk
// 2% at n = 20 and 22% at n = 100.
func TestTwoRegimesFalsePositiveRate(t *testing.T) {
	checkFalsePositiveRate(t, 400, []int{12, 20, 40}, 1000, "called two regimes", func(xs []float64) bool {
		_, bimodal := TwoRegimes(xs)
		return bimodal
	})
}

// checkFalsePositiveRate fails when detect is true for more than 1% of
// reps seeded samples (seeds from seed0) of any independent shape of
// unimodalShapes at any of sizes; what says what detect calls a sample.
// Autocorrelated shapes are skipped: they persist in order like real
// regimes.
func checkFalsePositiveRate(t *testing.T, reps int, sizes []int, seed0 uint64, what string, detect func([]float64) bool) {
	t.Helper()
	for k, s := range unimodalShapes {
		if s.draw == nil {
			continue // autocorrelated
		}
		for _, n := range sizes {
			hits := 0
			for seed := range uint64(reps) {
				if detect(unimodalSample(k, n, seed0+seed)) {
					hits++
				}
			}
			if hits > reps/100 {
				t.Errorf("%s, n=%d: %d/%d samples %s; want ≤ %d", s.name, n, hits, reps, what, reps/100)
			}
		}
	}
}

// mixture returns n runs in blocks: the first third and the last third
// near hi, the middle third near lo, each with normal noise of CV cv.
func regimeBlocks(r *rand.Rand, n int, lo, hi, cv float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		c := hi
		if i >= n/3 && i < 2*n/3 {
			c = lo
		}
		xs[i] = c * (1 + cv*r.NormFloat64())
	}
	return xs
}

// TestTwoRegimesPower checks that clear regimes are found: seed-001-like
// blocks (27 vs 40 ns, 4% noise) in run order, and well-separated values
// in random order.
func TestTwoRegimesPower(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{12, 20, 50} {
		found := 0
		for range 200 {
			if _, bimodal := TwoRegimes(regimeBlocks(r, n, 27, 40, 0.04)); bimodal {
				found++
			}
		}
		if found < 180 {
			t.Errorf("blocks 27/40 ns, 4%% noise, n=%d: found %d/200; want ≥ 180", n, found)
		}
	}
	// Interleaved at random (no run-order evidence), 2% noise.
	found := 0
	for range 200 {
		xs := make([]float64, 20)
		for i := range xs {
			c := 40.0
			if r.IntN(2) == 0 {
				c = 27
			}
			xs[i] = c * (1 + 0.02*r.NormFloat64())
		}
		if _, bimodal := TwoRegimes(xs); bimodal {
			found++
		}
	}
	if found < 180 {
		t.Errorf("interleaved 27/40 ns, 2%% noise, n=20: found %d/200; want ≥ 180", found)
	}
}

func TestTwoRegimesEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		xs   []float64
	}{
		{"nil", nil},
		{"five values", []float64{1, 1, 1, 9, 9}},
		{"all equal", []float64{3, 3, 3, 3, 3, 3, 3, 3}},
		{"all zero", make([]float64, 10)},
		{"NaN", []float64{1, 2, 3, math.NaN(), 10, 11, 12}},
		{"+Inf", []float64{1, 2, 3, math.Inf(1), 10, 11, 12}},
		{"only one value differs", []float64{5, 5, 5, 5, 5, 5, 5, 9}},
		{"two close levels (1% apart)", []float64{100, 101, 100, 101, 100, 101, 100, 101, 100, 101}},
	} {
		r, bimodal := TwoRegimes(c.xs)
		if bimodal {
			t.Errorf("%s: bimodal, want not (%+v)", c.name, r)
		}
		if !isFinite(r.Separation) || !isFinite(r.Split) || !isFinite(r.OrderP) {
			t.Errorf("%s: non-finite result %+v", c.name, r)
		}
	}
	// Two exact levels 25% apart, in blocks: constant regimes, D capped.
	xs := []float64{4, 4, 4, 4, 5, 5, 5, 5, 5, 5}
	r, bimodal := TwoRegimes(xs)
	if !bimodal || r.Separation != RegimeMaxSeparation || r.Split != 4.5 {
		t.Errorf("levels 4 and 5: %+v, %v; want bimodal, D capped at %v, split 4.5", r, bimodal, RegimeMaxSeparation)
	}
	// Extreme magnitudes: the same shape at ±MaxFloat64 scale.
	big := make([]float64, len(runThatLied))
	for i, x := range runThatLied {
		big[i] = x / 44 * math.MaxFloat64
	}
	rb, bb := TwoRegimes(big)
	rs, _ := TwoRegimes(runThatLied)
	if !bb || math.Abs(rb.Separation-rs.Separation) > 1e-9*rs.Separation || !isFinite(rb.Split) {
		t.Errorf("run that lied scaled to MaxFloat64: %+v, %v; want the same D %v", rb, bb, rs.Separation)
	}
	// Negative values: the regimes of −x mirror those of x.
	neg := make([]float64, len(runThatLied))
	for i, x := range runThatLied {
		neg[i] = -x
	}
	rn, bn := TwoRegimes(neg)
	if !bn || rn.Low.Size != 12 || rn.High.Size != 8 || rn.High.Segments[0] != [2]int{8, 16} {
		t.Errorf("negated run that lied: %+v, %v; want bimodal with High = runs 9–16", rn, bn)
	}
}

func TestRunsTestP(t *testing.T) {
	// 8 low and 12 high in 3 runs (the run that lied):
	// P(R=2) = 2/C(20,8), P(R=3) = (C(11,1)+C(7,1))/C(20,8) = 18/125970.
	want := 20.0 / 125970
	if got := runsTestP(8, 12, 3); math.Abs(got-want) > 1e-12 {
		t.Errorf("runsTestP(8, 12, 3) = %v; want %v", got, want)
	}
	// The distribution sums to 1: P(R ≤ max runs) = 1.
	if got := runsTestP(8, 12, 17); math.Abs(got-1) > 1e-12 {
		t.Errorf("runsTestP(8, 12, 17) = %v; want 1", got)
	}
	// Two of each: arrangements 6, runs 2 in 2 of them (AABB, BBAA).
	if got := runsTestP(2, 2, 2); math.Abs(got-2.0/6) > 1e-12 {
		t.Errorf("runsTestP(2, 2, 2) = %v; want 1/3", got)
	}
	if got := runsTestP(500, 500, 2); got <= 0 || got > 1e-290 || !isFinite(got) {
		t.Errorf("runsTestP(500, 500, 2) = %v; want tiny and finite", got)
	}
}

func TestRegimeCriticalD(t *testing.T) {
	if got := RegimeCriticalD(5, true); got != math.MaxFloat64 {
		t.Errorf("RegimeCriticalD(5) = %v; want MaxFloat64", got)
	}
	prev := math.Inf(1)
	for n := 6; n <= 2000; n++ {
		o, u := RegimeCriticalD(n, true), RegimeCriticalD(n, false)
		if o > prev || o > u || o < math.Sqrt(12) {
			t.Fatalf("RegimeCriticalD(%d) = %v/%v: want non-increasing, ordered ≤ unordered, ≥ √12", n, o, u)
		}
		prev = o
	}
	if got := RegimeCriticalD(20, true); got != 5.19 {
		t.Errorf("RegimeCriticalD(20, true) = %v; want 5.19 (table)", got)
	}
}
