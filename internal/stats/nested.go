package stats

import (
	"math"
	"math/rand/v2"
	"time"
)

// medianVarFactor is the sampling variance of the median of r normal
// values in units of σ²/r: π/2 (asymptotically; it overstates a little
// for small odd r, which only errs toward more runs).
const medianVarFactor = math.Pi / 2

// Nested is what the groups of a two-stage nested design showed (in
// -benchkit.against, each group a triple's run-by-run ratios, its
// estimate their median), in the units of the values.
//
// Within is the spread of runs inside a group: the median over groups of
// each group's normal-consistent MAD (robust to the odd slow run), as a
// standard deviation. The variance of a group's median of r runs is not
// taken from it, though: on a loaded machine a share of the runs is
// slowed severalfold, and the median of a few such runs varies far more
// than (π/2)·Within²/r says. MedianVar measures it instead by resampling
// the groups' runs about their medians. Between is the spread of the
// groups' own levels (what differs from one set of processes to the
// next): the variance of the group medians less the mean of MedianVar
// over the groups' sizes, clamped at 0, as a standard deviation.
type Nested struct {
	Between, Within float64
	// medVar is MedianVar for 0 to bootMax runs, resampled from every
	// group's values less the group's median (none in a Nested built by
	// hand: the normal formula).
	medVar []float64
}

// minResid is the fewest pooled residuals MedianVar resamples; with
// fewer it takes the normal value (π/2)·Within²/r.
const minResid = 15

// bootDraws is how many medians MedianVar draws per size, and bootMax
// the largest size it resamples: beyond it the median's variance falls
// as 1/r (its asymptotic law, whatever the runs' distribution), so
// MedianVar(r) = MedianVar(bootMax)·bootMax/r.
const (
	bootDraws = 300
	bootMax   = 40
)

// NestedOf estimates the components from groups; ok is false with fewer
// than 2 groups of at least 3 values.
func NestedOf(groups [][]float64) (Nested, bool) {
	var n Nested
	var meds, mads []float64
	var sizes []int
	var resid []float64
	for _, g := range groups {
		if len(g) < 3 {
			continue
		}
		m, okM := Median(g)
		d, okD := MAD(g)
		if !okM || !okD {
			continue
		}
		meds, mads, sizes = append(meds, m), append(mads, MADNormal*d), append(sizes, len(g))
		for _, x := range g {
			resid = append(resid, x-m)
		}
	}
	if len(meds) < 2 {
		return Nested{}, false
	}
	n.Within, _ = Median(mads)
	n.medVar = medianVars(resid, n.Within)
	sd, _ := StdDev(meds)
	explained := 0.0
	for _, r := range sizes {
		explained += n.MedianVar(r)
	}
	n.Between = math.Sqrt(max(sd*sd-explained/float64(len(sizes)), 0))
	return n, true
}

// medianVars returns the variance of the median of r values for r from 0
// to bootMax (index r; 0 unused): resampled from resid (bootDraws medians
// of r draws with replacement, from a fixed seed, so that a design is
// reproducible), or (π/2)·within²/r with fewer than minResid residuals.
func medianVars(resid []float64, within float64) []float64 {
	v := make([]float64, bootMax+1)
	v[0] = math.Inf(1)
	if len(resid) < minResid {
		for r := 1; r <= bootMax; r++ {
			v[r] = medianVarFactor * within * within / float64(r)
		}
		return v
	}
	rng := rand.New(rand.NewPCG(0x6e6573746564, 0x6d656469616e))
	draw := make([]float64, bootMax)
	meds := make([]float64, bootDraws)
	for r := 1; r <= bootMax; r++ {
		d := draw[:r]
		for i := range meds {
			for j := range d {
				d[j] = resid[rng.IntN(len(resid))]
			}
			meds[i], _ = Median(d)
		}
		sd, _ := StdDev(meds)
		v[r] = sd * sd
	}
	return v
}

// MedianVar is the variance of the median of r runs (see Nested).
func (n Nested) MedianVar(r int) float64 {
	switch {
	case r < 1:
		return math.Inf(1)
	case len(n.medVar) == 0:
		return medianVarFactor * n.Within * n.Within / float64(r)
	case r <= bootMax:
		return n.medVar[r]
	default:
		return n.medVar[bootMax] * bootMax / float64(r)
	}
}

// OptimalRuns returns the runs per group, in [lo, hi], that make the mean
// of the group estimates the most precise for a fixed cost, the
// allocation of a two-stage nested design: a group costs fixed + r·perRun
// and its estimate's variance is Between² + MedianVar(r), so for a
// budget T the mean over T/(fixed + r·perRun) groups has variance
// proportional to
//
//	(Between² + MedianVar(r))·(fixed + r·perRun),
//
// minimised over r (every r when [lo, hi] is short, else a geometric
// grid of steps of about 10% with both ends). With normal runs this is
// the classic r* = √((π/2)·Within²·fixed / (Between²·perRun)). Processes
// that differ more than runs want many groups of few runs; runs that are
// the noise, or a few of them far off, want fewer groups of more runs.
// Between 0 gives hi.
func (n Nested) OptimalRuns(fixed, perRun time.Duration, lo, hi int) int {
	lo = max(lo, 1)
	if hi <= lo {
		return lo
	}
	if n.Between <= 0 || perRun <= 0 {
		return hi
	}
	best, bestCost := hi, math.Inf(1)
	b2 := n.Between * n.Between
	for _, r := range runGrid(lo, hi) {
		c := (b2 + n.MedianVar(r)) * (float64(fixed) + float64(r)*float64(perRun))
		if c < bestCost {
			best, bestCost = r, c
		}
	}
	return best
}

// runGrid is the sizes OptimalRuns tries: every one from lo to hi when
// they are at most 40, else lo, steps of about 10% and hi.
func runGrid(lo, hi int) []int {
	var rs []int
	for r := lo; r < hi; {
		rs = append(rs, r)
		if hi-lo <= 40 {
			r++
		} else {
			r = max(r+1, int(float64(r)*1.1))
		}
	}
	return append(rs, hi)
}

// Spending splits a family-wise false-alarm rate Alpha over the looks of
// a sequential comparison that may stop at any of them: interim look j
// (from 1) gets Alpha·Interim/2^j and the final look Alpha·(1−Interim).
// Whatever the number of interim looks, and however the looks depend on
// each other, the chance that any look's interval misses the truth is at
// most the sum of their rates, at most Alpha (Bonferroni over the looks):
// a comparison that looks repeatedly keeps its nominal false-alarm rate.
// Early looks get the larger interim shares, so that a clear difference
// stops early; the final look keeps most of Alpha, so that a run that goes
// to the end loses little width to having looked.
type Spending struct {
	Alpha, Interim float64
}

// Look returns interim look j's rate (j from 1).
func (s Spending) Look(j int) float64 {
	return s.Alpha * s.Interim / math.Pow(2, float64(max(j, 1)))
}

// Final returns the final look's rate.
func (s Spending) Final() float64 { return s.Alpha * (1 - s.Interim) }
