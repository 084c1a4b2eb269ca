package stats

import (
	"math"
	"slices"
)

// finite reports whether every element of xs is a finite number.
func finite(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Mean returns the arithmetic mean of xs. ok is false when xs is empty or
// holds NaN or ±Inf, or when the sum overflows.
func Mean(xs []float64) (mean float64, ok bool) {
	if len(xs) == 0 || !finite(xs) {
		return 0, false
	}
	// Welford-style running mean: no overflow from summing large values.
	m := 0.0
	for i, x := range xs {
		m += (x - m) / float64(i+1)
	}
	if math.IsNaN(m) || math.IsInf(m, 0) {
		return 0, false
	}
	return m, true
}

// StdDev returns the sample standard deviation of xs,
// sqrt(Σ(x−mean)²/(n−1)), the estimator cv.awk in seed 001 uses. ok is
// false when len(xs) < 2 or xs is not finite.
func StdDev(xs []float64) (sd float64, ok bool) {
	if len(xs) < 2 {
		return 0, false
	}
	m, ok := Mean(xs)
	if !ok {
		return 0, false
	}
	// Two-pass with scaling guards against overflow of squares.
	scale := 0.0
	for _, x := range xs {
		scale = math.Max(scale, math.Abs(x-m))
	}
	if scale == 0 {
		return 0, true
	}
	ss := 0.0
	for _, x := range xs {
		d := (x - m) / scale
		ss += d * d
	}
	sd = scale * math.Sqrt(ss/float64(len(xs)-1))
	if math.IsNaN(sd) || math.IsInf(sd, 0) {
		return 0, false
	}
	return sd, true
}

// CV returns the coefficient of variation of xs in percent:
// 100·StdDev(xs)/Mean(xs). ok is false when len(xs) < 2, xs is not
// finite, or the mean is not positive (a CV of times or costs around a zero
// or negative mean means nothing).
func CV(xs []float64) (pct float64, ok bool) {
	m, ok := Mean(xs)
	if !ok || m <= 0 {
		return 0, false
	}
	sd, ok := StdDev(xs)
	if !ok {
		return 0, false
	}
	pct = 100 * sd / m
	if math.IsNaN(pct) || math.IsInf(pct, 0) {
		return 0, false
	}
	return pct, true
}

// Median returns the median of xs: the middle element of the sorted values,
// or the mean of the two middle ones. ok is false when xs is empty or not
// finite.
func Median(xs []float64) (median float64, ok bool) {
	return Quantile(xs, 0.5)
}

// Quantile returns the p-quantile of xs, 0 ≤ p ≤ 1, by linear
// interpolation between order statistics (Hyndman and Fan type 7, R's and
// NumPy's default): with s the sorted sample and h = (n−1)·p, it is
// s[⌊h⌋] + (h−⌊h⌋)·(s[⌊h⌋+1] − s[⌊h⌋]). ok is false when xs is empty or
// not finite, or p is outside [0, 1] or NaN.
func Quantile(xs []float64, p float64) (q float64, ok bool) {
	if len(xs) == 0 || !finite(xs) || !(p >= 0 && p <= 1) {
		return 0, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return quantileSorted(s, p), true
}

// quantileSorted is Quantile on an already sorted, finite, non-empty s.
func quantileSorted(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	frac := h - float64(lo)
	return s[lo] + frac*(s[lo+1]-s[lo])
}
