package control

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Where the number of forks comes from, besides the Forks option.
const (
	forksEnv  = "BENCHKIT_FORKS"
	forksFlag = "benchkit.forks"
)

// resolveForks returns the number of forks asked for: the Forks option
// over DefaultForks, then BENCHKIT_FORKS, then -benchkit.forks when
// benchkit.Main registered it and it was set. A value that is not a whole
// number ≥ 1 is an error naming the fix.
func resolveForks(cfg config, getenv func(string) string, fs *flag.FlagSet) (int, error) {
	n := DefaultForks
	if cfg.forks > 0 {
		n = cfg.forks
	}
	parse := func(what, v string) (int, error) {
		k, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || k < 1 {
			return 0, fmt.Errorf("control: %s=%s is not a number of processes: use a whole number ≥ 1, like 5 (1 measures within one process)", what, v)
		}
		return k, nil
	}
	if v := getenv(forksEnv); v != "" {
		k, err := parse("environment variable "+forksEnv, v)
		if err != nil {
			return 0, err
		}
		n = k
	}
	if testflag.IsSet(fs, forksFlag) {
		k, err := parse("flag -"+forksFlag, fs.Lookup(forksFlag).Value.String())
		if err != nil {
			return 0, err
		}
		n = k
	}
	return n, nil
}

// plan is how one Compare call spends its budget.
type plan struct {
	// budget is the whole comparison's, maxRounds its round limit
	// (-benchtime=Nx), over all forks.
	budget    time.Duration
	maxRounds int
	// forks is the number of processes; 1 measures in this one. share is
	// each fork's -test.benchtime, forkBudget its budget.
	forks      int
	share      string
	forkBudget time.Duration
	notes      []string
}

// planFor returns the plan of a comparison of 1+k implementations (the
// control aside) under bt, asked to use forks processes. It measures in
// this process, with a note saying why, when a go test flag that writes
// a file is set (the profile must hold the measurement) or the test binary
// cannot be found; in a child it always does.
func planFor(name string, bt testflag.Benchtime, k, forks int, fs *flag.FlagSet, executable func() (string, error)) plan {
	p := plan{forks: 1, maxRounds: int(^uint(0) >> 1)}
	impls := time.Duration(max(2, 1+k))
	p.budget = bt.D * impls
	if bt.N > 0 {
		p.budget = testflag.DefaultBenchtime * impls
		p.maxRounds = bt.N
		forks = min(forks, bt.N)
	}
	fileFlag := child.FileFlag(fs)
	switch {
	case forks <= 1 || child.Is():
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
	}
	if _, err := executable(); err != nil {
		p.notes = append(p.notes, fmt.Sprintf("cannot re-execute the test binary (%v): measuring within this one process; the interval describes this process only", err))
		return p
	}
	p.forks = forks
	if bt.N > 0 {
		per := (bt.N + forks - 1) / forks
		p.share, p.maxRounds = strconv.Itoa(per)+"x", per
		p.forkBudget = p.budget / time.Duration(forks)
		return p
	}
	share := max(bt.D/time.Duration(forks), time.Millisecond)
	p.share, p.forkBudget = share.String(), share*impls
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
}

func newForkResult(impls []Impl, ms measurement) forkResult {
	fr := forkResult{NsPerOp: ms.ns, Iters: ms.iters, Overhead: ms.overhead, FixedNs: int64(ms.fixed),
		AllocsPerOp: ms.allocsPerOp, BytesPerOp: ms.bytesPerOp, Stopped: ms.stopped, Warnings: ms.warnings,
		ElapsedNs: int64(ms.elapsed), Names: implNames(impls)}
	return fr
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
func (fr forkResult) samples() []Sample {
	out := make([]Sample, len(fr.Names))
	for i, name := range fr.Names {
		out[i] = Sample{Name: name}
		if i < len(fr.NsPerOp) {
			out[i].NsPerOp = fr.NsPerOp[i]
		}
	}
	return out
}

// runForks runs p.forks children, one at a time, each measuring the
// benchmark named name with p.share of the time, and returns their
// results. started is false when the first child could not even be
// started (re-execution is impossible here): the caller then measures in
// this process. A child that fails, panics or passes its deadline is an
// error carrying its exit status and output.
//
// A fork that stops measuring early (its share of the budget too small,
// or another process holding the CPU past its deadline) is left out with
// a warning, skipped, when it is the only one and at least two others
// measured: one stall on a loaded machine should not void the other
// forks. A second stopped fork ends the comparison as stopped, since the
// share is then probably too small for every fork.
func runForks(name string, impls []Impl, p plan, dir string, fs *flag.FlagSet) (frs []forkResult, skipped string, started bool, err error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, "", false, err
	}
	want := implNames(impls)
	var stopped []forkResult
	for f := range p.forks {
		fr, started, err := runFork(name, exe, filepath.Join(dir, fmt.Sprintf("fork%d.json", f+1)), f, p, fs, want)
		if err != nil {
			return nil, "", started, err
		}
		if fr.Stopped == "" {
			frs = append(frs, fr)
			continue
		}
		fr.Stopped = fmt.Sprintf("%s (in fork %d of %d, whose share of the budget is %s of %s; fewer forks, -benchkit.forks=1, give each more)",
			fr.Stopped, f+1, p.forks, textfmt.Dur(p.forkBudget), textfmt.Dur(p.budget))
		if stopped = append(stopped, fr); len(stopped) > 1 {
			return append(frs, stopped[0]), "", true, nil
		}
	}
	if len(stopped) == 1 {
		if len(frs) < 2 {
			return append(frs, stopped[0]), "", true, nil
		}
		skipped = fmt.Sprintf("left out one fork that stopped early: %s; the interval is over the other %d", stopped[0].Stopped, len(frs))
	}
	return frs, skipped, true, nil
}

// runFork runs fork f (from 0) and reads its result from file. started
// is false when the first fork could not be started at all.
func runFork(name, exe, file string, f int, p plan, fs *flag.FlagSet, want []string) (fr forkResult, started bool, err error) {
	spec := child.Spec{Path: exe, Args: child.Args(fs, name, p.share, runtime.GOMAXPROCS(0)),
		Env: child.Env(name, file), Timeout: child.Deadline(p.forkBudget)}
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
	if !slices.Equal(fr.Names, want) {
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

// forkedResult analyses the forks' rounds with [AnalyzeForks]' rule.
func forkedResult(frs []forkResult, ms measurement, cfg config, budget time.Duration) Result {
	forks := make([][]Sample, len(frs))
	for f, fr := range frs {
		forks[f] = fr.samples()
	}
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
func forksLine(res Result) string {
	if len(res.Control.ForkDeltaPct) == 0 {
		return ""
	}
	var parts []string
	for _, e := range append([]Estimate{res.Control}, res.Candidates...) {
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
