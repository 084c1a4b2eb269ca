package count

import "math"

// MinTolerancePct is the least change in instructions per op, in percent,
// that [Compare] calls a change: identical builds of this project's
// allocating workload counted up to 0.12% apart at the default budget
// (the page allocator's work depends on where the heap lands), more than
// NoiseFloor alone explains (docs/counts.md).
const MinTolerancePct = 0.25

// Change is the change in instructions per op from a base count to a new
// one of the same benchmark.
type Change struct {
	// DeltaPct is new/base − 1, in percent.
	DeltaPct float64
	// TolerancePct is the largest |DeltaPct| that is not a change:
	// MinTolerancePct, or the sum of the two counts' ResolutionPct, or
	// the larger of their SpreadPct (known with Repeats > 1), whichever is
	// largest.
	TolerancePct float64
	// Changed is |DeltaPct| > TolerancePct.
	Changed bool
}

// Compare returns the change from base to new. A count's noise comes
// from two sources: its processes' totals ([Result.ResolutionPct]), and
// work that differs from process to process (a map's random hash seed;
// [Result.SpreadPct] shows it when each N ran more than once), which a
// single pair of processes cannot see: count such benchmarks with
// Limits.Repeats of 3 or more before calling a change of under a percent.
func Compare(base, new Result) Change {
	c := Change{DeltaPct: math.NaN(), TolerancePct: MinTolerancePct}
	c.TolerancePct = max(c.TolerancePct, base.ResolutionPct+new.ResolutionPct, base.SpreadPct, new.SpreadPct)
	if base.PerOp > 0 {
		c.DeltaPct = 100 * (new.PerOp/base.PerOp - 1)
		c.Changed = math.Abs(c.DeltaPct) > c.TolerancePct
	}
	return c
}
