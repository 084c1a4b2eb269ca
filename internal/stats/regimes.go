package stats

import (
	"math"
	"slices"
)

// The thresholds of the two-regime test in [TwoRegimes].
const (
	// RegimeMinSeparation is the least Ashman's D, computed on the hard
	// split, for two regimes. The classical D > 2 is meant for a fitted
	// two-Gaussian mixture; splitting one sample at its best threshold
	// inflates D (a single normal sample split at its mean gives D ≈ 2.65,
	// a uniform one ≈ 3.46), so the bar here is higher.
	RegimeMinSeparation = 4.0
	// RegimeMinShare is the least share of the runs in each regime (with at
	// least RegimeMinSize runs), so that one or two outliers never form a
	// regime.
	RegimeMinShare = 0.15
	// RegimeMinSize is the least number of runs in each regime.
	RegimeMinSize = 3
	// RegimeMinGap is the least relative distance between the regimes'
	// centres, |High.Center − Low.Center| / max(|Low.Center|, |High.Center|):
	// two clusters closer than this (timer quantisation, two allocation
	// counts a percent apart) are not two regimes of the machine.
	RegimeMinGap = 0.05
	// RegimeMaxSeparation caps the reported Separation, reached when both
	// regimes have no spread of their own.
	RegimeMaxSeparation = 1000.0
)

// Regime is one of the two groups of runs [TwoRegimes] found.
type Regime struct {
	// Center is the median of the regime's values.
	Center float64
	// Size is the number of runs in the regime.
	Size int
	// Lo and Hi are the smallest and largest value in the regime.
	Lo, Hi float64
	// Segments are the maximal stretches of consecutive run indices
	// [start, end) whose runs belong to the regime, in run order.
	Segments [][2]int
}

// Regimes is the result of [TwoRegimes]: a split of a sample by value into
// a low and a high group.
type Regimes struct {
	Low, High Regime
	// Split is the value threshold separating them: the midpoint between
	// Low.Hi and High.Lo. Values below it are in Low, above it in High.
	Split float64
	// Separation is Ashman's D of the split,
	// D = √2·|μ_high − μ_low| / √(σ²_low + σ²_high), with μ and σ² each
	// group's mean and population variance, capped at
	// [RegimeMaxSeparation]. It is scale-free: D ≥ 2 is the classical
	// sign of a mixture with clearly separated components.
	Separation float64
}

// TwoRegimes looks for two regimes in xs, a sample of run results in run
// order (seed 001's "run that lied": runs alternating between a 39 ns and
// a 27 ns state of the machine). It returns bimodal=true only when xs
// splits into two groups by value that are each large, far apart relative
// to their own spread and relative to their level.
//
// The test:
//  1. Sort the values and take the split that maximises the between-group
//     variance w_low·w_high·(μ_low − μ_high)² (Otsu's method, which is the
//     exact 1-D 2-means optimum), among splits that leave each group at
//     least max([RegimeMinSize], ⌈[RegimeMinShare]·n⌉) runs and never
//     separate equal values.
//  2. Call it two regimes when Ashman's D of that split (see
//     [Regimes.Separation]) is at least [RegimeMinSeparation] and the
//     centres differ by at least [RegimeMinGap] relative to the larger
//     centre magnitude.
//
// Step 1 is O(n log n). The result r describes the best split even when
// bimodal is false (for display), and is the zero Regimes when no split is
// possible: fewer than 2·RegimeMinSize runs, NaN or ±Inf in xs, or fewer
// than two distinct values. The test uses values only; run order is used
// only to report [Regime.Segments]. A slow drift spreads values evenly and
// is not two regimes; a step change is.
func TwoRegimes(xs []float64) (r Regimes, bimodal bool) {
	n := len(xs)
	minSize := max(RegimeMinSize, int(math.Ceil(RegimeMinShare*float64(n))))
	if n < 2*minSize || !finite(xs) {
		return Regimes{}, false
	}
	// Scale by an exact power of two so that |z| ≤ 1: sums and squares
	// cannot overflow and D and the relative gap are unchanged.
	maxAbs := 0.0
	for _, x := range xs {
		maxAbs = max(maxAbs, math.Abs(x))
	}
	if maxAbs == 0 {
		return Regimes{}, false
	}
	_, e := math.Frexp(maxAbs)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case xs[i] < xs[j]:
			return -1
		case xs[i] > xs[j]:
			return 1
		}
		return 0
	})
	z := make([]float64, n)
	for k, i := range order {
		z[k] = math.Ldexp(xs[i], -e)
	}
	prefix := make([]float64, n+1)
	for k, v := range z {
		prefix[k+1] = prefix[k] + v
	}
	best, bestK := -1.0, -1
	for k := minSize; k <= n-minSize; k++ {
		if z[k-1] == z[k] {
			continue // never split equal values
		}
		w0 := float64(k) / float64(n)
		m0 := prefix[k] / float64(k)
		m1 := (prefix[n] - prefix[k]) / float64(n-k)
		if b := w0 * (1 - w0) * (m1 - m0) * (m1 - m0); b > best {
			best, bestK = b, k
		}
	}
	if bestK < 0 {
		return Regimes{}, false
	}
	lowZ, highZ := z[:bestK], z[bestK:]
	d := ashmanD(lowZ, highZ)

	r.Low = regime(xs, order[:bestK])
	r.High = regime(xs, order[bestK:])
	r.Split = r.Low.Hi + (r.High.Lo-r.Low.Hi)/2
	if !isFinite(r.Split) {
		r.Split = r.Low.Hi/2 + r.High.Lo/2
	}
	r.Split = clamp(r.Split, r.Low.Hi, r.High.Lo)
	r.Separation = d

	cl, ch := quantileSorted(lowZ, 0.5), quantileSorted(highZ, 0.5)
	gap := (ch - cl) / max(math.Abs(cl), math.Abs(ch))
	return r, d >= RegimeMinSeparation && gap >= RegimeMinGap
}

// ashmanD returns Ashman's D of two groups of scaled values (|v| ≤ 1),
// capped at RegimeMaxSeparation.
func ashmanD(a, b []float64) float64 {
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	diff := math.Abs(mb - ma)
	den := math.Sqrt(va + vb)
	if diff == 0 {
		return 0
	}
	if den == 0 || diff*math.Sqrt2 >= RegimeMaxSeparation*den {
		return RegimeMaxSeparation
	}
	return math.Sqrt2 * diff / den
}

// meanVar returns the mean and population variance of a non-empty vs.
func meanVar(vs []float64) (mean, variance float64) {
	for _, v := range vs {
		mean += v
	}
	mean /= float64(len(vs))
	for _, v := range vs {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(vs))
}

// regime describes the runs at indices idx (sorted by value) of xs.
func regime(xs []float64, idx []int) Regime {
	vals := make([]float64, len(idx))
	for k, i := range idx {
		vals[k] = xs[i]
	}
	in := make([]bool, len(xs))
	for _, i := range idx {
		in[i] = true
	}
	var segs [][2]int
	for i := 0; i < len(xs); i++ {
		if !in[i] {
			continue
		}
		j := i
		for j < len(xs) && in[j] {
			j++
		}
		segs = append(segs, [2]int{i, j})
		i = j
	}
	return Regime{
		Center:   quantileSorted(vals, 0.5),
		Size:     len(idx),
		Lo:       vals[0],
		Hi:       vals[len(vals)-1],
		Segments: segs,
	}
}
