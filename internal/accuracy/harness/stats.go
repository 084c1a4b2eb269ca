package harness

import (
	"math"
	"slices"
	"time"
)

// Quantile returns the p-quantile (0 ≤ p ≤ 1) of xs, type 7: linear
// interpolation between order statistics; p = 0.5 is the median, 0 the
// minimum, 1 the maximum. xs need not be sorted and is not modified. It
// returns 0 for no xs.
func Quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	h := float64(len(s)-1) * p
	i := int(h)
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}

// MedianOrNaN is the median of xs (Quantile at 0.5), or NaN for no xs:
// for a table cell that must read "none" rather than 0.
func MedianOrNaN(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return Quantile(xs, 0.5)
}

// MedianDuration returns the median of ds (type 7, truncated to whole
// nanoseconds), or 0 for no ds.
func MedianDuration(ds []time.Duration) time.Duration {
	s := make([]float64, len(ds))
	for i, d := range ds {
		s[i] = float64(d)
	}
	return time.Duration(Quantile(s, 0.5))
}

// Tally counts n verdicts on one candidate whose true difference is known
// to be zero or positive (it does the same work as the baseline, or more).
type Tally struct {
	N         int // verdicts counted
	Flagged   int // zero truth: faster or slower; positive truth: slower (caught)
	Wrong     int // positive truth: faster (the wrong sign); always 0 for zero truth
	Undecided int // undecided, counted as neither
}

// TallyVerdicts counts verdicts (see Tally) for a candidate whose truth is
// zero (zero = true) or positive.
func TallyVerdicts(verdicts []string, zero bool) Tally {
	t := Tally{N: len(verdicts)}
	for _, v := range verdicts {
		switch {
		case v == "undecided":
			t.Undecided++
		case v == "faster" && !zero:
			t.Wrong++
		case v == "faster" || v == "slower":
			t.Flagged++
		}
	}
	return t
}
