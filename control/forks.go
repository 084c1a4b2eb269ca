package control

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"github.com/benchkit/go-benchkit/internal/verdict"
)

// AnalyzeForks computes a comparison from rounds spread over several
// processes: forks[f] holds fork f's samples in the order base, control,
// candidates, each with one time per round of that fork (the forks may
// have different numbers of rounds). It is the pure core of [Compare]
// with forks, as [Analyze] is within one process, and applies the same
// options and the same verdict rule with one change, the interval:
//
//  1. Per fork f and implementation i, the fork's estimate is the median
//     over its rounds of t_i/t_base, m_i(f).
//  2. Δ_i is (mean over forks of m_i(f) − 1)·100, and its interval
//     Student's t-interval over the forks' estimates at the Bonferroni
//     level, stats.ForkInterval. Each fork's estimate carries its own
//     sampling error and the forks' spread adds what differs between
//     processes, so the interval holds across processes, where a sign-test
//     interval over one process's rounds does not. The control gets the
//     same treatment: the noise floor includes process-to-process
//     variation.
//  3. Fewer than 2 forks, or a fork without rounds: every verdict is
//     Undecided.
//
// Bootstrap does not apply. It returns an error when a fork's samples do
// not pair up (as Analyze's), when the forks do not name the same
// implementations in the same order, or an option is invalid.
func AnalyzeForks(forks [][]Sample, opts ...Option) (Result, error) {
	cfg := buildConfig(opts)
	if len(cfg.errs) > 0 {
		return Result{}, fmt.Errorf("%s", strings.Join(cfg.errs, "; "))
	}
	return analyzeForks(forks, cfg)
}

func analyzeForks(forks [][]Sample, cfg config) (Result, error) {
	if err := checkForks(forks); err != nil {
		return Result{}, err
	}
	first := forks[0]
	cands := first[2:]
	level, _ := stats.PairedConfidence(cfg.confidence, len(cands)+1)
	res := Result{Baseline: first[0].Name, Forks: len(forks), Confidence: level,
		Negligible: cfg.negligible, Gate: cfg.gate, Seed: cfg.seed}
	var baseNs []float64
	for _, f := range forks {
		res.Rounds += len(f[0].NsPerOp)
		if m, ok := stats.Median(f[0].NsPerOp); ok {
			baseNs = append(baseNs, m)
		}
	}
	res.BaselineNsPerOp, _ = stats.Median(baseNs)
	r := rule{base: res.Baseline, eps: cfg.negligible, n: res.Rounds, level: level, minN: stats.ForkMinN, forks: len(forks)}
	if why := forksWithoutRounds(forks); why != "" {
		r.noInterval = why
	}

	ctl, ctlOK := forkEstimate(forks, 1, level)
	ctl.Verdict, ctl.Reason = r.decideControl(ctl, ctlOK && r.noInterval == "")
	res.Control = ctl
	res.Candidates = make([]Estimate, len(cands))
	for i := range cands {
		e, ok := forkEstimate(forks, 2+i, level)
		e.Verdict, e.Reason = r.decide(ctl, ctlOK && r.noInterval == "", e, ok)
		res.Candidates[i] = e
		if cfg.gate > 0 && e.Verdict == Slower && e.DeltaPct > cfg.gate {
			res.GateFailed = true
		}
	}
	return res, nil
}

// checkForks checks every fork as [Analyze] checks one process, and that
// all forks name the same implementations in the same order.
func checkForks(forks [][]Sample) error {
	if len(forks) == 0 {
		return fmt.Errorf("control: no forks: AnalyzeForks needs the samples of at least one process")
	}
	names := sampleNames(forks[0])
	for f, fork := range forks {
		if len(fork) < 2 {
			return fmt.Errorf("control: fork %d has %d samples: each fork needs the baseline and the control, then the candidates", f, len(fork))
		}
		if err := checkSamples(fork[0], fork[1], fork[2:]); err != nil {
			return fmt.Errorf("control: fork %d: %w", f, err)
		}
		if got := sampleNames(fork); !slices.Equal(got, names) {
			return fmt.Errorf("control: fork %d has the implementations %v, fork 0 %v: every fork must measure the same ones in the same order", f, got, names)
		}
	}
	return nil
}

func sampleNames(fork []Sample) []string {
	names := make([]string, len(fork))
	for i, s := range fork {
		names[i] = s.Name
	}
	return names
}

// forksWithoutRounds returns why no interval can be formed over forks (a
// single fork, or a fork that measured no round), or "".
func forksWithoutRounds(forks [][]Sample) string {
	if len(forks) < stats.ForkMinN {
		return fmt.Sprintf("only %s: an interval across processes needs at least %d", textfmt.Plural(len(forks), "fork"), stats.ForkMinN)
	}
	for f, fork := range forks {
		if len(fork[0].NsPerOp) == 0 {
			return fmt.Sprintf("fork %d of %d measured no round: raise -benchtime", f+1, len(forks))
		}
	}
	return ""
}

// forkEstimate returns implementation i's estimate over the forks: the
// median of its per-fork median ns/op, each fork's delta, and the
// t-interval over those deltas; ok is false without an interval.
func forkEstimate(forks [][]Sample, i int, level float64) (e Estimate, ok bool) {
	e.Name = forks[0][i].Name
	var ns, ratios []float64
	for _, fork := range forks {
		if m, okm := stats.Median(fork[i].NsPerOp); okm {
			ns = append(ns, m)
		}
		rs, okr := stats.PairedRatios(fork[0].NsPerOp, fork[i].NsPerOp)
		if !okr {
			continue
		}
		m, _ := stats.Median(rs)
		ratios = append(ratios, m)
		e.ForkDeltaPct = append(e.ForkDeltaPct, verdict.Pct(m))
	}
	e.NsPerOp, _ = stats.Median(ns)
	iv, ok := verdict.Spread(ratios, level)
	if len(ratios) < len(forks) {
		// A fork without a ratio: no interval, the point estimate only.
		iv.LoPct, iv.HiPct, ok = iv.DeltaPct, iv.DeltaPct, false
	}
	e.DeltaPct, e.LoPct, e.HiPct = iv.DeltaPct, iv.LoPct, iv.HiPct
	return e, ok
}
