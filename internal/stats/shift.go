package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The thresholds of the level-shift test in [ShiftedBlock]. How they
// were set, and the false-positive rates they give, are in
// docs/statistics.md.
const (
	// ShiftMaxP is the largest permutation p-value of the scan statistic
	// for which [ShiftedBlock] calls a shift. For independent, identically
	// distributed values (any distribution, ties included) the ranks are
	// exchangeable, so at most this share of such samples pass step 2.
	ShiftMaxP = 0.005
	// ShiftPermutations is the number of seeded random permutations the
	// p-value is computed from: p = (1 + #{permutations whose max|Z| is
	// at least as large}) / (1 + ShiftPermutations), so p ≤ ShiftMaxP
	// allows at most one.
	ShiftPermutations = 399
	// ShiftMinN is the least sample size [ShiftedBlock] tests. Below it
	// a steep drift cannot be told from a step.
	ShiftMinN = 20
	// ShiftMaxN is the largest sample [ShiftedBlock] tests; the scan costs
	// O(n²) per permutation.
	ShiftMaxN = 1000
	// ShiftMinGap is the least relative distance between the block's and
	// the rest's medians, |c_high − c_low| / max(|c_low|, |c_high|).
	// It is five times [RegimeMinGap]: order alone cannot tell a level
	// shift from slowly wandering (autocorrelated) noise, only a large
	// step can.
	ShiftMinGap = 0.25
	// ShiftMinAUC is the least share of (low, high) pairs in order, low <
	// high (the Mann–Whitney U over m·(n−m), ties counting half): most of
	// the high regime must lie above most of the low one, spikes or not.
	ShiftMinAUC = 0.85
	// ShiftMinStep is the least ratio, at each change point, of the step
	// to the whole shift c_block − c_rest. The step is the largest
	// difference, towards the block, of the medians of w consecutive
	// values after and w before a point within w of the change point
	// (edges blur over a few values), w = max(3, ⌈min(m, piece)/4⌉) with
	// piece the length of the rest's piece at that change point. A linear
	// drift cut in two has a step ratio near 1/4; a level shift near 1.
	ShiftMinStep = 0.4
	// ShiftMaxTrend is the largest ratio, at each change point, of the
	// trend to the step. The trend of a piece is the median of its last
	// min(w, len/2) values minus that of its first (at least one), signed
	// towards the step; it is taken on the rest's piece, or, for a single
	// change point, on the flatter of the two sides. A drift keeps moving
	// within the pieces as much as across the change point; a level shift
	// does not.
	ShiftMaxTrend = 0.5
)

// ShiftedBlock looks for a level shift in xs, a sample in time order (run
// results in run order, or a benchkit.Loop batch timeline): one
// contiguous block [i, j) whose level differs from the rest's, such as a
// CPU hog competing for the middle of a run, or the fast stretch of seed
// 001's runs. It complements [TwoRegimes], which splits by value and needs
// each regime to be tight: a hog makes its stretch spiky, so Ashman's D of
// a value split is low even when the stretch stands out in time.
//
// The test, on ranks (mid-ranks for ties) so that a spike weighs no more
// than any other high value:
//
//  1. Scan every block [i, j) with m = j−i and n−m both at least
//     max([RegimeMinSize], ⌈[RegimeMinShare]·n⌉) and each non-empty
//     piece of the rest, [0, i) and [j, n), at least RegimeMinSize; i = 0
//     or j = n is a single change point. Score each by the standardised
//     Wilcoxon rank sum of the block against the rest,
//     Z = (S − m(n+1)/2) / √(m(n−m)(n+1)/12), S the block's rank sum.
//     Candidates: the block with the largest |Z|, and the single change
//     point with the largest |Z| (a short piece of the rest can steal the
//     best score from it). O(n²) with prefix sums.
//  2. Significance: a candidate's p-value is its |Z| against the
//     distribution of max|Z| over [ShiftPermutations] random permutations
//     of the ranks (seeded, so the result is deterministic); it must be at
//     most [ShiftMaxP]. Against the maximum over all blocks, this holds
//     for any candidate: iid samples pass at most ShiftMaxP of the time.
//  3. Size and shape, which order alone cannot give (autocorrelated noise
//     and drifts are not exchangeable, so step 2 passes them): the gap of
//     the medians at least [ShiftMinGap], the AUC at least [ShiftMinAUC],
//     the step at each change point at least [ShiftMinStep] of the shift,
//     and the trend beside it at most [ShiftMaxTrend] of the step.
//
// The first candidate that passes is returned with shifted = true.
// r reports the block and the rest as the two regimes, Low the one with
// the lower median. Unlike [TwoRegimes], membership is by position, not
// by value, so the regimes' ranges [Lo, Hi] may overlap, and one regime
// may have two segments (the rest around a middle block). Split is the
// midpoint of the two centres, Separation the robust analogue of Ashman's
// D, √2·|c_high − c_low| / √(s²_low + s²_high) with c the medians and
// s = [MADNormal]·MAD, capped at [RegimeMaxSeparation], and OrderP the
// candidate's permutation p-value.
//
// Strongly autocorrelated noise with a large spread wanders between
// levels and can pass all three steps: it is the test's known weak spot
// ([TwoRegimes] shares it for random walks). The measured false-positive
// rates are in docs/statistics.md.
//
// r describes the best block even when shifted is false. It is the zero
// Regimes, with OrderP 1, when no test is possible: fewer than
// [ShiftMinN] or more than [ShiftMaxN] values, NaN or ±Inf in xs, or all
// values equal. xs is not modified. Cost: O(n²·ShiftPermutations) when a
// block is significant, about 2·10⁷ steps for n = 256 (tens of
// milliseconds); samples without one stop early.
func ShiftedBlock(xs []float64) (r Regimes, shifted bool) {
	none := Regimes{OrderP: 1}
	n := len(xs)
	minSize := max(RegimeMinSize, int(math.Ceil(RegimeMinShare*float64(n))))
	if n < max(ShiftMinN, 2*minSize) || n > ShiftMaxN || !finite(xs) {
		return none, false
	}
	ranks := midRanks(xs)
	scan := newBlockScan(n, minSize)
	cands := scan.best(ranks)
	if cands[0].i < 0 || cands[0].z == 0 {
		return none, false
	}

	// Step 2: permutation distribution of max|Z|, stopping once even the
	// best block cannot be significant.
	rng := rand.New(rand.NewPCG(0x5eed0001, uint64(n)))
	perm := slices.Clone(ranks)
	allowed := int(ShiftMaxP*float64(ShiftPermutations+1)) - 1 // exceedances allowed
	var maxima []float64
	exceed := 0
	for range ShiftPermutations {
		rng.Shuffle(n, func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		zp := scan.best(perm)[0].z
		maxima = append(maxima, zp)
		if zp >= cands[0].z*(1-1e-12) {
			exceed++
			if exceed > allowed {
				break
			}
		}
	}
	pValue := func(z float64) float64 {
		k := 0
		for _, m := range maxima {
			if m >= z*(1-1e-12) {
				k++
			}
		}
		return min(1, float64(1+k)/float64(1+len(maxima)))
	}

	// Step 3 on the best block, then on the best single change point
	// (a short piece of the rest can steal the best |Z| from it).
	for k, c := range cands {
		if c.i < 0 || (k > 0 && c.i == cands[0].i && c.j == cands[0].j) {
			continue
		}
		g, gap, auc, step, trend := describeShift(xs, c.i, c.j)
		g.OrderP = pValue(c.z)
		if k == 0 {
			r = g
		}
		if g.OrderP <= ShiftMaxP && gap >= ShiftMinGap && auc >= ShiftMinAUC &&
			step >= ShiftMinStep && trend <= ShiftMaxTrend {
			return g, true
		}
	}
	return r, false
}

// midRanks returns the ranks 1..n of xs, ties given their mean rank.
func midRanks(xs []float64) []float64 {
	n := len(xs)
	order := sortedOrder(xs)
	ranks := make([]float64, n)
	for k := 0; k < n; {
		l := k
		for l < n && xs[order[l]] == xs[order[k]] {
			l++
		}
		mid := float64(k+l+1) / 2 // mean of ranks k+1 .. l
		for _, i := range order[k:l] {
			ranks[i] = mid
		}
		k = l
	}
	return ranks
}

// block is a candidate of blockScan.best: [i, j) and its |Z|.
type block struct {
	i, j int
	z    float64
}

// blockScan holds what every scan of one sample size shares: a block of
// length m has the null mean mean[m] and standard deviation sd[m] of its
// rank sum, computed once per length rather than once per block and
// permutation, and prefix is the scan's buffer of prefix sums.
type blockScan struct {
	minSize          int
	mean, sd, prefix []float64
}

// newBlockScan returns the scan of samples of n ranks whose blocks and
// rests hold at least minSize values.
func newBlockScan(n, minSize int) *blockScan {
	s := &blockScan{minSize: minSize, mean: make([]float64, n+1), sd: make([]float64, n+1), prefix: make([]float64, n+1)}
	nf := float64(n)
	for m := 1; m < n; m++ {
		mf := float64(m)
		s.mean[m], s.sd[m] = mf*(nf+1)/2, math.Sqrt(mf*(nf-mf)*(nf+1)/12)
	}
	return s
}

// best returns the block [i, j) of ranks (n of them, as given to
// newBlockScan) with the largest |Z| (step 1 of ShiftedBlock) and the
// single change point (i = 0 or j = n) with the largest |Z|; i = −1 when
// there is none.
func (s *blockScan) best(ranks []float64) [2]block {
	n, minSize, prefix, mean, sd := len(ranks), s.minSize, s.prefix, s.mean, s.sd
	for k, v := range ranks {
		prefix[k+1] = prefix[k] + v
	}
	best := [2]block{{-1, -1, -1}, {-1, -1, -1}}
	z := func(i, j int) float64 { return math.Abs(prefix[j]-prefix[i]-mean[j-i]) / sd[j-i] }
	for i := 0; i <= n-minSize; i++ {
		if i > 0 && i < RegimeMinSize {
			continue
		}
		// Blocks [i, j) leave at least minSize outside (j ≤ last) and
		// either reach the end or leave at least RegimeMinSize after it.
		last := i + n - minSize
		for j := i + minSize; j <= min(last, n-RegimeMinSize); j++ {
			zj := z(i, j)
			if zj > best[0].z {
				best[0] = block{i, j, zj}
			}
			if i == 0 && zj > best[1].z {
				best[1] = block{i, j, zj}
			}
		}
		if n <= last {
			zn := z(i, n)
			if zn > best[0].z {
				best[0] = block{i, n, zn}
			}
			if zn > best[1].z {
				best[1] = block{i, n, zn}
			}
		}
	}
	return best
}

// describeShift returns the regimes of block [i, j) of xs against the rest
// and the effect sizes of step 3: the relative gap of the medians, the
// AUC in the direction of the shift, the smallest step ratio over the
// change points and the largest trend ratio beside them. When the two
// medians are equal, gap, AUC and step are 0 and trend is +Inf.
func describeShift(xs []float64, i, j int) (r Regimes, gap, auc, step, trend float64) {
	z := scaleToUnit(xs)
	block := slices.Clone(z[i:j])
	rest := append(slices.Clone(z[:i]), z[j:]...)
	slices.Sort(block)
	slices.Sort(rest)
	cb, cr := quantileSorted(block, 0.5), quantileSorted(rest, 0.5)

	r, blockHigh := positionRegimes(xs, i, j)
	lowS, highS := block, rest
	if blockHigh {
		lowS, highS = rest, block
	}
	cl, ch := quantileSorted(lowS, 0.5), quantileSorted(highS, 0.5)
	r.Separation = robustD(lowS, highS)
	if ch == cl {
		return r, 0, 0, 0, math.Inf(1)
	}
	step, trend = stepAndTrend(z, i, j, cb-cr)
	return r, relativeGap(cl, ch), sortedAUC(lowS, highS), step, trend
}

// positionRegimes describes block [i, j) of xs and the rest as two
// regimes by position, on the unscaled values (scaling can flush
// subnormals to zero): Low the one with the lower median, Split the
// midpoint of the medians. blockHigh reports whether the block is High.
// Separation and OrderP are left zero.
func positionRegimes(xs []float64, i, j int) (r Regimes, blockHigh bool) {
	n := len(xs)
	blockReg := Regime{Size: j - i, Segments: [][2]int{{i, j}}}
	restReg := Regime{Size: n - (j - i)}
	if i > 0 {
		restReg.Segments = append(restReg.Segments, [2]int{0, i})
	}
	if j < n {
		restReg.Segments = append(restReg.Segments, [2]int{j, n})
	}
	fill := func(g *Regime, vals []float64) {
		slices.Sort(vals)
		g.Center = quantileSorted(vals, 0.5)
		g.Lo, g.Hi = vals[0], vals[len(vals)-1]
	}
	fill(&blockReg, slices.Clone(xs[i:j]))
	fill(&restReg, append(slices.Clone(xs[:i]), xs[j:]...))
	blockHigh = blockReg.Center > restReg.Center
	if blockHigh {
		r.Low, r.High = restReg, blockReg
	} else {
		r.Low, r.High = blockReg, restReg
	}
	r.Split = r.Low.Center + (r.High.Center-r.Low.Center)/2
	if !isFinite(r.Split) {
		r.Split = r.Low.Center/2 + r.High.Center/2
	}
	r.Split = clamp(r.Split, r.Low.Center, r.High.Center)
	return r, blockHigh
}

// sortedAUC returns the share of (low, high) pairs with low < high, ties
// counting half (the Mann–Whitney U over len(low)·len(high)), for sorted
// non-empty low and high.
func sortedAUC(low, high []float64) float64 {
	var u float64
	k := 0
	for _, h := range high {
		for k < len(low) && low[k] < h {
			k++
		}
		eq := 0
		for k+eq < len(low) && low[k+eq] == h {
			eq++
		}
		u += float64(k) + float64(eq)/2
	}
	return u / (float64(len(low)) * float64(len(high)))
}

// stepAndTrend returns the smallest step and the largest trend
// ([changePoint]) over the change points i and j of block [i, j) of the
// scaled sample z (a change point at 0 or len(z) is none), in units of
// shift, the block's median minus the rest's. Step is +Inf and trend 0
// when there is no change point.
func stepAndTrend(z []float64, i, j int, shift float64) (step, trend float64) {
	step = math.Inf(1)
	for _, c := range []int{i, j} {
		if c == 0 || c == len(z) {
			continue
		}
		s, t := changePoint(z, i, j, c, shift)
		step = min(step, s)
		trend = max(trend, t)
	}
	return step, trend
}

// changePoint returns, at change point c (i or j) of block [i, j) of z,
// between pieces A (before) and B (after), the step and the trend in
// units of shift. The step is the largest local step within w of c
// (edges blur over a few values), w from the shorter of the block and the
// rest's piece. The trend is the change from the first to the last w
// values (at most half the piece) within the rest's piece, or, for a
// single change point, the smaller of those within A and within B, signed
// in the direction of the step at c, over the step. A level shift has a
// step near 1 and flat pieces; a drift has a small step and pieces that
// keep moving the same way.
func changePoint(z []float64, i, j, c int, shift float64) (step, trend float64) {
	n := len(z)
	a, b := z[:c], z[c:j] // before the block and the block
	piece := c
	sign := 1.0
	if c == j {
		a, b = z[i:j], z[j:] // the block and after it
		piece = n - j
		sign = -1 // leaving the block
	}
	w := max(RegimeMinSize, (min(j-i, piece)+3)/4)
	step = localStep(z, c, w, sign, shift)
	// The rest's piece must be flat; with a single change point either
	// side may be the level one (a drift moves on both).
	pieces := [][]float64{a}
	if c == j {
		pieces[0] = b
	}
	if i == 0 || j == n {
		pieces = [][]float64{a, b}
	}
	trend = math.Inf(1)
	for _, p := range pieces {
		pw := max(1, min(w, len(p)/2))
		t := sign * (windowMedian(p[len(p)-pw:]) - windowMedian(p[:pw])) / shift
		trend = min(trend, t/max(step, math.SmallestNonzeroFloat64))
	}
	return step, trend
}

// localStep returns the largest difference, signed by sign and in units
// of shift, of the medians of the w values after and the w values before
// a point within w of c.
func localStep(z []float64, c, w int, sign, shift float64) float64 {
	n := len(z)
	best := math.Inf(-1)
	for c2 := max(w, c-w); c2 <= min(n-w, c+w); c2++ {
		into := windowMedian(z[c2:c2+w]) - windowMedian(z[c2-w:c2])
		best = max(best, sign*into/shift)
	}
	return best
}

// windowMedian returns the median of a non-empty s without modifying it.
func windowMedian(s []float64) float64 {
	c := slices.Clone(s)
	slices.Sort(c)
	return quantileSorted(c, 0.5)
}

// robustD returns √2·|c_b − c_a| / √(s_a² + s_b²) for sorted scaled groups
// (medians c, s = MADNormal·MAD), capped at RegimeMaxSeparation.
func robustD(a, b []float64) float64 {
	diff := math.Abs(quantileSorted(b, 0.5) - quantileSorted(a, 0.5))
	if diff == 0 {
		return 0
	}
	sa, _ := MAD(a)
	sb, _ := MAD(b)
	sa, sb = MADNormal*sa, MADNormal*sb
	den := math.Sqrt(sa*sa + sb*sb)
	if den == 0 || diff*math.Sqrt2 >= RegimeMaxSeparation*den {
		return RegimeMaxSeparation
	}
	return math.Sqrt2 * diff / den
}
