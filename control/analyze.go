package control

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/verdict"
)

// Verdict is the outcome of one candidate in a comparison.
type Verdict string

// The verdicts. Faster and Slower are decided differences; Same is a
// decided absence of a difference that matters; Undecided means the
// measurement cannot tell, and the Estimate's Reason says why.
const (
	Faster    Verdict = "faster"
	Slower    Verdict = "slower"
	Same      Verdict = "same"
	Undecided Verdict = "undecided"
)

// Sample is the measured per-operation time of one implementation in each
// round, in nanoseconds: NsPerOp[r] is its batch time in round r divided by
// the batch's iteration count.
type Sample struct {
	Name    string
	NsPerOp []float64
}

// Estimate is one implementation's difference from the baseline.
type Estimate struct {
	Name string
	// NsPerOp is the median over rounds of the implementation's time per
	// operation, in nanoseconds.
	NsPerOp float64
	// DeltaPct is (median over rounds of t_impl/t_base − 1)·100, and
	// [LoPct, HiPct] its confidence interval at Result.Confidence. Over
	// several forks ([AnalyzeForks]) DeltaPct is the mean of the forks'
	// deltas and the interval a t-interval around it.
	DeltaPct, LoPct, HiPct float64
	Verdict                Verdict
	// Reason says, with the numbers, why the verdict was reached.
	Reason string
	// ForkDeltaPct holds each fork's own delta, in fork order, when the
	// comparison ran in several processes; nil within one process.
	ForkDeltaPct []float64
}

// Result is the outcome of one comparison.
type Result struct {
	// Baseline is the baseline's name, BaselineNsPerOp its median time per
	// operation in nanoseconds.
	Baseline        string
	BaselineNsPerOp float64
	// Control is the second copy of the baseline measured as a candidate:
	// its interval is the harness's own error bar in this run.
	Control    Estimate
	Candidates []Estimate
	// Rounds is the number of measured rounds (the warm-up round is not
	// counted). Confidence is the level of each interval after the
	// Bonferroni correction.
	Rounds     int
	Confidence float64
	// Forks is the number of processes the rounds were spread over; 1
	// means within one process (the interval then describes this
	// process, not the code).
	Forks int
	// Negligible and Gate are the thresholds used, in percent (Gate 0: no
	// gate). GateFailed is true when a candidate is Slower by more than
	// Gate.
	Negligible float64
	Gate       float64
	GateFailed bool
	// Measurement details, filled by Compare (zero from Analyze):
	// iterations per batch, calibrated closure-call overhead per
	// operation in ns, the order seed, and the budget in ns.
	BatchIters      int
	OverheadNsPerOp float64
	Seed            uint64
	BudgetNs        float64
	// Warnings are conditions that weaken the result; they do not change
	// the verdicts.
	Warnings []string
}

// Analyze computes a comparison from per-round times: base and control
// (a second copy of the baseline), and each candidate, all with one time
// per round. It is the pure core of [Compare]; it times nothing and, for a
// given seed, is deterministic. It returns an error when the samples do not
// pair up (different lengths, a time that is not finite and positive,
// empty or duplicate names), when the baseline or a candidate is named
// [ControlName] (as [Compare] does), when a time is more than 1e100 or less than
// 1e-100 times the baseline's in its round (no finite percentage), or
// when an option is invalid. Every number in the Result is finite.
//
// The rule, with k candidates and m = k+1 intervals (candidates and
// control), family-wise confidence c (default 0.95) and negligible size ε
// (default 1%):
//
//  1. Per round r, ratio_i(r) = t_i(r)/t_base(r). Each implementation's
//     delta is (median_r ratio_i(r) − 1)·100, with the sign-test interval
//     of the median (order statistics from Binomial(n, ½)) at level
//     1 − (1−c)/m.
//  2. Fewer rounds than that level needs for a finite interval (6 at 95%,
//     7 at 98.3%): every verdict is Undecided.
//  3. The control is off when its interval excludes 0 and its delta
//     exceeds ε/2 in size: every candidate is Undecided, and the Reason
//     quotes the control's numbers, since the harness cannot tell a copy
//     from itself at that level.
//  4. Otherwise a candidate whose interval lies within [−ε, +ε] is Same;
//     one whose interval lies above 0 and above the control's interval is
//     Slower; below 0 and below the control's interval, Faster; anything
//     else is Undecided (interval too wide, or inside the noise floor).
func Analyze(base, control Sample, cands []Sample, opts ...Option) (Result, error) {
	cfg := buildConfig(opts)
	if len(cfg.errs) > 0 {
		return Result{}, fmt.Errorf("%s", strings.Join(cfg.errs, "; "))
	}
	return analyze(base, control, cands, cfg)
}

func analyze(base, control Sample, cands []Sample, cfg config) (Result, error) {
	if err := checkSamples(base, control, cands); err != nil {
		return Result{}, err
	}
	n := len(base.NsPerOp)
	level, _ := stats.PairedConfidence(cfg.confidence, len(cands)+1)
	res := Result{
		Baseline:   base.Name,
		Rounds:     n,
		Forks:      1,
		Confidence: level,
		Negligible: cfg.negligible,
		Gate:       cfg.gate,
		Seed:       cfg.seed,
	}
	if n > 0 {
		res.BaselineNsPerOp, _ = stats.Median(base.NsPerOp)
	}
	est := newEstimator(base.NsPerOp, level, cfg)
	r := rule{base: base.Name, eps: cfg.negligible, n: n, level: level, minN: est.minN}

	ctl, ctlOK := est.estimate(control)
	ctl.Verdict, ctl.Reason = r.decideControl(ctl, ctlOK)
	res.Control = ctl
	res.Candidates = make([]Estimate, len(cands))
	for i, s := range cands {
		e, ok := est.estimate(s)
		e.Verdict, e.Reason = r.decide(ctl, ctlOK, e, ok)
		res.Candidates[i] = e
		if cfg.gate > 0 && e.Verdict == Slower && e.DeltaPct > cfg.gate {
			res.GateFailed = true
		}
	}
	return res, nil
}

// checkSamples returns an error when the samples do not pair up: an empty
// or duplicate name, a length other than the baseline's, or a time that is
// not finite and positive.
func checkSamples(base, control Sample, cands []Sample) error {
	n := len(base.NsPerOp)
	if err := checkReserved(base, cands); err != nil {
		return err
	}
	names := map[string]bool{}
	for _, s := range append([]Sample{base, control}, cands...) {
		if s.Name == "" {
			return fmt.Errorf("control: a sample has an empty name")
		}
		if names[s.Name] {
			return fmt.Errorf("control: two samples are named %q", s.Name)
		}
		names[s.Name] = true
		if len(s.NsPerOp) != n {
			return fmt.Errorf("control: sample %q has %d rounds, the baseline %d: every implementation needs one time per round", s.Name, len(s.NsPerOp), n)
		}
		for r, t := range s.NsPerOp {
			if !(t > 0) || math.IsInf(t, 0) {
				return fmt.Errorf("control: sample %q round %d has time %v: times must be finite and > 0", s.Name, r, t)
			}
			if err := checkRatio(s.Name, r, t, base.NsPerOp[r]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkReserved returns the error [Compare] gives when the baseline or a
// candidate is named [ControlName], which only the control may be.
func checkReserved(base Sample, cands []Sample) error {
	for i, s := range append([]Sample{base}, cands...) {
		if s.Name != ControlName {
			continue
		}
		role := "the baseline"
		if i > 0 {
			role = fmt.Sprintf("candidate %d", i)
		}
		return fmt.Errorf("control: %s has the invalid name %q: %s", role, s.Name, checkName(s.Name))
	}
	return nil
}

// maxLog10Ratio bounds a time's ratio to the baseline's in the same round:
// within 1e±100, every percentage, mean and t-interval derived from the
// ratios is finite (a ratio of 1e308 is +Inf as a percentage, and one of
// 1e-400 underflows to 0), and no measurement comes near it.
const maxLog10Ratio = 100

// checkRatio returns an error when time t of sample name in round r is
// more than 1e100 times, or less than 1e-100 times, the baseline's time
// base in that round. Both are finite and > 0; the ratio is compared in
// logarithms, so that the check itself cannot overflow.
func checkRatio(name string, r int, t, base float64) error {
	l := math.Log10(t) - math.Log10(base)
	if math.Abs(l) <= maxLog10Ratio {
		return nil
	}
	return fmt.Errorf("control: sample %q round %d is %s times the baseline's time (%v ns against %v ns): a ratio beyond 1e±%d is not a measurement and has no finite percentage; check the units",
		name, r, fmtPow10(l), t, base, maxLog10Ratio)
}

// fmtPow10 formats 10^l, which may lie beyond float64's range, as
// "1e+400" or "2.5e-120".
func fmtPow10(l float64) string {
	e := math.Floor(l)
	m := math.Pow(10, l-e)
	if m >= 9.995 { // rounds to 10 at 3 digits
		m, e = m/10, e+1
	}
	return fmt.Sprintf("%.3ge%+d", m, int(e))
}

// estimator computes each implementation's difference from the baseline
// (step 1 of the rule in [Analyze]).
type estimator struct {
	base      []float64 // the baseline's ns/op per round
	level     float64   // confidence of each interval
	minN      int       // rounds needed for a finite interval at level
	bootstrap int       // resamples; 0 = sign test
	seed      uint64    // bootstrap seed
}

// newEstimator takes minN from the sign test at level, and at least 2
// with the bootstrap.
func newEstimator(base []float64, level float64, cfg config) estimator {
	minN, _ := stats.PairedSignMinN(level)
	if cfg.bootstrap > 0 {
		minN = max(minN, 2)
	}
	return estimator{base: base, level: level, minN: minN, bootstrap: cfg.bootstrap, seed: cfg.seed}
}

// estimate returns s's median ns/op and its median ratio to the baseline
// as DeltaPct with the interval [LoPct, HiPct], and whether that interval
// exists. Without one (no rounds, fewer than minN, or a ratio that cannot
// be formed) the interval collapses to DeltaPct and ok is false; the
// Verdict and Reason are left for [rule.decide].
func (est estimator) estimate(s Sample) (e Estimate, ok bool) {
	e = Estimate{Name: s.Name}
	n := len(est.base)
	if n == 0 {
		return e, false
	}
	e.NsPerOp, _ = stats.Median(s.NsPerOp)
	ratios, ok := stats.PairedRatios(est.base, s.NsPerOp)
	if !ok {
		return e, false
	}
	med, _ := stats.Median(ratios)
	e.DeltaPct = verdict.Pct(med)
	var ci stats.PairedInterval
	switch {
	case n < est.minN:
		ok = false
	case est.bootstrap > 0:
		ci, ok = stats.PairedBootstrapCI(ratios, est.level, est.bootstrap, est.seed)
	default:
		ci, ok = stats.PairedSignCI(ratios, est.level)
	}
	if !ok {
		e.LoPct, e.HiPct = e.DeltaPct, e.DeltaPct
		return e, false
	}
	e.LoPct, e.HiPct = verdict.Pct(ci.Lo), verdict.Pct(ci.Hi)
	return e, true
}

// rule is control's view of the verdict rule of [Analyze], whose one
// implementation is verdict.Rule: the fields it needs besides the
// estimates, with forks as the processes a wide interval comes from.
type rule struct {
	base  string  // the baseline's name, quoted in reasons
	eps   float64 // Negligible, in percent
	n     int     // rounds
	level float64 // confidence of each interval
	minN  int     // rounds needed for a finite interval at level
	// noInterval, when set, replaces tooFew's reason (forks without
	// rounds).
	noInterval string
	// forks is the number of processes (≤ 1: within one process); a wide
	// interval over forks is their disagreement, not too few rounds.
	forks int
}

func (r rule) verdict() verdict.Rule {
	return verdict.Rule{Base: r.base, Eps: r.eps, N: r.n, Level: r.level, MinN: r.minN, NoInterval: r.noInterval,
		Groups: r.forks, GroupName: "forks", GroupFix: "more forks (-benchkit.forks) narrow it"}
}

// decideControl returns the control's verdict and reason: Undecided
// without an interval or when it is off (steps 2 and 3), else Same.
func (r rule) decideControl(ctl Estimate, ctlOK bool) (Verdict, string) {
	v, why := r.verdict().DecideControl(interval(ctl), ctlOK)
	return Verdict(v), why
}

// decide returns candidate e's verdict and reason given the control's
// estimate (steps 2 to 4 of the rule in [Analyze]); ok and ctlOK say
// whether e and ctl have an interval.
func (r rule) decide(ctl Estimate, ctlOK bool, e Estimate, ok bool) (Verdict, string) {
	v, why := r.verdict().Decide(interval(ctl), ctlOK, interval(e), ok)
	return Verdict(v), why
}

func interval(e Estimate) verdict.Interval {
	return verdict.Interval{DeltaPct: e.DeltaPct, LoPct: e.LoPct, HiPct: e.HiPct}
}
