package stats

import (
	"math"
	"slices"
)

// MADNormal is the factor that turns a MAD into a consistent estimate of
// the standard deviation σ of normally distributed data: σ ≈ MADNormal·MAD,
// where MADNormal = 1/Φ⁻¹(3/4) ≈ 1.4826.
const MADNormal = 1.482602218505602

// MAD returns the median absolute deviation of xs from its median,
// median(|x − median(xs)|), in the units of xs. It is unscaled: multiply
// by [MADNormal] (≈1.4826) for an estimate of σ under normal noise. Medians
// are type-7 (see [Quantile]), so for even n they are midpoints.
//
// ok is false when xs is empty or holds NaN or ±Inf. One element, or
// all-equal values, give 0. The MAD of a finite sample is finite even when
// it spans ±math.MaxFloat64: single deviations may overflow, but never the
// middle ones (the two middle order statistics are at most 2·MaxFloat64
// apart, so at most half the deviations exceed MaxFloat64).
func MAD(xs []float64) (mad float64, ok bool) {
	if len(xs) == 0 || !finite(xs) {
		return 0, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := quantileSorted(s, 0.5)
	for i, x := range s {
		s[i] = math.Abs(x - m) // may be +Inf for spans beyond MaxFloat64
	}
	slices.Sort(s)
	// The middle deviations decide. They cannot be +Inf (see above); the
	// check keeps the function total should rounding ever disagree.
	n := len(s)
	a, b := s[(n-1)/2], s[n/2]
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return 0, false
	}
	return quantileSorted(s, 0.5), true
}

// Outliers is the result of [Tukey]: the quartiles, the interquartile
// range and the values outside Tukey's fences. Outliers are reported,
// never dropped: the caller decides what to show.
//
// With IQR = Q3 − Q1, a value x is
//   - a mild low outlier when Q1 − 3·IQR ≤ x < Q1 − 1.5·IQR,
//   - a severe low outlier when x < Q1 − 3·IQR,
//
// and symmetrically above Q3. A value exactly on a fence is not beyond
// it. When IQR is 0 (more than half the values equal) every value other
// than that common one is a severe outlier.
type Outliers struct {
	// Q1 and Q3 are the 0.25 and 0.75 type-7 quantiles; IQR = Q3 − Q1.
	Q1, Q3, IQR float64
	// LowMild, HighMild, LowSevere and HighSevere count the outliers in
	// each band. Mild counts exclude severe ones.
	LowMild, HighMild, LowSevere, HighSevere int
	// Indices are the positions in xs of every outlier, mild or severe,
	// in ascending order. Nil when there are none.
	Indices []int
}

// Count returns the total number of outliers, mild and severe.
func (o Outliers) Count() int { return o.LowMild + o.HighMild + o.LowSevere + o.HighSevere }

// Tukey classifies the values of xs against Tukey's fences (1.5·IQR mild,
// 3·IQR severe; see [Outliers]). ok is false, with a zero Outliers, when
// len(xs) < 4, xs holds NaN or ±Inf, or the IQR exceeds math.MaxFloat64.
func Tukey(xs []float64) (o Outliers, ok bool) {
	if len(xs) < 4 || !finite(xs) {
		return Outliers{}, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	q1, q3 := quantileSorted(s, 0.25), quantileSorted(s, 0.75)
	iqr := q3 - q1
	if !isFinite(iqr) {
		return Outliers{}, false
	}
	o = Outliers{Q1: q1, Q3: q3, IQR: iqr}
	// The fences may overflow to ±Inf for huge IQRs; a comparison against
	// an infinite fence correctly finds nothing beyond it.
	lowMild, lowSevere := q1-1.5*iqr, q1-3*iqr
	highMild, highSevere := q3+1.5*iqr, q3+3*iqr
	for i, x := range xs {
		switch {
		case x < lowSevere:
			o.LowSevere++
		case x < lowMild:
			o.LowMild++
		case x > highSevere:
			o.HighSevere++
		case x > highMild:
			o.HighMild++
		default:
			continue
		}
		o.Indices = append(o.Indices, i)
	}
	return o, true
}
