package stats

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// newSample returns a benchmath.Sample over a copy of xs:
// benchmath.NewSample sorts its argument in place.
func newSample(xs []float64) *benchmath.Sample {
	return benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
}

// MedianCI returns the median of xs and a distribution-free confidence
// interval [lo, hi] for the population median at the given confidence
// (0.95 for 95%), exactly as benchstat computes its "± x%": it calls
// benchmath.AssumeNothing.Summary, whose bounds are order statistics
// chosen from the Binomial(n, ½) distribution (exact for n ≤ 30, normal
// approximation above). center is the sample median and equals [Median].
//
// ok is false, with zero results, when xs is empty or holds NaN or ±Inf,
// confidence is not strictly between 0 and 1, or the sample is too small
// for a finite interval at that confidence (benchmath then gives ±Inf:
// fewer than 6 values at 0.95).
func MedianCI(xs []float64, confidence float64) (center, lo, hi float64, ok bool) {
	if len(xs) == 0 || !finite(xs) || !(confidence > 0 && confidence < 1) {
		return 0, 0, 0, false
	}
	s := benchmath.AssumeNothing.Summary(newSample(xs), confidence)
	if !isFinite(s.Center) || !isFinite(s.Lo) || !isFinite(s.Hi) {
		return 0, 0, 0, false
	}
	return s.Center, s.Lo, s.Hi, true
}

// MannWhitneyP returns the two-sided p-value of the Mann-Whitney U test
// that a and b come from distributions with the same location, as
// benchstat computes it: it calls benchmath.AssumeNothing.Compare (exact U
// distribution for small samples, normal approximation with tie and
// continuity correction otherwise). p is in [0, 1].
//
// When every value in a and b is equal the test is undefined; like
// benchmath, MannWhitneyP then returns p = 1 (no evidence of a
// difference) with ok = true. ok is false, with p 0, when a or b is empty
// or holds NaN or ±Inf.
//
// With n values per side p cannot go below a floor: 4 per side is the
// least that can reach p < 0.05.
func MannWhitneyP(a, b []float64) (p float64, ok bool) {
	if len(a) == 0 || len(b) == 0 || !finite(a) || !finite(b) {
		return 0, false
	}
	c := benchmath.AssumeNothing.Compare(newSample(a), newSample(b))
	if math.IsNaN(c.P) {
		return 0, false
	}
	return clamp(c.P, 0, 1), true
}
