package stats

import (
	"math"
	"slices"
)

// The thresholds of [Drift] and [ColdStart].
const (
	// DriftMaxP is the largest two-sided p-value of the Mann–Kendall
	// trend test on the block medians for which [Drift] calls a drift.
	DriftMaxP = 0.001
	// DriftMinPct is the least total change over the timeline, Sen's slope
	// times the span, in percent of the median, that [Drift] calls a
	// drift: smaller trends are real but do not matter at the 5% scale the
	// report sizes runs for.
	DriftMinPct = 5.0
	// ColdMinRatio is the least ratio of the first value to the median of
	// the rest that [ColdStart] calls a cold start.
	ColdMinRatio = 1.5
)

// DriftResult is the result of [Drift].
type DriftResult struct {
	// ChangePct is Sen's slope of the block medians (the median of the
	// pairwise slopes) times the number of blocks minus one, in percent of
	// the median of xs: the change from the first block to the last.
	// Negative means the run got faster.
	ChangePct float64
	// P is the two-sided p-value of the Mann–Kendall test on the block
	// medians, with the variance of S inflated by (1+ρ)/(1−ρ) for the
	// lag-1 autocorrelation ρ ∈ [0, 0.9] of the detrended block medians.
	P float64
	// Blocks is the number of block medians tested.
	Blocks int
}

// Drift tests xs, a sample in time order (a benchkit.Loop timeline or the
// runs of -count in order), for a monotone trend: the level moving one
// way through the run, as a clock ramping up, a CPU heating and
// throttling, or state that grows across iterations do. xs is reduced to
// k = min([BatchBlocks], n) block medians ([BlockMedians]), so scattered
// bursts do not weigh, then:
//
//   - the Mann–Kendall statistic S = Σ_{i<j} sign(m_j − m_i), with
//     Var(S) = k(k−1)(2k+5)/18 multiplied by (1+ρ)/(1−ρ), ρ the lag-1
//     autocorrelation of the medians after removing Sen's slope (Yue and
//     Wang's variance correction for serially correlated series, Water
//     Resources Management 18, 2004), Z = (S − sign(S))/√Var(S) and its
//     two-sided normal p-value (Kendall, "Rank Correlation Methods", 1975);
//   - Sen's slope (Sen, JASA 63, 1968) for the size of the change.
//
// drifting is true when p ≤ [DriftMaxP] and |ChangePct| ≥ [DriftMinPct].
// For independent noise the false-alarm rate is at most DriftMaxP. A
// single level shift is monotone too and passes; callers test for
// regimes first ([TwoRegimes], [ShiftedBlock]).
//
// ok is false, with a zero result, when xs has fewer than [BatchMinN]
// values, holds NaN or ±Inf, or its median is not positive. xs is not
// modified.
func Drift(xs []float64) (d DriftResult, drifting, ok bool) {
	if len(xs) < BatchMinN || !finite(xs) {
		return DriftResult{}, false, false
	}
	med, _ := Median(xs)
	if !(med > 0) {
		return DriftResult{}, false, false
	}
	m, _ := BlockMedians(xs, BatchBlocks)
	k := len(m)
	s, slopes := 0.0, make([]float64, 0, k*(k-1)/2)
	for i := range k {
		for j := i + 1; j < k; j++ {
			switch {
			case m[j] > m[i]:
				s++
			case m[j] < m[i]:
				s--
			}
			slopes = append(slopes, (m[j]-m[i])/float64(j-i))
		}
	}
	slices.Sort(slopes)
	slope := quantileSorted(slopes, 0.5)
	resid := make([]float64, k)
	for i, v := range m {
		resid[i] = v - slope*float64(i)
	}
	rho := clamp(Lag1(resid), 0, 0.9)
	kf := float64(k)
	variance := kf * (kf - 1) * (2*kf + 5) / 18 * (1 + rho) / (1 - rho)
	z := 0.0
	if s != 0 {
		z = (s - math.Copysign(1, s)) / math.Sqrt(variance)
	}
	d = DriftResult{
		ChangePct: 100 * slope * (kf - 1) / med,
		P:         clamp(math.Erfc(math.Abs(z)/math.Sqrt2), 0, 1),
		Blocks:    k,
	}
	if !isFinite(d.ChangePct) {
		return DriftResult{}, false, false
	}
	return d, d.P <= DriftMaxP && math.Abs(d.ChangePct) >= DriftMinPct, true
}

// ColdStart reports whether the first value of xs (a timeline or the runs
// in order) is a cold start: above Tukey's severe fence Q3 + 3·IQR of the
// rest, above every other value, at least [ColdMinRatio] times the rest's
// median, and followed by a value within the rest's mild fence Q3 + 1.5·IQR
// (a burst of interference spans several consecutive values). A first
// iteration that pays for page faults, lazy initialisation, cold caches
// or a JIT-like first call (fastjson's MarshalTo/canada: 407 ms at
// b.N = 1, then 1.1 ms per op) looks like this; the rest are unaffected.
//
// ratio is xs[0] over the median of xs[1:]. ok is false, with zeros,
// when xs has fewer than 5 values, holds NaN or ±Inf, or the rest's median
// is not positive. xs is not modified.
func ColdStart(xs []float64) (ratio float64, cold, ok bool) {
	if len(xs) < 5 || !finite(xs) {
		return 0, false, false
	}
	rest := xs[1:]
	med, _ := Median(rest)
	o, tok := Tukey(rest)
	if !(med > 0) || !tok {
		return 0, false, false
	}
	ratio = xs[0] / med
	if !isFinite(ratio) {
		return 0, false, false
	}
	// A burst spans several batches and is seldom the largest of all; a
	// cold first iteration is one value, the largest by far.
	second := xs[1] <= o.Q3+1.5*o.IQR
	return ratio, xs[0] > o.Q3+3*o.IQR && xs[0] > slices.Max(rest) && second && ratio >= ColdMinRatio, true
}
