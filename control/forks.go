package control

import (
	"fmt"

	"github.com/benchkit/go-benchkit/internal/verdict"
)

// analyzeForks computes a comparison from rounds spread over several
// processes: forks[f] holds fork f's samples in the order base, control,
// candidates, each with one time per round of that fork (the forks may
// have different numbers of rounds). It is the pure core of [Compare]
// with forks, as [Analyze] is within one process, with the same options
// and the same rule but for the interval: each fork's median ratio, and
// Student's t-interval over the forks (verdict.AnalyzeGroups). The
// bootstrap does not apply.
func analyzeForks(forks [][]Sample, cfg config) (Result, error) {
	if len(forks) > 0 && len(forks[0]) > 0 {
		if err := checkReserved(forks[0][0], forks[0][min(2, len(forks[0])):]); err != nil {
			return Result{}, err
		}
	}
	o := cfg.options()
	o.Bootstrap = 0
	res, err := verdict.AnalyzeGroups(forks, o)
	if err != nil {
		return Result{}, fmt.Errorf("control: %w", err)
	}
	return res, nil
}
