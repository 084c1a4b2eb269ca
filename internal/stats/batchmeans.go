package stats

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// BatchBlocks is the number of contiguous blocks [BatchMedianCI] and
// [Drift] cut a timeline into. Sixteen blocks of 8–16 batches each (a
// benchkit.Loop timeline holds 128–256 batches) keep the t-interval's
// degrees of freedom at 15 while each block still spans enough batches for
// its median to shrug off a short burst.
const BatchBlocks = 16

// BatchMinN is the least timeline length [BatchMedianCI] accepts: eight
// blocks of one batch each.
const BatchMinN = 8

// BatchCI is the result of [BatchMedianCI].
type BatchCI struct {
	// Center is the median of the timeline, in its units.
	Center float64
	// HalfWidthPct is the half-width of the confidence interval on the
	// level, in percent of Center: (hi − lo)/2 of the distribution-free
	// interval for the median of the k block medians, times
	// √((1+ρ)/(1−ρ)), over Center, times 100.
	HalfWidthPct float64
	// SEPct is HalfWidthPct over the normal quantile z_{(1+confidence)/2}
	// (1.96 at 95%): a standard error of the run's level in percent, the
	// within-run part of the run-to-run coefficient of variation of a
	// run's median.
	SEPct float64
	// BlockCVPct is the coefficient of variation of the k block medians in
	// percent: the run-to-run CV of runs a k-th as long as this one, were
	// each block its own run. It is at least √k·SEPct/√((1+ρ)/(1−ρ))
	// and, for a full run, an upper estimate of its run-to-run CV unless
	// processes differ more than stretches of one run do.
	BlockCVPct float64
	// Blocks is k, the number of blocks, and BlockSize the batches in
	// each; the first len(xs) − k·BlockSize batches (the oldest) are left
	// out.
	Blocks, BlockSize int
	// Rho is the lag-1 autocorrelation of the block medians, clamped to
	// [0, 0.9].
	Rho float64
	// Confidence is the requested level.
	Confidence float64
}

// BatchMedianCI returns a confidence interval for the level of xs, a
// benchkit.Loop timeline (per-iteration time of consecutive batches, in
// order), by non-overlapping batch means with medians: xs is cut into
// k = min([BatchBlocks], n) contiguous blocks of ⌊n/k⌋ values (the
// oldest remainder dropped), each block is summarised by its median (so a
// burst covering less than half a block does not move it), and the k
// block medians are treated as a sample: the distribution-free interval
// for their median at the given confidence (order statistics from the
// Binomial(k, ½), benchmath.AssumeNothing, as benchstat's "±"), so that a
// block or two swamped by bursts do not widen it, widened by √((1+ρ)/(1−ρ)) for the lag-1 autocorrelation ρ of the block
// medians (an AR(1) effective sample size k·(1−ρ)/(1+ρ); ρ clamped to
// [0, 0.9]). The half-width is expressed relative to the median of xs.
//
// Batch means are the standard way to put an interval on the mean of an
// autocorrelated series (Law and Kelton, "Simulation Modeling and
// Analysis", 3rd ed., §9.5.3; Schmeiser, "Batch size effects in the
// analysis of simulation output", Operations Research 30(3), 1982: 10–30
// batches); the AR(1) correction covers the correlation left between
// neighbouring blocks (a slow wander of the machine).
//
// The interval describes this run only: it says how well the run pinned
// its own level, not how far another process would land (heap and code
// placement differ between processes and are fixed within one).
//
// ok is false, with a zero BatchCI, when xs has fewer than [BatchMinN]
// values, holds NaN, ±Inf or negative values, its median is 0, or
// confidence is not strictly between 0 and 1. xs is not modified.
func BatchMedianCI(xs []float64, confidence float64) (ci BatchCI, ok bool) {
	if len(xs) < BatchMinN || !finite(xs) || !(confidence > 0 && confidence < 1) || slices.Min(xs) < 0 {
		return BatchCI{}, false
	}
	center, _ := Median(xs)
	if !(center > 0) {
		return BatchCI{}, false
	}
	meds, size := BlockMedians(xs, BatchBlocks)
	k := len(meds)
	s := benchmath.AssumeNothing.Summary(newSample(meds), confidence)
	half := (s.Hi - s.Lo) / 2
	if !isFinite(half) {
		return BatchCI{}, false
	}
	rho := clamp(Lag1(meds), 0, 0.9)
	inflate := math.Sqrt((1 + rho) / (1 - rho))
	ci = BatchCI{Center: center, Blocks: k, BlockSize: size, Rho: rho, Confidence: confidence}
	ci.HalfWidthPct = 100 * half * inflate / center
	ci.SEPct = ci.HalfWidthPct / (math.Sqrt2 * math.Erfinv(confidence))
	if cv, ok := CV(meds); ok {
		ci.BlockCVPct = cv
	}
	return ci, true
}

// BlockMedians cuts xs into k' = min(k, len(xs)) contiguous blocks of
// ⌊len(xs)/k'⌋ values, dropping the oldest remainder, and returns each
// block's median, oldest first, and the block size. It returns nil, 0 for
// an empty xs or k < 1. xs is not modified.
func BlockMedians(xs []float64, k int) (meds []float64, size int) {
	if len(xs) == 0 || k < 1 {
		return nil, 0
	}
	k = min(k, len(xs))
	size = len(xs) / k
	skip := len(xs) - k*size
	meds = make([]float64, k)
	for b := range k {
		meds[b] = windowMedian(xs[skip+b*size : skip+(b+1)*size])
	}
	return meds, size
}

// Lag1 returns the lag-1 sample autocorrelation of xs,
// Σ(x_i − x̄)(x_{i+1} − x̄) / Σ(x_i − x̄)², or 0 when it is undefined
// (fewer than 3 values, or all equal).
func Lag1(xs []float64) float64 {
	if len(xs) < 3 {
		return 0
	}
	m, _ := Mean(xs)
	var num, den float64
	for i, x := range xs {
		den += (x - m) * (x - m)
		if i+1 < len(xs) {
			num += (x - m) * (xs[i+1] - m)
		}
	}
	if !(den > 0) || !isFinite(num/den) {
		return 0
	}
	return num / den
}
