package stats

import (
	"math"
	"math/rand/v2"
	"slices"

	"golang.org/x/perf/benchmath"
)

// PairedInterval is a point estimate of the median of a sample of paired
// ratios with a confidence interval around it. Center, Lo and Hi are in
// the units of the sample (for per-round time ratios, a ratio: 1.05 is 5%
// slower than the baseline); Lo ≤ Center ≤ Hi.
type PairedInterval struct {
	Center, Lo, Hi float64
	// Confidence is the interval's actual coverage (sign test: the exact
	// binomial mass, at least the requested level; bootstrap: the
	// requested level).
	Confidence float64
	// N is the number of ratios.
	N int
}

// PairedRatios returns xs[i]/base[i] for every i: the per-round ratio of an
// implementation's time to the baseline's time measured in the same round.
// ok is false when the slices are empty, differ in length, or hold a value
// that is not finite and strictly positive (a zero or negative time is a
// broken clock, not a measurement), or a ratio overflows.
func PairedRatios(base, xs []float64) (ratios []float64, ok bool) {
	if len(base) == 0 || len(base) != len(xs) {
		return nil, false
	}
	ratios = make([]float64, len(xs))
	for i := range xs {
		b, x := base[i], xs[i]
		if !(b > 0) || !(x > 0) || !isFinite(b) || !isFinite(x) {
			return nil, false
		}
		r := x / b
		if !(r > 0) || !isFinite(r) {
			return nil, false
		}
		ratios[i] = r
	}
	return ratios, true
}

// PairedConfidence returns the per-interval confidence level that keeps the
// family-wise level at confidence when m intervals are reported together
// (Bonferroni): 1 − (1 − confidence)/m. With m = 1 it returns confidence.
// ok is false unless 0 < confidence < 1 and m ≥ 1.
func PairedConfidence(confidence float64, m int) (level float64, ok bool) {
	if !(confidence > 0 && confidence < 1) || m < 1 {
		return 0, false
	}
	return 1 - (1-confidence)/float64(m), true
}

// PairedSignMinN returns the smallest sample size for which the sign-test
// interval of the median at the given confidence is finite: the least n
// with 2·0.5ⁿ ≤ 1 − confidence (6 at 0.95, 7 at 0.975, 8 at 0.99). ok is
// false unless 0 < confidence < 1.
func PairedSignMinN(confidence float64) (n int, ok bool) {
	if !(confidence > 0 && confidence < 1) {
		return 0, false
	}
	n = int(math.Ceil(math.Log2(2 / (1 - confidence))))
	return max(n, 1), true
}

// PairedSignCI returns the median of xs with the distribution-free
// confidence interval of the sign test: the order statistics [x₍ₗ₎, x₍ᵣ₎]
// chosen from Binomial(n, ½), the number of ratios below the population
// median, so that P(x₍ₗ₎ ≤ median ≤ x₍ᵣ₎) ≥ confidence. It is computed by
// benchmath's AssumeNothing summary, so it is exactly the interval
// benchstat prints as ± for a median (exact binomial for n ≤ 30, normal
// approximation with continuity correction above; ties between modes are
// broken to the left, so an interval can be one order statistic
// asymmetric).
//
// ok is false when xs is not finite, confidence is not in (0, 1), or xs
// is too short for a finite interval (see [PairedSignMinN]). xs is not
// modified.
func PairedSignCI(xs []float64, confidence float64) (ci PairedInterval, ok bool) {
	if len(xs) == 0 || !finite(xs) || !(confidence > 0 && confidence < 1) {
		return PairedInterval{}, false
	}
	s := benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, confidence)
	if !isFinite(sum.Lo) || !isFinite(sum.Hi) || !isFinite(sum.Center) || !isFinite(sum.Confidence) {
		return PairedInterval{}, false
	}
	return PairedInterval{
		Center:     sum.Center,
		Lo:         min(sum.Lo, sum.Center),
		Hi:         max(sum.Hi, sum.Center),
		Confidence: sum.Confidence,
		N:          len(xs),
	}, true
}

// PairedBootstrapCI returns the median of xs with a percentile-bootstrap
// confidence interval: it draws resamples samples of len(xs) values with
// replacement from a PCG generator seeded with seed, takes the median of
// each, and returns the (1−confidence)/2 and (1+confidence)/2 quantiles
// (type 7) of those medians. The same inputs and seed give the same
// interval. It is the alternative to [PairedSignCI], not the default;
// docs/statistics.md says why (its measured coverage on skewed data).
//
// ok is false when len(xs) < 2, xs is not finite, confidence is not in
// (0, 1), or resamples < 100. xs is not modified.
func PairedBootstrapCI(xs []float64, confidence float64, resamples int, seed uint64) (ci PairedInterval, ok bool) {
	if len(xs) < 2 || !finite(xs) || !(confidence > 0 && confidence < 1) || resamples < 100 {
		return PairedInterval{}, false
	}
	center, _ := Median(xs)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	n := len(xs)
	buf := make([]float64, n)
	meds := make([]float64, resamples)
	for i := range meds {
		for j := range buf {
			buf[j] = xs[rng.IntN(n)]
		}
		slices.Sort(buf)
		meds[i] = quantileSorted(buf, 0.5)
	}
	slices.Sort(meds)
	lo := quantileSorted(meds, (1-confidence)/2)
	hi := quantileSorted(meds, (1+confidence)/2)
	return PairedInterval{
		Center:     center,
		Lo:         min(lo, center),
		Hi:         max(hi, center),
		Confidence: confidence,
		N:          n,
	}, true
}
