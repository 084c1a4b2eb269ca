package stats

import (
	"math"
	"slices"
)

//go:generate sh -c "go run mktables.go > regimetables.go.new && mv regimetables.go.new regimetables.go"

// The fixed thresholds of the two-regime test in [TwoRegimes]. The
// critical values of the separation depend on the sample size and are
// simulated (see mktables.go and [RegimeCriticalD]).
const (
	// RegimeMinShare is the least share of the runs in each regime (with at
	// least RegimeMinSize runs), so that one or two outliers never form a
	// regime: outliers are Tukey's business (see [Tukey]).
	RegimeMinShare = 0.15
	// RegimeMinSize is the least number of runs in each regime.
	RegimeMinSize = 3
	// RegimeMinGap is the least relative distance between the regimes'
	// centres, |High.Center − Low.Center| / max(|Low.Center|, |High.Center|):
	// two clusters closer than this (timer quantisation, two allocation
	// counts a percent apart) are not two regimes of the machine.
	RegimeMinGap = 0.05
	// RegimeMaxOrderP is the largest p-value of the runs test on run order
	// (see [Regimes.OrderP]) for which the regimes count as persistent.
	RegimeMaxOrderP = 0.05
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
	// Low.Hi and High.Lo, rounded so that Low.Hi ≤ Split < High.Lo. Values
	// at or below it are in Low, values above it in High.
	Split float64
	// Separation is Ashman's D of the split,
	// D = √2·|μ_high − μ_low| / √(σ²_low + σ²_high), with μ and σ² each
	// group's mean and population variance, capped at
	// [RegimeMaxSeparation]. It is scale-free. (D > 2 is the classical bar
	// for a fitted two-Gaussian mixture; on a hard split of one sample it
	// is inflated, see [RegimeCriticalD].)
	Separation float64
	// OrderP is the one-sided p-value of the Wald–Wolfowitz runs test on
	// the sequence of regime labels in run order: the probability that a
	// random order of the same labels has at most
	// len(Low.Segments)+len(High.Segments) segments. Small values mean the
	// regimes persist over stretches of consecutive runs (the machine
	// changed state), which independent noise does not do. It is 1 when
	// there is no split.
	OrderP float64
}

// TwoRegimes looks for two regimes in xs, a sample of run results in run
// order (for example runs 1–8 near 40 ns/op, 9–16 near 27, then back to
// 34–39). It returns bimodal=true only when xs
// splits by value into two groups that are each large, far apart relative
// to their own spread and to their level, by the test below.
//
//  1. Sort the values and take the split that maximises the between-group
//     variance w_low·w_high·(μ_low − μ_high)² (Otsu's method, the exact
//     1-D 2-means optimum) among splits that leave each group at least
//     max([RegimeMinSize], ⌈[RegimeMinShare]·n⌉) runs and never separate
//     equal values. O(n log n).
//  2. Require the centres (medians) to differ by at least [RegimeMinGap]
//     relative to the larger centre magnitude.
//  3. Require Ashman's D of the split ([Regimes.Separation]) to reach a
//     critical value for the sample size: [RegimeCriticalD](n, true) when
//     the groups persist in run order ([Regimes.OrderP] ≤
//     [RegimeMaxOrderP]), else the higher [RegimeCriticalD](n, false).
//
// The critical values are simulated so that independent unimodal noise
// (uniform, normal, exponential, lognormal, t₃) and a slow linear drift
// are called bimodal well under 1% of the time; see [RegimeCriticalD].
// The price is power at small n: with fewer than about 15 runs only a very
// clear split passes.
//
// r describes the best split even when bimodal is false (for display). It
// is the zero Regimes, with OrderP 1, when no split is possible: fewer than
// 2·RegimeMinSize runs, NaN or ±Inf in xs, or fewer than two distinct
// values among the allowed split points. xs is not modified.
func TwoRegimes(xs []float64) (r Regimes, bimodal bool) {
	r, gap, ok := splitRegimes(xs)
	if !ok {
		return r, false
	}
	crit := RegimeCriticalD(len(xs), r.OrderP <= RegimeMaxOrderP)
	return r, gap >= RegimeMinGap && r.Separation >= crit
}

// RegimeCriticalD returns the least Ashman's D for which [TwoRegimes]
// calls a split of n runs two regimes. persistent says whether the
// regimes persist in run order (runs test p ≤ [RegimeMaxOrderP]).
//
// The values come from simulation (mktables.go via go generate, tables in
// regimetables.go, interpolated linearly in 1/n between simulated sizes):
//   - persistent: the larger of the 95th percentile of D under iid uniform
//     samples (the least favourable unimodal shape, as in Hartigan's dip
//     test) and the 99.9th under a slow linear drift plus normal noise. For
//     iid noise the runs test is independent of D and passes 5% of the
//     time, so iid noise passes both at most 0.25% of the time; a drift
//     always persists in run order, so D alone must exclude it.
//   - not persistent: the largest 99.9th percentile of D over iid uniform,
//     normal, exponential, lognormal (σ 0.5 and 1) and Student's t₃
//     samples, so that heavy tails alone do not make two regimes.
//
// For n = 20 they are 5.19 and 10.50; they fall towards 3.6–3.7 at
// n = 1000 (the value for a uniform sample split in half is √12 ≈ 3.46).
// n below 6 gives math.MaxFloat64 (no split is possible).
func RegimeCriticalD(n int, persistent bool) float64 {
	table := regimeUnorderedD
	if persistent {
		table = regimeOrderedD
	}
	if n < regimeSizes[0] {
		return math.MaxFloat64
	}
	last := len(regimeSizes) - 1
	if n >= regimeSizes[last] {
		return table[last]
	}
	k, found := slices.BinarySearch(regimeSizes, n)
	if found {
		return table[k]
	}
	// regimeSizes[k-1] < n < regimeSizes[k]: interpolate in 1/n.
	n0, n1 := float64(regimeSizes[k-1]), float64(regimeSizes[k])
	t := (1/n0 - 1/float64(n)) / (1/n0 - 1/n1)
	return table[k-1] + t*(table[k]-table[k-1])
}

// splitRegimes is steps 1 and 2 of TwoRegimes without the decision: the
// best split, its description, and the relative gap between the centres.
func splitRegimes(xs []float64) (r Regimes, gap float64, ok bool) {
	none := Regimes{OrderP: 1}
	n := len(xs)
	minSize := max(RegimeMinSize, int(math.Ceil(RegimeMinShare*float64(n))))
	if n < 2*minSize || !finite(xs) {
		return none, 0, false
	}
	// Scale by an exact power of two so that |z| < 1: sums and squares
	// cannot overflow, and D and the relative gap are unchanged. (All
	// zeros have no split: every pair of neighbours is equal.)
	e := unitExponent(xs)
	order := sortedOrder(xs)
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
		return none, 0, false
	}
	lowZ, highZ := z[:bestK], z[bestK:]

	r.Low = regime(xs, order[:bestK])
	r.High = regime(xs, order[bestK:])
	r.Split = r.Low.Hi + (r.High.Lo-r.Low.Hi)/2
	if !isFinite(r.Split) {
		r.Split = r.Low.Hi/2 + r.High.Lo/2
	}
	if r.Split < r.Low.Hi || r.Split >= r.High.Lo {
		r.Split = r.Low.Hi // adjacent floats: no value lies between them
	}
	r.Separation = ashmanD(lowZ, highZ)
	r.OrderP = runsTestP(bestK, n-bestK, len(r.Low.Segments)+len(r.High.Segments))

	return r, relativeGap(quantileSorted(lowZ, 0.5), quantileSorted(highZ, 0.5)), true
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

// runsTestP returns P(R ≤ runs) for the number of runs R (maximal blocks
// of equal labels) in a uniformly random arrangement of n1 labels of one
// kind and n2 of the other, n1, n2 ≥ 1 (Wald and Wolfowitz 1940):
//
//	P(R = 2k)   = 2·C(n1−1, k−1)·C(n2−1, k−1) / C(n1+n2, n1)
//	P(R = 2k+1) = (C(n1−1, k)·C(n2−1, k−1) + C(n1−1, k−1)·C(n2−1, k)) / C(n1+n2, n1)
//
// computed in logarithms so that large n do not overflow.
func runsTestP(n1, n2, runs int) float64 {
	lchoose := func(n, k int) float64 {
		if k < 0 || k > n {
			return math.Inf(-1)
		}
		a, _ := math.Lgamma(float64(n + 1))
		b, _ := math.Lgamma(float64(k + 1))
		c, _ := math.Lgamma(float64(n - k + 1))
		return a - b - c
	}
	total := lchoose(n1+n2, n1)
	p := 0.0
	for r := 2; r <= runs; r++ {
		k := r / 2
		if r%2 == 0 {
			p += 2 * math.Exp(lchoose(n1-1, k-1)+lchoose(n2-1, k-1)-total)
		} else {
			p += math.Exp(lchoose(n1-1, k)+lchoose(n2-1, k-1)-total) +
				math.Exp(lchoose(n1-1, k-1)+lchoose(n2-1, k)-total)
		}
	}
	return clamp(p, 0, 1)
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
