package control

import (
	"fmt"
	"strings"

	"github.com/benchkit/go-benchkit/control/verdict"
)

// Analyze computes a comparison from per-round times: base and control
// (a second copy of the baseline), and each candidate, all with one time
// per round. It is the pure core of [Compare], with [verdict.Analyze]'s
// rule and Compare's options; it also refuses a baseline or candidate
// named [ControlName], and invalid options.
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
