package verdict

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Options are the estimator's settings. The zero value of a number takes
// the default: [DefaultConfidence], [DefaultNegligible], no gate, the sign
// test.
type Options struct {
	// Confidence is the family-wise level of the intervals, in (0, 1).
	Confidence float64
	// Negligible is ε, in percent; Gate the regression threshold in
	// percent (0: none).
	Negligible, Gate float64
	// Bootstrap, when > 0, replaces [Analyze]'s sign-test interval by a
	// percentile bootstrap with that many resamples, seeded by Seed.
	Bootstrap int
	Seed      uint64
	// Unit names, in reasons, the independent units whose disagreement
	// widens an interval: in [AnalyzeGroups] the groups ("forks", the
	// default, or "triples"); in [Analyze] "" for batches of one process,
	// "rounds" when each round is fresh processes. UnitFix says how to
	// narrow such an interval ("more forks (-benchkit.forks) narrow it").
	Unit, UnitFix string
	// TooFewFix says how to get the rounds an interval needs; "" is
	// "raise -benchtime".
	TooFewFix string
	// Stopped, when not "", says why measuring stopped early: every
	// verdict is then Undecided with that reason, and no gate fails.
	Stopped string
}

func (o Options) withDefaults() Options {
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if o.Negligible == 0 {
		o.Negligible = DefaultNegligible
	}
	if o.TooFewFix == "" {
		o.TooFewFix = "raise -benchtime"
	}
	return o
}

// Analyze computes a comparison from per-round times of one group: base
// and control (a second copy of the baseline) and each candidate, all with
// one time per round, paired by round. It returns an error when the
// samples do not pair up (different lengths, a time that is not finite
// and positive, empty or duplicate names) or a time is more than 1e100 or
// less than 1e-100 times the baseline's in its round (no finite
// percentage). Every number in the Result is finite but an interval's
// bounds, which are NaN where there is no interval.
//
// The rule, with k candidates and m = k+1 intervals (candidates and
// control), family-wise confidence c (default 0.95) and negligible size ε
// (default 1%):
//
//  1. Per round r, ratio_i(r) = t_i(r)/t_base(r). Each implementation's
//     delta is (median_r ratio_i(r) − 1)·100, with the sign-test interval
//     of the median (order statistics from Binomial(n, ½)) at level
//     1 − (1−c)/m, or a percentile bootstrap with Options.Bootstrap.
//  2. Fewer rounds than that level needs for a finite interval (6 at 95%,
//     7 at 97.5%), or Options.Stopped: every verdict is Undecided.
//  3. The control is off when its interval excludes 0 and its delta
//     exceeds ε/2 in size: the harness cannot tell a copy from itself at
//     that level, so a candidate is Slower (Faster) only when its
//     interval lies above (below) 0 and beyond the control's by the
//     control's |delta| again; any other is Undecided, and the Reason
//     quotes the control's numbers.
//  4. Otherwise a candidate whose interval lies within [−ε, +ε] is Same;
//     one whose interval lies above 0 and above the control's is Slower;
//     below 0 and below the control's, Faster; anything else is Undecided
//     (interval too wide, or inside the noise floor). A control wider
//     than [ControlWide]·ε is never Same.
//  5. With Options.Gate g > 0, a candidate decided Slower by more than g
//     fails the gate (Estimate.GateFailed); an Undecided one above g does
//     not, and Estimate.GateNote says so.
//
// A Faster or Slower estimate smaller than ε and [PlacementPct] keeps its
// verdict, and its reason says that code placement alone moves identical
// code that much.
func Analyze(base, control Sample, cands []Sample, o Options) (Result, error) {
	o = o.withDefaults()
	if err := checkSamples(base, control, cands); err != nil {
		return Result{}, err
	}
	n := len(base.NsPerOp)
	level, _ := stats.PairedConfidence(o.Confidence, len(cands)+1)
	res := newResult(base.Name, n, 1, level, o)
	if n > 0 {
		res.BaselineNsPerOp, _ = stats.Median(base.NsPerOp)
	}
	est := newEstimator(base.NsPerOp, level, o)
	r := newRule(base.Name, n, level, est.minN, o)
	if o.Unit != "" {
		r.Groups = n
	}
	ctl, ctlOK := est.estimate(control)
	decideAll(&res, r, ctl, ctlOK, len(cands), func(i int) (Estimate, bool) { return est.estimate(cands[i]) })
	return res, nil
}

// AnalyzeGroups computes a comparison from rounds spread over groups of
// processes (forks, or triples of live processes): groups[g] holds group
// g's samples in the order base, control, candidates, each with one time
// per round of that group (groups may have different numbers of rounds).
// The rule is [Analyze]'s with the interval taken over groups: group g's
// estimate m_i(g) is its median over rounds of t_i/t_base; Δ_i is (mean
// over groups of m_i(g) − 1)·100, with Student's t-interval over the
// m_i(g) at the Bonferroni level. With fewer than 2 groups, or a group
// without rounds, every verdict is Undecided. The bootstrap does not
// apply. It returns an error when a group's samples do not pair up (as
// Analyze's) or the groups do not name the same implementations in the
// same order.
func AnalyzeGroups(groups [][]Sample, o Options) (Result, error) {
	o = o.withDefaults()
	if o.Unit == "" {
		o.Unit, o.UnitFix = "forks", "more forks (-benchkit.forks) narrow it"
	}
	if err := checkGroups(groups, singular(o.Unit)); err != nil {
		return Result{}, err
	}
	first := groups[0]
	k := len(first) - 2
	level, _ := stats.PairedConfidence(o.Confidence, k+1)
	res := newResult(first[0].Name, 0, len(groups), level, o)
	var baseNs []float64
	for _, g := range groups {
		res.Rounds += len(g[0].NsPerOp)
		if m, ok := stats.Median(g[0].NsPerOp); ok {
			baseNs = append(baseNs, m)
		}
	}
	res.BaselineNsPerOp, _ = stats.Median(baseNs)
	r := newRule(res.Baseline, res.Rounds, level, stats.ForkMinN, o)
	r.Groups = len(groups)
	r.NoInterval = groupsWithoutRounds(groups, singular(o.Unit))
	ctl, ctlOK := groupEstimate(groups, 1, level)
	ctlOK = ctlOK && r.NoInterval == ""
	decideAll(&res, r, ctl, ctlOK, k, func(i int) (Estimate, bool) { return groupEstimate(groups, 2+i, level) })
	return res, nil
}

func newResult(base string, rounds, forks int, level float64, o Options) Result {
	return Result{Baseline: base, Rounds: rounds, Forks: forks, Confidence: level,
		Negligible: o.Negligible, Gate: o.Gate, Seed: o.Seed}
}

func newRule(base string, n int, level float64, minN int, o Options) rule {
	return rule{Base: base, Eps: o.Negligible, N: n, Level: level, MinN: minN,
		GroupName: o.Unit, GroupFix: o.UnitFix, TooFewFix: o.TooFewFix, Stopped: o.Stopped}
}

// decideAll sets res's control and its k candidates (estimated by cand)
// with their verdicts and gates, and res.GateFailed when a candidate
// failed the gate.
func decideAll(res *Result, r rule, ctl Estimate, ctlOK bool, k int, cand func(i int) (Estimate, bool)) {
	ctl.Verdict, ctl.Reason = r.DecideControl(ctl.bounds(), ctlOK)
	res.Control = ctl
	res.Candidates = make([]Estimate, k)
	for i := range k {
		e, ok := cand(i)
		e.Verdict, e.Reason = r.Decide(ctl.bounds(), ctlOK, e.bounds(), ok)
		e.GateFailed, e.GateNote = gate(e, res.Gate)
		res.Candidates[i] = e
		res.GateFailed = res.GateFailed || e.GateFailed
	}
}

// gate decides a candidate against a gate of g percent (0: none): it
// fails when it is decided Slower by more than g; an undecided estimate
// above g never fails, and note says so.
func gate(e Estimate, g float64) (failed bool, note string) {
	switch {
	case g <= 0:
		return false, ""
	case e.Verdict == Slower && e.DeltaPct > g:
		return true, ""
	case e.Verdict == Undecided && e.DeltaPct > g:
		return false, fmt.Sprintf("gate not applied: %s is above the %.3g%% gate but undecided, and an undecided comparison never fails a gate", textfmt.Pct(e.DeltaPct), g)
	}
	return false, ""
}

func (e Estimate) bounds() interval {
	return interval{DeltaPct: e.DeltaPct, LoPct: e.LoPct, HiPct: e.HiPct}
}

// checkSamples returns an error when the samples do not pair up: an empty
// or duplicate name, a length other than the baseline's, a time that is
// not finite and positive, or a ratio to the baseline beyond 1e±100.
func checkSamples(base, control Sample, cands []Sample) error {
	n := len(base.NsPerOp)
	names := map[string]bool{}
	for _, s := range append([]Sample{base, control}, cands...) {
		if s.Name == "" {
			return errors.New("a sample has an empty name")
		}
		if names[s.Name] {
			return fmt.Errorf("two samples are named %q", s.Name)
		}
		names[s.Name] = true
		if len(s.NsPerOp) != n {
			return fmt.Errorf("sample %q has %d rounds, the baseline %d: every implementation needs one time per round", s.Name, len(s.NsPerOp), n)
		}
		for r, t := range s.NsPerOp {
			if !(t > 0) || math.IsInf(t, 0) {
				return fmt.Errorf("sample %q round %d has time %v: times must be finite and > 0", s.Name, r, t)
			}
			if err := checkRatio(s.Name, r, t, base.NsPerOp[r]); err != nil {
				return err
			}
		}
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
	return fmt.Errorf("sample %q round %d is %s times the baseline's time (%v ns against %v ns): a ratio beyond 1e±%d is not a measurement and has no finite percentage; check the units",
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
// within one group (step 1 of [Analyze]).
type estimator struct {
	base      []float64 // the baseline's ns/op per round
	level     float64   // confidence of each interval
	minN      int       // rounds needed for a finite interval at level
	bootstrap int       // resamples; 0 = sign test
	seed      uint64    // bootstrap seed
}

// newEstimator takes minN from the sign test at level, and at least 2
// with the bootstrap.
func newEstimator(base []float64, level float64, o Options) estimator {
	minN, _ := stats.PairedSignMinN(level)
	if o.Bootstrap > 0 {
		minN = max(minN, 2)
	}
	return estimator{base: base, level: level, minN: minN, bootstrap: o.Bootstrap, seed: o.Seed}
}

// estimate returns s's median ns/op and its median ratio to the baseline
// as DeltaPct with the interval [LoPct, HiPct], and whether that interval
// exists. Without one (no rounds, fewer than minN, or a ratio that cannot
// be formed) both bounds are NaN and ok is false; the Verdict and Reason
// are left to the rule.
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
	e.DeltaPct = pct(med)
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
		e.LoPct, e.HiPct = math.NaN(), math.NaN()
		return e, false
	}
	e.LoPct, e.HiPct = pct(ci.Lo), pct(ci.Hi)
	return e, true
}

// checkGroups checks every group as [Analyze] checks one, and that all
// groups name the same implementations in the same order; unit names a
// group in messages ("fork").
func checkGroups(groups [][]Sample, unit string) error {
	if len(groups) == 0 {
		return fmt.Errorf("no %ss: the analysis needs the samples of at least one process", unit)
	}
	names := sampleNames(groups[0])
	for g, group := range groups {
		if len(group) < 2 {
			return fmt.Errorf("%s %d has %d samples: each %s needs the baseline and the control, then the candidates", unit, g, len(group), unit)
		}
		if err := checkSamples(group[0], group[1], group[2:]); err != nil {
			return fmt.Errorf("%s %d: %w", unit, g, err)
		}
		if got := sampleNames(group); !slices.Equal(got, names) {
			return fmt.Errorf("%s %d has the implementations %v, %s 0 %v: every %s must measure the same ones in the same order", unit, g, got, unit, names, unit)
		}
	}
	return nil
}

func sampleNames(group []Sample) []string {
	names := make([]string, len(group))
	for i, s := range group {
		names[i] = s.Name
	}
	return names
}

// groupsWithoutRounds returns why no interval can be formed over groups (a
// single group, or a group that measured no round), or "".
func groupsWithoutRounds(groups [][]Sample, unit string) string {
	if len(groups) < stats.ForkMinN {
		return fmt.Sprintf("only %s: an interval across processes needs at least %d", textfmt.Plural(len(groups), unit), stats.ForkMinN)
	}
	for g, group := range groups {
		if len(group[0].NsPerOp) == 0 {
			return fmt.Sprintf("%s %d of %d measured no round: raise -benchtime", unit, g+1, len(groups))
		}
	}
	return ""
}

// groupEstimate returns implementation i's estimate over the groups: the
// median of its per-group median ns/op, each group's delta, and the
// t-interval over those deltas; ok is false without an interval.
func groupEstimate(groups [][]Sample, i int, level float64) (e Estimate, ok bool) {
	e.Name = groups[0][i].Name
	var ns, ratios []float64
	for _, g := range groups {
		if m, okm := stats.Median(g[i].NsPerOp); okm {
			ns = append(ns, m)
		}
		rs, okr := stats.PairedRatios(g[0].NsPerOp, g[i].NsPerOp)
		if !okr {
			continue
		}
		m, _ := stats.Median(rs)
		ratios = append(ratios, m)
		e.ForkDeltaPct = append(e.ForkDeltaPct, pct(m))
	}
	e.NsPerOp, _ = stats.Median(ns)
	iv, ok := spread(ratios, level)
	if len(ratios) < len(groups) {
		// A group without a ratio: no interval, the point estimate only.
		iv.LoPct, iv.HiPct, ok = math.NaN(), math.NaN(), false
	}
	e.DeltaPct, e.LoPct, e.HiPct = iv.DeltaPct, iv.LoPct, iv.HiPct
	return e, ok
}

// singular returns a unit's singular: "forks" → "fork".
func singular(unit string) string { return strings.TrimSuffix(unit, "s") }
