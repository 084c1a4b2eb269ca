package harness

import (
	"math"
	"time"

	"github.com/benchkit/go-benchkit/internal/stats"
)

// MedianOrNaN is the median of xs ([stats.Median]), or NaN for no xs:
// for a table cell that must read "none" rather than 0.
func MedianOrNaN(xs []float64) float64 {
	if m, ok := stats.Median(xs); ok {
		return m
	}
	return math.NaN()
}

// MedianDuration returns the median of ds ([stats.Median], truncated to
// whole nanoseconds), or 0 for no ds.
func MedianDuration(ds []time.Duration) time.Duration {
	s := make([]float64, len(ds))
	for i, d := range ds {
		s[i] = float64(d)
	}
	m, _ := stats.Median(s)
	return time.Duration(m)
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
