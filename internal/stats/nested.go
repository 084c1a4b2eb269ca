package stats

import (
	"math"
	"time"
)

// medianVarFactor is the sampling variance of the median of r normal
// values in units of σ²/r: π/2 (asymptotically; it overstates a little
// for small odd r, which only errs toward more runs).
const medianVarFactor = math.Pi / 2

// Components estimates the two variance components of a nested design,
// in the units of the values: groups[g] holds group g's per-run values
// (in -benchkit.against, a triple's run-by-run ratios), and a group's
// estimate is its median. Within is the spread of runs inside a group:
// the median over groups of each group's normal-consistent MAD (robust to
// the odd slow run). Between is the spread of the groups' own levels
// (what differs from one set of processes to the next): the variance of
// the group medians minus what Within explains, (π/2)·Within²/r with r the
// mean number of runs per group, clamped at 0, as a standard deviation.
// ok is false with fewer than 2 groups of at least 3 values.
func Components(groups [][]float64) (between, within float64, ok bool) {
	var meds, mads []float64
	runs := 0
	for _, g := range groups {
		if len(g) < 3 {
			continue
		}
		m, okM := Median(g)
		d, okD := MAD(g)
		if !okM || !okD {
			continue
		}
		meds, mads = append(meds, m), append(mads, MADNormal*d)
		runs += len(g)
	}
	if len(meds) < 2 {
		return 0, 0, false
	}
	within, _ = Median(mads)
	sd, _ := StdDev(meds)
	r := float64(runs) / float64(len(meds))
	v := sd*sd - medianVarFactor*within*within/r
	return math.Sqrt(max(v, 0)), within, true
}

// OptimalRuns returns the runs per group that make the mean of the group
// estimates the most precise for a fixed cost, the classic allocation of
// a two-stage nested design: a group costs fixed + r·perRun and its
// estimate's variance is between² + (π/2)·within²/r, so
//
//	r* = √((π/2)·within²·fixed / (between²·perRun))
//
// rounded, clamped to [lo, hi]. Processes that differ more than runs (a
// large between) want many groups of few runs; runs that are the noise
// (a small between) want few groups of many runs. between 0 gives hi.
func OptimalRuns(between, within float64, fixed, perRun time.Duration, lo, hi int) int {
	if between <= 0 || perRun <= 0 {
		return hi
	}
	r := math.Sqrt(medianVarFactor * within * within * float64(fixed) / (between * between * float64(perRun)))
	if math.IsNaN(r) {
		return hi
	}
	return int(min(max(math.Round(r), float64(lo)), float64(hi)))
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
