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

// isFinite reports whether x is neither NaN nor ±Inf.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// bounds returns the smallest and largest element of a non-empty xs.
func bounds(xs []float64) (lo, hi float64) {
	lo, hi = xs[0], xs[0]
	for _, x := range xs[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// clamp returns x limited to [lo, hi].
func clamp(x, lo, hi float64) float64 { return max(lo, min(hi, x)) }

// unitExponent returns the binary exponent of the largest |x| in xs
// (math.Frexp's; 0 when every x is zero), so that |x·2^−e| < 1 for every
// x: values scaled by that exact power of two cannot overflow in sums,
// squares or differences, and keep their ratios.
func unitExponent(xs []float64) int {
	maxAbs := 0.0
	for _, x := range xs {
		maxAbs = max(maxAbs, math.Abs(x))
	}
	_, e := math.Frexp(maxAbs)
	return e
}

// scaleToUnit returns a copy of xs scaled by 2^−[unitExponent](xs).
func scaleToUnit(xs []float64) []float64 {
	e := unitExponent(xs)
	z := make([]float64, len(xs))
	for k, x := range xs {
		z[k] = math.Ldexp(x, -e)
	}
	return z
}

// sortedOrder returns the indices of xs ordered by value, equal values in
// index order.
func sortedOrder(xs []float64) []int {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case xs[a] < xs[b]:
			return -1
		case xs[a] > xs[b]:
			return 1
		}
		return 0
	})
	return order
}

// relativeGap returns (hi − lo) / max(|lo|, |hi|), the distance between two
// centres relative to the larger magnitude.
func relativeGap(lo, hi float64) float64 {
	return (hi - lo) / max(math.Abs(lo), math.Abs(hi))
}

// Mean returns the arithmetic mean of xs, Σx/n. ok is false when xs is
// empty or holds NaN or ±Inf.
//
// The sum is compensated (Neumaier), so the result is within a rounding
// or two of the exact mean, cancellation included. When the sum itself
// would overflow (values near ±math.MaxFloat64) a running mean over halved
// values is used instead, so every finite sample has a finite mean; the
// result always lies within [min(xs), max(xs)].
func Mean(xs []float64) (mean float64, ok bool) {
	if len(xs) == 0 || !finite(xs) {
		return 0, false
	}
	lo, hi := bounds(xs)
	sum, c := 0.0, 0.0
	for _, x := range xs {
		t := sum + x
		if math.Abs(sum) >= math.Abs(x) {
			c += (sum - t) + x
		} else {
			c += (x - t) + sum
		}
		sum = t
	}
	if m := (sum + c) / float64(len(xs)); isFinite(sum) && isFinite(c) && isFinite(m) {
		return clamp(m, lo, hi), true
	}
	// Overflowing sum: m += (x−m)/(i+1) computed on halves, where
	// x/2 − m/2 cannot overflow and the update is a convex combination.
	m := 0.0
	for i, x := range xs {
		m += 2 * ((x/2 - m/2) / float64(i+1))
	}
	return clamp(m, lo, hi), true
}

// StdDev returns the sample standard deviation of xs,
// sqrt(Σ(x−mean)²/(n−1)), the estimator cv.awk in seed 001 uses. ok is
// false when len(xs) < 2, xs is not finite, or the result exceeds
// math.MaxFloat64 (possible only when xs spans more than the float64
// range, for example {−MaxFloat64, MaxFloat64}). All-equal values give 0.
//
// It uses the corrected two-pass algorithm with the deviations scaled by
// their largest magnitude, so neither the deviations nor their squares
// overflow or underflow.
func StdDev(xs []float64) (sd float64, ok bool) {
	if len(xs) < 2 {
		return 0, false
	}
	m, ok := Mean(xs)
	if !ok {
		return 0, false
	}
	// half is 1 normally and 0.5 when a deviation x−m overflows; the
	// deviations are then computed on halved values and doubled at the end.
	half := 1.0
	for _, x := range xs {
		if math.IsInf(x-m, 0) {
			half = 0.5
			break
		}
	}
	scale := 0.0
	for _, x := range xs {
		scale = max(scale, math.Abs(x*half-m*half))
	}
	if scale == 0 {
		return 0, true
	}
	ss, sum := 0.0, 0.0
	for _, x := range xs {
		d := (x*half - m*half) / scale
		ss += d * d
		sum += d
	}
	n := float64(len(xs))
	v := (ss - sum*sum/n) / (n - 1)
	if v < 0 {
		v = 0
	}
	sd = scale / half * math.Sqrt(v)
	if !isFinite(sd) {
		return 0, false
	}
	return sd, true
}

// CV returns the coefficient of variation of xs in percent:
// 100·StdDev(xs)/Mean(xs), with the sample (n−1) standard deviation. ok is
// false when len(xs) < 2, xs is not finite, the mean is not positive (a CV
// of times or costs around a zero or negative mean means nothing), or the
// ratio overflows (a mean that is tiny against the spread). All-equal
// positive values give 0.
func CV(xs []float64) (pct float64, ok bool) {
	m, ok := Mean(xs)
	if !ok || m <= 0 {
		return 0, false
	}
	sd, ok := StdDev(xs)
	if !ok {
		return 0, false
	}
	pct = 100 * (sd / m)
	if !isFinite(pct) {
		return 0, false
	}
	return pct, true
}

// Median returns the median of xs: the middle element of the sorted values,
// or the midpoint of the two middle ones (Quantile at p=0.5). ok is false
// when xs is empty or not finite. It equals benchmath's AssumeNothing
// Summary Center on the same values.
func Median(xs []float64) (median float64, ok bool) {
	return Quantile(xs, 0.5)
}

// LowerMedian returns the lower of the two middle values of xs for an
// even count, the middle one for an odd: always one of the values, so the
// median of whole counts is a whole count (2 and 3 give 2, never 2.5). ok
// is false when xs is empty or not finite.
func LowerMedian(xs []float64) (median float64, ok bool) {
	if len(xs) == 0 || !finite(xs) {
		return 0, false
	}
	s := slices.Sorted(slices.Values(xs))
	return s[(len(s)-1)/2], true
}

// Quantile returns the p-quantile of xs, 0 ≤ p ≤ 1, by linear
// interpolation between order statistics (Hyndman and Fan type 7, R's and
// NumPy's default): with s the sorted sample and h = (n−1)·p, it is
// s[⌊h⌋] + (h−⌊h⌋)·(s[⌊h⌋+1] − s[⌊h⌋]). p=0 gives the minimum, p=1 the
// maximum. ok is false when xs is empty or not finite, or p is outside
// [0, 1] or NaN.
//
// The result always lies between the two order statistics it
// interpolates, is non-decreasing in p, and is finite for every finite
// sample, including ones spanning ±math.MaxFloat64 (where the difference
// s[⌊h⌋+1] − s[⌊h⌋] overflows and is halved instead).
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
	n := len(s)
	h := float64(n-1) * p
	lo := int(h) // h ≥ 0, so truncation is ⌊h⌋
	if lo >= n-1 {
		return s[n-1]
	}
	frac := h - float64(lo)
	a, b := s[lo], s[lo+1]
	if frac == 0 || a == b {
		return a
	}
	var q float64
	if d := b - a; !math.IsInf(d, 0) {
		q = a + frac*d
	} else {
		// a < 0 < b: interpolate over half the difference, twice, so
		// that no intermediate leaves [a, b].
		hd := b/2 - a/2
		q = (a + frac*hd) + frac*hd
	}
	return clamp(q, a, b)
}
