package control

import (
	"errors"
	"flag"
	"fmt"
	"github.com/benchkit/go-benchkit/control/verdict"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Where the number of forks comes from, besides the Forks option, and
// where a fork finds its share of the budget.
const (
	// forkBudgetEnv holds a fork's budget in ns, forkRoundsEnv its round
	// limit: a fork runs with -test.benchtime=1x, so that b.Loop stops
	// after the one iteration that measures, and reads its share here.
	forkBudgetEnv = "BENCHKIT_FORK_BUDGET"
	forkRoundsEnv = "BENCHKIT_FORK_ROUNDS"
)

// MaxForks is the most processes a comparison may be spread over: beyond
// it each fork's share of the budget is too small to measure anything.
const MaxForks = settings.MaxForks

// minForkRounds is the least number of rounds a fork gets under
// -benchtime=Nx: N rounds are spread over at most N/minForkRounds forks,
// since the median of one or two rounds in a cold process is mostly noise.
const minForkRounds = 5

// resolveForks returns the number of forks asked for: the Forks option
// over DefaultForks, then BENCHKIT_FORKS or -benchkit.forks (when
// benchkit.Main registered it and it was set), read by the rule Main
// checks them with (settings.Forks). A value that is not a whole number
// from 1 to MaxForks is an error naming the fix.
func resolveForks(cfg config, getenv func(string) string, fs *flag.FlagSet) (int, error) {
	n := DefaultForks
	if cfg.forks > 0 {
		n = cfg.forks
	}
	if k, set, err := settings.Forks(getenv, fs); err != nil || set {
		return k, err
	}
	return n, nil
}

// plan is how one Compare call spends its budget.
type plan struct {
	// budget is the whole comparison's, maxRounds its round limit
	// (-benchtime=Nx), over all forks.
	budget    time.Duration
	maxRounds int
	// forks is the number of processes; 1 measures in this one. Fork f
	// (from 0) gets forkBudget and forkRounds(f) rounds at most.
	forks      int
	forkBudget time.Duration
	// procs is the GOMAXPROCS value go test prints for this run, which
	// the forks measure at (-test.cpu).
	procs int
	notes []string
}

// forkRounds returns fork f's round limit: maxRounds spread evenly, the
// first maxRounds mod forks forks getting one more; without a round limit
// (a duration -benchtime) it is the limit itself.
func (p plan) forkRounds(f int) int {
	if p.maxRounds == noRoundLimit || p.forks <= 1 {
		return p.maxRounds
	}
	n := p.maxRounds / p.forks
	if f < p.maxRounds%p.forks {
		n++
	}
	return n
}

// withForks returns p spread over n forks instead.
func (p plan) withForks(n int) plan {
	p.forks = n
	p.forkBudget = p.budget / time.Duration(max(n, 1))
	return p
}

const noRoundLimit = int(^uint(0) >> 1)

// planFor returns the plan of a comparison of 1+k implementations (the
// control aside) under bt, asked to use forks processes. It measures in
// this process, with a note saying why, when a go test flag that writes
// a file is set (the profile must hold the measurement), the test binary
// cannot be re-executed, or -benchtime=Nx has too few rounds to spread;
// in a fork it measures its own share.
func planFor(name string, bt testflag.Benchtime, k, forks, procs int, fs *flag.FlagSet, self func() (string, error)) plan {
	p := plan{forks: 1, maxRounds: noRoundLimit, procs: procs}
	impls := time.Duration(max(2, 1+k))
	p.budget = bt.D * impls
	if bt.N > 0 {
		p.budget = testflag.DefaultBenchtime * impls
		p.maxRounds = bt.N
	}
	if child.Is() {
		return forkPlan(p, os.Getenv)
	}
	fileFlag := child.FileFlag(fs)
	switch {
	case forks <= 1:
		return p
	case name == "" || testflag.Value(fs, "test.bench") == "":
		// testing.Benchmark called from a Test: no -test.bench pattern
		// can select this benchmark in a child.
		p.notes = append(p.notes, "run by testing.Benchmark, not go test -bench: a fork could not select it, so it is measured within this one process; the interval describes this process only")
		return p
	case fileFlag != "":
		// Said once per process: every Compare under the flag stays here.
		if once("forks:" + fileFlag) {
			p.notes = append(p.notes, fmt.Sprintf("-%s is set: measuring within this one process so that the profile holds the measurement (forks would each write their own); the interval describes this process only", fileFlag))
		}
		return p
	case bt.N > 0 && bt.N/minForkRounds < 2:
		p.notes = append(p.notes, fmt.Sprintf("-benchtime=%dx: too few rounds to spread over processes (at least %d each): measuring within this one process; the interval describes this process only", bt.N, minForkRounds))
		return p
	}
	if _, err := self(); err != nil {
		p.notes = append(p.notes, fmt.Sprintf("cannot re-execute the test binary (%v): measuring within this one process; the interval describes this process only", err))
		return p
	}
	if bt.N > 0 {
		forks = min(forks, bt.N/minForkRounds)
	}
	return p.withForks(forks)
}

// forkPlan is a fork's own plan: its budget and round limit from its
// parent (forkBudgetEnv, forkRoundsEnv), else p's.
func forkPlan(p plan, getenv func(string) string) plan {
	if ns, err := strconv.ParseInt(getenv(forkBudgetEnv), 10, 64); err == nil && ns > 0 {
		p.budget = time.Duration(ns)
	}
	if n, err := strconv.Atoi(getenv(forkRoundsEnv)); err == nil && n > 0 {
		p.maxRounds = n
	}
	return p
}

// forkResult is what a fork hands back to its parent through the result
// file: its measurement, in a form encoding/json carries.
type forkResult struct {
	Names       []string    `json:"names"`
	NsPerOp     [][]float64 `json:"ns_per_op"` // per implementation, per round
	Iters       int         `json:"iters"`
	Overhead    float64     `json:"overhead_ns"`
	FixedNs     int64       `json:"fixed_ns"`
	AllocsPerOp float64     `json:"allocs_per_op"`
	BytesPerOp  float64     `json:"bytes_per_op"`
	Stopped     string      `json:"stopped"`
	Warnings    []string    `json:"warnings"`
	ElapsedNs   int64       `json:"elapsed_ns"`
	// ProbeNs is one call of each implementation, in ns, timed before
	// anything else; NeedNs what a fork needs to measure at all
	// (measurement.need), 0 when unknown.
	ProbeNs []float64 `json:"probe_ns"`
	NeedNs  int64     `json:"need_ns"`
	// Skipped holds the reason an implementation gave b.Skip in the
	// fork, "" when none skipped.
	Skipped string `json:"skipped"`
}

func newForkResult(impls []Impl, ms measurement) forkResult {
	return forkResult{NsPerOp: ms.ns, Iters: ms.iters, Overhead: ms.overhead, FixedNs: int64(ms.fixed),
		AllocsPerOp: ms.allocsPerOp, BytesPerOp: ms.bytesPerOp, Stopped: ms.stopped, Warnings: ms.warnings,
		ElapsedNs: int64(ms.elapsed), Names: implNames(impls), ProbeNs: ms.probeNs, NeedNs: int64(ms.need())}
}

// implNames returns the implementations' names, in order.
func implNames(impls []Impl) []string {
	names := make([]string, len(impls))
	for i, im := range impls {
		names[i] = im.name
	}
	return names
}

// samples returns the fork's rounds as Samples, base first.
func (fr forkResult) samples() []verdict.Sample {
	out := make([]verdict.Sample, len(fr.Names))
	for i, name := range fr.Names {
		out[i] = verdict.Sample{Name: name}
		if i < len(fr.NsPerOp) {
			out[i].NsPerOp = fr.NsPerOp[i]
		}
	}
	return out
}

// forkRun is the outcome of running the forks.
type forkRun struct {
	frs []forkResult // the forks that measured, in order
	// skipped says why a fork was left out, stopped why measuring stopped
	// in too many of them ("" when not), skip the reason an
	// implementation skipped the benchmark.
	skipped, stopped, skip string
	// fewer, when > 0, is the number of forks the slowest implementation
	// leaves room for: the caller measures again with that many.
	fewer int
	need  time.Duration
	// probe is a stopped fork's one call of each implementation.
	probe []float64
}

// needMargin is how many times a fork's estimated need its share of the
// budget must be when the comparison moves to fewer forks: the need comes
// from one call of each implementation, and the rounds also pay for
// calibration and the timer, so a share of exactly the need stops short
// again.
const needMargin = 1.5

// fewerForks is the number of forks of budget whose shares hold need
// with needMargin to spare: ⌊budget/(need × needMargin)⌋, at least 1.
func fewerForks(budget, need time.Duration) int {
	return max(1, int(float64(budget)/(float64(need)*needMargin)))
}

// runForks runs p.forks children, one at a time, each measuring the
// benchmark named name with its share of the budget. A child that fails,
// panics or passes its deadline is an error carrying its exit status and
// output; one that could not be started at all is an error the caller
// answers by measuring in this process (started false).
//
// A fork that stops early is left out when at least two others measure:
// one stall on a loaded machine should not void the others. The budget's
// share is too small when the first fork stops, or a second one does,
// with a need (from its own probe) beyond the share: the run ends with
// fewer set, so that the caller measures again with fewer, longer forks.
// A second stop without that need ends the comparison as stopped.
func runForks(name string, impls []Impl, p plan, dir string, fs *flag.FlagSet) (out forkRun, started bool, err error) {
	exe, err := child.Self()
	if err != nil {
		return out, false, err
	}
	want := implNames(impls)
	var stopped []forkResult
	for f := range p.forks {
		fr, started, err := runFork(name, exe, dir, f, p, fs, want)
		switch {
		case err != nil:
			return out, started, err
		case fr.Skipped != "":
			out.skip = fr.Skipped
			return out, true, nil
		case fr.Stopped == "":
			out.frs = append(out.frs, fr)
			continue
		}
		fr.Stopped = fmt.Sprintf("%s (in fork %d of %d, whose share of the budget is %s of %s)", fr.Stopped, f+1, p.forks, textfmt.Dur(p.forkBudget), textfmt.Dur(p.budget))
		stopped = append(stopped, fr)
		if len(out.frs) > 0 && len(stopped) == 1 {
			continue // perhaps a stall: the next forks tell
		}
		if need := maxNeed(stopped); need > p.forkBudget {
			out.need, out.fewer = need, fewerForks(p.budget, need)
			return out, true, nil
		}
		if len(stopped) > 1 {
			out.stopped, out.probe = stopped[0].Stopped, stopped[0].ProbeNs
			return out, true, nil
		}
	}
	if len(stopped) == 1 {
		if len(out.frs) < 2 {
			out.stopped, out.probe = stopped[0].Stopped, stopped[0].ProbeNs
			return out, true, nil
		}
		out.skipped = fmt.Sprintf("left out one fork that stopped early: %s; the interval is over the other %d", stopped[0].Stopped, len(out.frs))
	}
	return out, true, nil
}

// maxNeed returns the largest need among the stopped forks.
func maxNeed(frs []forkResult) time.Duration {
	var need time.Duration
	for _, fr := range frs {
		need = max(need, time.Duration(fr.NeedNs))
	}
	return need
}

// runFork runs fork f (from 0) of p and reads its result. started is
// false when the first fork could not be started at all.
func runFork(name, exe, dir string, f int, p plan, fs *flag.FlagSet, want []string) (fr forkResult, started bool, err error) {
	file := filepath.Join(dir, fmt.Sprintf("fork%d.json", f+1))
	env := append(child.Env(name, file), child.ChildEnv(dir)...)
	env = append(env, forkBudgetEnv+"="+strconv.FormatInt(int64(p.forkBudget), 10), forkRoundsEnv+"="+strconv.Itoa(p.forkRounds(f)))
	spec := child.Spec{Path: exe, Args: child.Args(fs, name, "1x", p.procs), Env: env, Timeout: child.Deadline(p.forkBudget)}
	r, err := child.Run(spec)
	var ce *child.Error
	switch {
	case err != nil && f == 0 && !errors.As(err, &ce):
		return fr, false, err
	case err != nil:
		return fr, true, fmt.Errorf("control: fork %d of %d of %s failed: %w", f+1, p.forks, name, err)
	}
	if err := child.ReadResult(file, &fr); err != nil {
		return fr, true, fmt.Errorf("control: fork %d of %d of %s: %v; its output:\n%s", f+1, p.forks, name, err, child.Tail(r, 40))
	}
	if fr.Skipped == "" && !slices.Equal(fr.Names, want) {
		return fr, true, fmt.Errorf("control: fork %d of %d of %s measured %v, not %v: the benchmark must build the same implementations in every process", f+1, p.forks, name, fr.Names, want)
	}
	return fr, true, nil
}

// combine summarises the forks' measurements for the result and the
// metrics: the median count per batch, closure overhead, fixed cost and
// allocations, every distinct warning, and the first reason a fork
// stopped.
func combine(frs []forkResult) measurement {
	ms := measurement{allocsPerOp: -1, bytesPerOp: -1}
	var iters, over, fixed, allocs, bytes []float64
	var seen warningSet
	for _, fr := range frs {
		iters = append(iters, float64(fr.Iters))
		over = append(over, fr.Overhead)
		fixed = append(fixed, float64(fr.FixedNs))
		if fr.AllocsPerOp >= 0 {
			allocs, bytes = append(allocs, fr.AllocsPerOp), append(bytes, fr.BytesPerOp)
		}
		for _, w := range fr.Warnings {
			seen.add(w)
		}
		if ms.stopped == "" {
			ms.stopped = fr.Stopped
		}
		ms.elapsed += time.Duration(fr.ElapsedNs)
		ms.ns = appendRounds(ms.ns, fr.NsPerOp)
	}
	ms.warnings = seen.list(len(frs))
	m, _ := stats.Median(iters)
	ms.iters = int(m)
	ms.overhead, _ = stats.Median(over)
	f, _ := stats.Median(fixed)
	ms.fixed = time.Duration(f)
	if a, ok := stats.Median(allocs); ok {
		ms.allocsPerOp = a
		ms.bytesPerOp, _ = stats.Median(bytes)
	}
	return ms
}

// appendRounds appends a fork's per-implementation rounds to all's, one
// fork after another, so that round r of every implementation stays the
// same round; a fork whose implementations hold different round counts
// (none do) contributes only the rounds they all have.
func appendRounds(all, fork [][]float64) [][]float64 {
	if len(fork) == 0 {
		return all
	}
	if all == nil {
		all = make([][]float64, len(fork))
	}
	if len(all) != len(fork) {
		return all
	}
	n := len(fork[0])
	for _, ns := range fork {
		n = min(n, len(ns))
	}
	for i, ns := range fork {
		all[i] = append(all[i], ns[:n]...)
	}
	return all
}

// forkedResult analyses the forks' rounds with analyzeForks's rule.
func forkedResult(frs []forkResult, ms measurement, cfg config, budget time.Duration) verdict.Result {
	forks := make([][]verdict.Sample, len(frs))
	for f, fr := range frs {
		forks[f] = fr.samples()
	}
	cfg.stopped = ms.stopped
	res, err := analyzeForks(forks, cfg)
	if err != nil {
		// The children measured the implementations runForks checked.
		panic("control: internal error: " + err.Error())
	}
	return finish(res, ms, budget)
}

// childTarget reports whether this process is a fork started to measure
// the benchmark b.
func childTarget(b *testing.B) bool {
	name, _, ok := child.Target()
	return ok && name == b.Name()
}

// forksLine is the log line listing each implementation's per-fork
// deltas, "" when no fork measured a round.
func forksLine(res verdict.Result) string {
	if len(res.Control.ForkDeltaPct) == 0 {
		return ""
	}
	var parts []string
	for _, e := range append([]verdict.Estimate{res.Control}, res.Candidates...) {
		ds := make([]string, len(e.ForkDeltaPct))
		for i, d := range e.ForkDeltaPct {
			ds[i] = fmt.Sprintf("%+.2f", d)
		}
		parts = append(parts, e.Name+" "+strings.Join(ds, " "))
	}
	return fmt.Sprintf("control: per fork (%%): %s; %s", strings.Join(parts, "; "), textfmt.Plural(res.Forks, "fork"))
}

// numberRE matches a number with its unit ("660µs", "2.265ms", "1868").
var numberRE = regexp.MustCompile(`[0-9][0-9.]*[a-zµ%]*`)

// warningSet gathers the forks' warnings by kind: the same condition in
// several forks, with different numbers, is one warning, the first fork's
// words, followed by how many forks raised it.
type warningSet struct {
	keys  []string
	first map[string]string
	count map[string]int
}

func (ws *warningSet) add(w string) {
	if ws.first == nil {
		ws.first, ws.count = map[string]string{}, map[string]int{}
	}
	k := numberRE.ReplaceAllString(w, "#")
	if _, ok := ws.first[k]; !ok {
		ws.keys = append(ws.keys, k)
		ws.first[k] = w
	}
	ws.count[k]++
}

// list returns one line per kind, "(in k of forks forks)" added when more
// than one fork ran.
func (ws *warningSet) list(forks int) []string {
	out := make([]string, 0, len(ws.keys))
	for _, k := range ws.keys {
		w := ws.first[k]
		if forks > 1 {
			w += fmt.Sprintf(" (in %d of %d forks)", ws.count[k], forks)
		}
		out = append(out, w)
	}
	return out
}
