package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/perf/benchmath"
)

// aeq reports whether a and b agree to 1e-12, relative to the larger
// magnitude (absolute near zero).
func aeq12(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*max(1, math.Abs(a), math.Abs(b))
}

// lognormalSample returns n seeded lognormal values around 100 ns,
// optionally rounded to whole numbers to create ties.
func lognormalSample(seed uint64, n int, ties bool) []float64 {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 100 * math.Exp(0.1*r.NormFloat64())
		if ties {
			xs[i] = math.Round(xs[i] / 5)
		}
	}
	return xs
}

// TestMedianCIAgreesWithBenchmath checks MedianCI and Median against
// benchmath.AssumeNothing.Summary on the same samples.
func TestMedianCIAgreesWithBenchmath(t *testing.T) {
	for _, n := range []int{6, 7, 10, 20, 30, 31, 50, 200} {
		for _, conf := range []float64{0.9, 0.95, 0.99} {
			for _, ties := range []bool{false, true} {
				xs := lognormalSample(1, n, ties)
				orig := slices.Clone(xs)
				want := benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds), conf)
				c, lo, hi, ok := MedianCI(xs, conf)
				if math.IsInf(want.Lo, 0) || math.IsInf(want.Hi, 0) {
					if ok {
						t.Errorf("n=%d conf=%v: MedianCI ok, benchmath has an infinite bound %+v", n, conf, want)
					}
					continue
				}
				if !ok || !aeq12(c, want.Center) || !aeq12(lo, want.Lo) || !aeq12(hi, want.Hi) {
					t.Errorf("n=%d conf=%v ties=%v: MedianCI = %v [%v, %v] %v; benchmath %v [%v, %v]",
						n, conf, ties, c, lo, hi, ok, want.Center, want.Lo, want.Hi)
				}
				if m, ok := Median(xs); !ok || !aeq12(m, want.Center) {
					t.Errorf("n=%d: Median = %v; benchmath Center %v", n, m, want.Center)
				}
				if !slices.Equal(xs, orig) {
					t.Fatalf("n=%d: MedianCI or Median modified its input", n)
				}
			}
		}
	}
	// At 0.95, n=5 gives an infinite bound, n=6 the first finite one
	// (the whole sample: [x1, x6], confidence 0.969).
	if _, _, _, ok := MedianCI(lognormalSample(2, 5, false), 0.95); ok {
		t.Error("MedianCI(n=5, 0.95) ok; want false (benchmath: need >= 6 samples)")
	}
	xs := lognormalSample(2, 6, false)
	if _, lo, hi, ok := MedianCI(xs, 0.95); !ok || lo != slices.Min(xs) || hi != slices.Max(xs) {
		t.Errorf("MedianCI(n=6, 0.95) = [%v, %v] %v; want [min, max]", lo, hi, ok)
	}
	for _, conf := range []float64{0, 1, -0.5, 1.5, math.NaN(), math.Inf(1), math.Nextafter(0, -1), math.Nextafter(1, 2)} {
		if c, lo, hi, ok := MedianCI(xs, conf); ok || c != 0 || lo != 0 || hi != 0 {
			t.Errorf("MedianCI(xs, %v) = %v [%v, %v] %v; want zeros, false", conf, c, lo, hi, ok)
		}
	}
	// Just inside (0, 1) is accepted.
	if _, _, _, ok := MedianCI(xs, math.Nextafter(0, 1)); !ok {
		t.Error("MedianCI(xs, smallest positive confidence) ok = false; want true")
	}
}

// TestMannWhitneyPAgreesWithBenchmath checks MannWhitneyP against
// benchmath.AssumeNothing.Compare, exact and normal-approximation paths,
// with and without ties.
func TestMannWhitneyPAgreesWithBenchmath(t *testing.T) {
	for _, c := range []struct{ n1, n2 int }{{1, 1}, {3, 5}, {4, 4}, {10, 10}, {20, 25}, {50, 50}, {51, 60}, {200, 150}} {
		for _, ties := range []bool{false, true} {
			a := lognormalSample(3, c.n1, ties)
			b := lognormalSample(4, c.n2, ties)
			for i := range b {
				b[i] *= 1.02
			}
			a0, b0 := slices.Clone(a), slices.Clone(b)
			want := benchmath.AssumeNothing.Compare(
				benchmath.NewSample(slices.Clone(a), &benchmath.DefaultThresholds),
				benchmath.NewSample(slices.Clone(b), &benchmath.DefaultThresholds))
			p, ok := MannWhitneyP(a, b)
			if !ok || !aeq12(p, want.P) || p < 0 || p > 1 {
				t.Errorf("n=%d+%d ties=%v: MannWhitneyP = %v, %v; benchmath P %v", c.n1, c.n2, ties, p, ok, want.P)
			}
			if !slices.Equal(a, a0) || !slices.Equal(b, b0) {
				t.Fatalf("n=%d+%d: MannWhitneyP modified its input", c.n1, c.n2)
			}
		}
	}
}

func TestNoFunctionModifiesInput(t *testing.T) {
	xs := lognormalSample(9, 25, false)
	orig := slices.Clone(xs)
	Mean(xs)
	StdDev(xs)
	CV(xs)
	Median(xs)
	Quantile(xs, 0.3)
	MAD(xs)
	Tukey(xs)
	MedianCI(xs, 0.95)
	MannWhitneyP(xs, xs)
	TwoRegimes(xs)
	if !slices.Equal(xs, orig) {
		t.Fatal("a function modified its input")
	}
}
