package control

import (
	"fmt"
	"strings"

	"github.com/benchkit/go-benchkit/control/verdict"
)

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
//     exceeds ε/2 in size: the harness cannot tell a copy from itself at
//     that level, so a candidate is Slower (Faster) only when its
//     interval lies above (below) 0 and beyond the control's interval by
//     the control's |delta| again; any other is Undecided, and the Reason
//     quotes the control's numbers.
//  4. Otherwise a candidate whose interval lies within [−ε, +ε] is Same;
//     one whose interval lies above 0 and above the control's interval is
//     Slower; below 0 and below the control's interval, Faster; anything
//     else is Undecided (interval too wide, or inside the noise floor).
func Analyze(base, control verdict.Sample, cands []verdict.Sample, opts ...Option) (verdict.Result, error) {
	cfg := buildConfig(opts)
	if len(cfg.errs) > 0 {
		return verdict.Result{}, fmt.Errorf("%s", strings.Join(cfg.errs, "; "))
	}
	return analyze(base, control, cands, cfg)
}

func analyze(base, control verdict.Sample, cands []verdict.Sample, cfg config) (verdict.Result, error) {
	if err := checkReserved(base, cands); err != nil {
		return verdict.Result{}, err
	}
	res, err := verdict.Analyze(base, control, cands, cfg.options())
	if err != nil {
		return verdict.Result{}, fmt.Errorf("control: %w", err)
	}
	return res, nil
}

// checkReserved returns the error [Compare] gives when the baseline or a
// candidate is named [ControlName], which only the control may be.
func checkReserved(base verdict.Sample, cands []verdict.Sample) error {
	for i, s := range append([]verdict.Sample{base}, cands...) {
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

// analyzeForks computes a comparison from rounds spread over several
// processes: forks[f] holds fork f's samples in the order base, control,
// candidates, each with one time per round of that fork (the forks may
// have different numbers of rounds). It is the pure core of [Compare]
// with forks, as [Analyze] is within one process, with the same options
// and the same rule but for the interval: each fork's median ratio, and
// Student's t-interval over the forks (verdict.AnalyzeGroups). The
// bootstrap does not apply.
func analyzeForks(forks [][]verdict.Sample, cfg config) (verdict.Result, error) {
	if len(forks) > 0 && len(forks[0]) > 0 {
		if err := checkReserved(forks[0][0], forks[0][min(2, len(forks[0])):]); err != nil {
			return verdict.Result{}, err
		}
	}
	o := cfg.options()
	o.Bootstrap = 0
	res, err := verdict.AnalyzeGroups(forks, o)
	if err != nil {
		return verdict.Result{}, fmt.Errorf("control: %w", err)
	}
	return res, nil
}
