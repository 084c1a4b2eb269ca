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
	// TolerancePct is the largest |DeltaPct| that is not a change, the
	// largest of: MinTolerancePct; the sum of the two counts'
	// ResolutionPct; the sum of their HalfWidthPct (known with two
	// processes or more at N2), so that a change is called only when
	// the two counts' 95% intervals over processes do not overlap.
	TolerancePct float64
	// Changed is |DeltaPct| > TolerancePct.
	Changed bool
	// SpreadBound says that the half-widths, not the floor
	// (MinTolerancePct or the resolutions), set TolerancePct: more
	// processes at N2 would narrow it.
	SpreadBound bool
}

// Compare returns the change from base to new. A count's noise comes
// from two sources: its processes' totals ([Result.ResolutionPct]), and
// work that differs from process to process (a map's random hash seed),
// which only several processes at N2 show ([Result.HalfWidthPct]); a
// count with one process at N2 has HalfWidthPct −1 and adds nothing for
// it.
func Compare(base, new Result) Change {
	floor := max(MinTolerancePct, base.ResolutionPct+new.ResolutionPct)
	spread := max(base.HalfWidthPct, 0) + max(new.HalfWidthPct, 0)
	c := Change{DeltaPct: math.NaN(), TolerancePct: max(floor, spread), SpreadBound: spread > floor}
	if base.PerOp > 0 {
		c.DeltaPct = 100 * (new.PerOp/base.PerOp - 1)
		c.Changed = math.Abs(c.DeltaPct) > c.TolerancePct
	}
	return c
}

// CountFunc counts one target within limits: [Instructions] with its
// Valgrind bound, or a stand-in in tests.
type CountFunc func(Target, Limits) (Result, error)

// Paired is a benchmark counted in two builds: each side's count or why
// it failed, and, when both were counted, the change.
type Paired struct {
	Base, New       Result
	BaseErr, NewErr error
	Change          Change
}

// Pair counts the benchmark of base and of new with count, with the
// limits of each (their Repeats, 0 for DefaultRepeats, is where each
// starts; a side's Limits.From continues a count made before), and
// compares them. While the change is not called and the processes'
// spread bounds the tolerance (Change.SpreadBound), it runs one more
// process at N2 on each side that has fewer than MaxRepeats: code
// whose count is the same in every process decides at the start, code
// whose count depends on the process (a map's hash seed) gets the
// processes its spread needs. Both sides are counted even when one
// fails; a side that fails, at the start or in a further process, ends
// the pair with its error, and Change is then the zero value with
// DeltaPct NaN.
func Pair(count CountFunc, base, new Target, baseLim, newLim Limits) Paired {
	p := Paired{Change: Change{DeltaPct: math.NaN()}}
	p.Base, p.BaseErr = count(base, baseLim)
	p.New, p.NewErr = count(new, newLim)
	if p.BaseErr != nil || p.NewErr != nil {
		return p
	}
	p.Change = Compare(p.Base, p.New)
	for !p.Change.Changed && p.Change.SpreadBound && min(len(p.Base.PerOps), len(p.New.PerOps)) < MaxRepeats {
		if len(p.Base.PerOps) < MaxRepeats {
			if p.Base, p.BaseErr = more(count, base, baseLim, p.Base); p.BaseErr != nil {
				break
			}
		}
		if len(p.New.PerOps) < MaxRepeats {
			if p.New, p.NewErr = more(count, new, newLim, p.New); p.NewErr != nil {
				break
			}
		}
		p.Change = Compare(p.Base, p.New)
	}
	if p.BaseErr != nil || p.NewErr != nil {
		p.Change = Change{DeltaPct: math.NaN()}
	}
	return p
}

// more continues the count prev of t with one more process at N2.
func more(count CountFunc, t Target, lim Limits, prev Result) (Result, error) {
	lim.From, lim.Repeats = &prev, len(prev.PerOps)+1
	return count(t, lim)
}
