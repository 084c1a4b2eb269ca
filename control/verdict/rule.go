package verdict

import (
	"fmt"
	"math"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// The rule's defaults, shared by control.Compare and -benchkit.against:
// the family-wise confidence of the intervals, and the negligible size ε
// in percent.
const (
	DefaultConfidence = 0.95
	DefaultNegligible = 1.0
)

// interval is an estimated difference from the baseline in percent:
// DeltaPct and its confidence interval [LoPct, HiPct] (LoPct ≤ DeltaPct ≤
// HiPct). Without an interval both bounds are NaN.
type interval struct {
	DeltaPct, LoPct, HiPct float64
}

// rule is what the verdict rule needs besides the estimates. Its methods
// are pure: same estimates, same verdict and reason.
type rule struct {
	// Base is the baseline's name, quoted in reasons.
	Base string
	// Eps is the negligible size ε, in percent.
	Eps float64
	// N is the number of rounds, Level the confidence of each interval,
	// MinN the rounds a finite interval needs at Level.
	N     int
	Level float64
	MinN  int
	// NoInterval, when set, replaces TooFew's reason; TooFewFix ends
	// it otherwise ("raise -benchtime").
	NoInterval, TooFewFix string
	// Groups is the number of processes whose estimates the interval is
	// built from (≤ 1: within one process); a wide interval over several
	// is their disagreement, not too few rounds. GroupName names them in
	// the reason ("forks") and GroupFix says how to narrow the interval
	// ("more forks (-benchkit.forks) narrow it").
	Groups              int
	GroupName, GroupFix string
	// Stopped, when not "", is why measuring stopped: every verdict is
	// Undecided with it.
	Stopped string
}

// TooFew is the reason every verdict is Undecided when the control has no
// interval.
func (r rule) TooFew() string {
	if r.NoInterval != "" {
		return r.NoInterval
	}
	fix := r.TooFewFix
	if fix == "" {
		fix = "raise -benchtime"
	}
	return fmt.Sprintf("only %s: a %.1f%% interval needs at least %d; %s", textfmt.Plural(r.N, "round"), 100*r.Level, r.MinN, fix)
}

// ControlOff reports whether the control's interval excludes 0 and its
// delta exceeds ε/2 in size: the harness cannot tell a copy of the
// baseline from the baseline at that level.
func (r rule) ControlOff(ctl interval) bool {
	return (ctl.LoPct > 0 || ctl.HiPct < 0) && math.Abs(ctl.DeltaPct) > r.Eps/2
}

// ControlWide is how wide, in multiples of ε, the control's interval may
// be and still be called Same.
const ControlWide = 10

// DecideControl returns the control's verdict and reason: Undecided
// without an interval (ok false), when it is off ([rule.ControlOff]) or
// when it is wider than ControlWide·ε (the noise floor is then too high
// to call anything the same), else Same.
func (r rule) DecideControl(ctl interval, ok bool) (Verdict, string) {
	switch {
	case r.Stopped != "":
		return Undecided, "measuring stopped: " + r.Stopped
	case !ok:
		return Undecided, r.TooFew()
	case r.ControlOff(ctl):
		return Undecided, fmt.Sprintf("a copy of %s measured %s [%s, %s] from it: the harness's own error exceeds ±%.2g%%", r.Base,
			textfmt.Pct(ctl.DeltaPct), textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct), r.Eps/2)
	case ctl.HiPct-ctl.LoPct > ControlWide*r.Eps:
		return Undecided, fmt.Sprintf("noise floor too wide: a copy of %s lies within [%s, %s], %.3g points, more than %d×ε (%.2g%%); only differences beyond it can be told",
			r.Base, textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct), ctl.HiPct-ctl.LoPct, ControlWide, r.Eps)
	default:
		return Same, fmt.Sprintf("noise floor: a copy of %s lies within [%s, %s]", r.Base, textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct))
	}
}

// Decide returns a candidate's verdict and reason given the control's
// estimate; ok and ctlOK say whether e and ctl have an interval. In order:
// no control interval: Undecided; the control off: Slower or Faster only
// beyond the control's interval by its offset again, else Undecided; no candidate
// interval: Undecided; the interval within [−ε, +ε]: Same; above 0 and
// strictly above the control's interval: Slower; below 0 and strictly
// below it: Faster; otherwise Undecided (too wide, or inside the noise
// floor). A Faster or Slower whose estimate is smaller than ε and
// [PlacementPct] says so in its reason: the verdict stands, and the
// reason warns that a difference that small may be code placement.
func (r rule) Decide(ctl interval, ctlOK bool, e interval, ok bool) (Verdict, string) {
	eps := r.Eps
	switch {
	case r.Stopped != "":
		return Undecided, "measuring stopped: " + r.Stopped
	case !ctlOK:
		return Undecided, r.TooFew()
	case r.ControlOff(ctl):
		return r.decideOff(ctl, e, ok)
	case !ok:
		return Undecided, "no interval: a time could not be paired"
	case e.LoPct >= -eps && e.HiPct <= eps:
		return Same, fmt.Sprintf("the interval lies within ±%.2g%% (Negligible)", eps)
	case e.LoPct > 0 && e.LoPct > ctl.HiPct:
		return Slower, fmt.Sprintf("the interval excludes 0 and lies above the control's [%s, %s]", textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct)) + r.placement(e)
	case e.HiPct < 0 && e.HiPct < ctl.LoPct:
		return Faster, fmt.Sprintf("the interval excludes 0 and lies below the control's [%s, %s]", textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct)) + r.placement(e)
	case e.LoPct <= 0 && e.HiPct >= 0 && r.Groups > 1:
		return Undecided, fmt.Sprintf("the interval contains 0 and reaches beyond ±%.2g%%: the %d %s disagree by more than that (control: [%s, %s]); %s",
			eps, r.Groups, r.GroupName, textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct), r.GroupFix)
	case e.LoPct <= 0 && e.HiPct >= 0:
		return Undecided, fmt.Sprintf("the interval contains 0 and reaches beyond ±%.2g%%: too wide to tell with %d rounds (control: [%s, %s]); raise -benchtime or quiet the machine",
			eps, r.N, textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct))
	default:
		return Undecided, fmt.Sprintf("the interval excludes 0 but overlaps the control's [%s, %s]: the difference is inside this run's noise floor", textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct))
	}
}

// decideOff decides a candidate when the control is off zero: the
// harness then errs by about the control's offset, so only an interval
// beyond the control's by more than that offset again is decided;
// anything closer is Undecided, saying why.
func (r rule) decideOff(ctl interval, e interval, ok bool) (Verdict, string) {
	off := math.Abs(ctl.DeltaPct)
	beyond := func(where string) string {
		return fmt.Sprintf("the control (a copy of %s) came out %s [%s, %s], off zero, and the interval lies %s it by more than that offset again",
			r.Base, textfmt.Pct(ctl.DeltaPct), textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct), where) + r.placement(e)
	}
	switch {
	case ok && e.LoPct > 0 && e.LoPct > ctl.HiPct+off:
		return Slower, beyond("above")
	case ok && e.HiPct < 0 && e.HiPct < ctl.LoPct-off:
		return Faster, beyond("below")
	}
	return Undecided, fmt.Sprintf("cannot decide: the control (a copy of %s) came out %s [%s, %s], off zero by more than ±%.2g%%, and the interval is not beyond it by that much again; the machine was too noisy to tell differences of this size; rerun when it is quieter or raise -benchtime",
		r.Base, textfmt.Pct(ctl.DeltaPct), textfmt.Pct(ctl.LoPct), textfmt.Pct(ctl.HiPct), r.Eps/2)
}

// PlacementPct is the size, in percent, below which a decided difference
// may be one that code placement alone makes, which neither the control
// nor forks can see (docs/measurements.md).
const PlacementPct = 1.0

// placement is the note a decided verdict carries when its estimate is
// smaller than both ε and PlacementPct in size; "" otherwise.
func (r rule) placement(e interval) string {
	limit := min(r.Eps, PlacementPct)
	if math.Abs(e.DeltaPct) >= limit {
		return ""
	}
	return fmt.Sprintf("; the estimate is within ±%.2g%%, a size by which code placement alone can move identical code "+
		"(another function, another build): it may not survive a rebuild", limit)
}

// Spread returns the estimate over per-process ratios (each process's
// ratio of a candidate's time to the baseline's, 1 = equal): DeltaPct is
// (mean − 1)·100 and [LoPct, HiPct] Student's t-interval around it at
// level (stats.ForkInterval), in percent. ok is false, with both bounds
// NaN, when there are fewer than stats.ForkMinN ratios or the interval is
// not finite; with no ratio at all DeltaPct is 0.
func spread(ratios []float64, level float64) (interval, bool) {
	e := interval{LoPct: math.NaN(), HiPct: math.NaN()}
	if len(ratios) == 0 {
		return e, false
	}
	mean, _ := stats.Mean(ratios)
	e.DeltaPct = pct(mean)
	ci, ok := stats.ForkInterval(ratios, level)
	if !ok {
		return e, false
	}
	return interval{DeltaPct: pct(ci.Center), LoPct: pct(ci.Lo), HiPct: pct(ci.Hi)}, true
}

// Pct converts a ratio to a signed percentage difference: (ratio − 1)·100.
func pct(ratio float64) float64 { return (ratio - 1) * 100 }
