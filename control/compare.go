package control

import (
	"flag"
	"fmt"
	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/settings"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/testingb"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Comparer runs comparisons with a fixed set of options. The zero value
// uses the defaults; [With] makes one with options.
type Comparer struct {
	opts []Option
}

// With returns a Comparer that applies opts to every comparison it runs:
//
//	control.With(control.Gate(5)).Compare(b, old, new)
func With(opts ...Option) Comparer { return Comparer{opts: opts} }

// Compare is With().Compare: see [Comparer.Compare].
func Compare(b *testing.B, base Impl, cands ...Impl) verdict.Result {
	b.Helper()
	return Comparer{}.Compare(b, base, cands...)
}

// Compare measures base, a control copy of base and each candidate inside
// the one benchmark b, interleaved, and reports the verdicts. Call it once,
// as the whole body of a benchmark function (see the package doc). It
// spends about -benchtime × max(2, 1 + len(cands)) in all, reports the
// metrics on b's line (ns/op is the baseline's median time per call), logs
// one verdict per candidate by [verdict.Analyze]'s rule, records the
// result for benchkit's report and returns it. With [Gate], a decided
// regression beyond the threshold fails b with b.Errorf, once, on the
// combined result. An implementation slower than the whole budget fails
// nothing: the verdict is Undecided and says so.
//
// With forks, the Result combines them. Code before Compare runs in every
// fork too; in a fork Compare does not return, so that the code after it,
// b's cleanups and TestMain's teardown run in the parent only (see
// benchkit.IsChild). A fork that fails fails b, with its output. An
// implementation that calls b.Skip skips b, in forks too.
//
// Compare fails b for a bad call (a zero Impl, a nil function, a bad
// name, an invalid option, a second Compare in one benchmark function) and
// for an implementation that panics, naming it, with its stack. Called
// from a RunParallel body or from two goroutines sharing b, it panics with
// the fix, since b.Fatal may not be called off the benchmark goroutine.
func (c Comparer) Compare(b *testing.B, base Impl, cands ...Impl) verdict.Result {
	b.Helper()
	cfg := buildConfig(c.opts)
	if len(cfg.errs) > 0 {
		b.Fatalf("%s", strings.Join(cfg.errs, "; "))
	}
	impls, err := validate(base, cands)
	if err == nil {
		err = checkUnits(impls)
	}
	if err != nil {
		b.Fatalf("%v", err)
	}
	release := enter(b, "Compare")
	defer release()
	defer failOnPanic(b) // an implementation's panic fails b, with its stack
	if !cfg.seedSet {
		cfg.seed = uint64(time.Now().UnixNano())
	}

	forks, err := resolveForks(cfg, os.Getenv, flag.CommandLine)
	if err != nil {
		b.Fatalf("%v", err)
	}
	child.Watch()
	procs := testingb.Procs(b)
	defer setProcs(procs)()
	bt := testflag.Read()
	p := planFor(b.Name(), bt, len(cands), forks, procs, flag.CommandLine, child.Self)
	if childTarget(b) {
		measureFork(b, impls, p, cfg) // hands the measurement over and ends the process
	}
	notes := p.notes
	if bt.N > 0 {
		notes = append(notes, fmt.Sprintf("-benchtime=%dx: running %s within a %s budget; a verdict needs -benchtime=1s (or ≥ 10x) or more", bt.N, textfmt.Plural(bt.N, "round"), textfmt.Dur(p.budget)))
	}
	if n := testflag.Count(); n > 1 && once(b.Name()) {
		notes = append(notes, fmt.Sprintf("-count=%d: Compare interleaves inside each run, so -count multiplies the cost by %d; -count=1 is enough", n, n))
	}

	var o outcome
	done := false
	for b.Loop() {
		if !done {
			done = true
			o = c.run(b.Name(), impls, p, cfg)
		}
	}
	switch {
	case o.err != nil:
		b.Fatalf("%v", o.err)
	case o.skip != "":
		b.Skipf("control: an implementation skipped the benchmark in its fork: %s", o.skip)
	}
	report(b, o.res, o.ms, append(notes, o.notes...))
	return o.res
}

// setProcs sets GOMAXPROCS to procs, the value go test prints for this
// run, and returns the function that restores it: testing makes a
// benchmark's first call before it sets the first -cpu value
// (golang/go#49980), and Compare measures everything in that call.
func setProcs(procs int) (restore func()) {
	if procs < 1 || runtime.GOMAXPROCS(0) == procs {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(procs)
	return func() { runtime.GOMAXPROCS(prev) }
}

// outcome is what run measured: the Result and the measurement behind
// it, notes for the log, or the reason an implementation skipped, or an
// error that fails the benchmark.
type outcome struct {
	res   verdict.Result
	ms    measurement
	notes []string
	skip  string
	err   error
}

// run measures the comparison in forks, or in this process, and analyses
// the rounds. When the forks cannot be started, or the slowest
// implementation leaves room for a single process, it measures in this
// process and says why; when it leaves room for fewer forks, it measures
// again with that many.
func (c Comparer) run(name string, impls []Impl, p plan, cfg config) outcome {
	var notes []string
	for p.forks > 1 {
		dir, remove, err := child.TempDir("benchkit-forks-")
		if err != nil {
			notes = append(notes, err.Error()+"; measured within this one process, and the interval describes this process only")
			break
		}
		fr, started, err := runForks(name, impls, p, dir, flag.CommandLine)
		remove()
		switch {
		case err != nil && started:
			return outcome{err: err}
		case err != nil:
			notes = append(notes, fmt.Sprintf("could not start a fork (%v): measured within this one process; the interval describes this process only", err))
		case fr.skip != "":
			return outcome{skip: fr.skip}
		case fr.fewer > 0 && fr.fewer < p.forks:
			notes = append(notes, fewerForksNote(p, fr))
			p = p.withForks(fr.fewer)
			continue
		default:
			ms := combine(fr.frs)
			ms.stopped = fr.stopped
			if fr.skipped != "" {
				ms.warnings = append(ms.warnings, fr.skipped)
			}
			if len(fr.frs) == 0 {
				// Every fork stopped before a round: nothing to analyse
				// but the probe.
				ms.probeNs = fr.probe
				res := result(impls, ms, cfg, p.budget)
				res.Forks = p.forks
				return outcome{res: res, ms: ms, notes: notes}
			}
			return outcome{res: forkedResult(fr.frs, ms, cfg, p.budget), ms: ms, notes: notes}
		}
		break
	}
	ms := measure(impls, p.budget, p.maxRounds, cfg)
	return outcome{res: result(impls, ms, cfg, p.budget), ms: ms, notes: notes}
}

// fewerForksNote says why a comparison runs in fewer forks than asked.
func fewerForksNote(p plan, fr forkRun) string {
	where := fmt.Sprintf("in %d forks of %s each", fr.fewer, textfmt.Dur(p.budget/time.Duration(fr.fewer)))
	if fr.fewer == 1 {
		where = "within this one process (the interval then describes this process only)"
	}
	return fmt.Sprintf("an implementation is slow: a fork needs about %s to measure %d rounds, more than the %s each of %d forks would get, so it is measured %s; a longer -benchtime gives it more forks",
		textfmt.Dur(fr.need), minRounds, textfmt.Dur(p.forkBudget), p.forks, where)
}

// measureFork is Compare in a fork started for b: it measures b's share,
// writes the measurement to the parent's result file and ends the
// process, so that nothing after Compare (the caller's code, b's
// cleanups, TestMain's teardown) runs in a fork. An implementation that
// calls b.Skip is handed over as a skip, with its reason.
func measureFork(b *testing.B, impls []Impl, p plan, cfg config) {
	b.Helper()
	defer func() {
		if b.Skipped() {
			reason := strings.TrimSpace(testingb.Output(b))
			if reason == "" {
				reason = "(no reason given)"
			}
			if err := child.WriteResult(forkResult{Names: implNames(impls), Skipped: reason}); err == nil {
				child.Done()
			}
		}
	}()
	ms := measure(impls, p.budget, p.maxRounds, cfg)
	if err := child.WriteResult(newForkResult(impls, ms)); err != nil {
		b.Fatalf("control: fork of %s: %v", b.Name(), err)
	}
	child.Done()
}

// result turns a measurement into a Result.
func result(impls []Impl, ms measurement, cfg config, budget time.Duration) verdict.Result {
	samples := make([]verdict.Sample, len(impls))
	for i, im := range impls {
		samples[i] = verdict.Sample{Name: im.name}
		if ms.ns != nil {
			samples[i].NsPerOp = ms.ns[i]
		}
	}
	cfg.stopped = ms.stopped
	res, err := analyze(samples[0], samples[1], samples[2:], cfg)
	if err != nil {
		// Measured times are positive and paired by construction.
		panic("control: internal error: " + err.Error())
	}
	return finish(res, ms, budget)
}

// finish adds the measurement's details to an analysed Result: the count
// per batch, the closure overhead, the budget, the warnings and the
// closure-overhead warning.
func finish(res verdict.Result, ms measurement, budget time.Duration) verdict.Result {
	if res.Rounds == 0 && len(ms.probeNs) == 2+len(res.Candidates) {
		// Nothing but the probe measured: its one call of each is the
		// only time there is, and the line shows it rather than nothing.
		res.BaselineNsPerOp, res.Control.NsPerOp = ms.probeNs[0], ms.probeNs[1]
		for i := range res.Candidates {
			res.Candidates[i].NsPerOp = ms.probeNs[2+i]
		}
		res.Warnings = append(res.Warnings, "no round was measured: each ns/op here is one call, timed before calibration")
	}
	res.BatchIters = ms.iters
	res.OverheadNsPerOp = ms.overhead
	res.BudgetNs = float64(budget)
	res.Warnings = append(res.Warnings, ms.warnings...)
	switch {
	case res.BaselineNsPerOp > 0 && ms.overhead >= res.BaselineNsPerOp:
		// The empty closure cannot cost more than a call that includes
		// it: the work was optimised away, or the overhead's calibration
		// was disturbed. Δ·(t−o)/t would be meaningless.
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"the closure call alone measured %.2g ns, no less than %s's %.3g ns/op, which includes it: the work may have been optimised away (return its result from the func) or the calibration was disturbed; the ratios here are not trustworthy, compare larger units of work",
			ms.overhead, res.Baseline, res.BaselineNsPerOp))
	case res.BaselineNsPerOp > 0 && ms.overhead > 0.1*res.BaselineNsPerOp:
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"the closure call costs %.2g ns, %.0f%% of %s's %.3g ns/op: every ratio is pulled toward 0%% (a true difference Δ shows as about Δ·(t−o)/t); compare larger units of work",
			ms.overhead, 100*ms.overhead/res.BaselineNsPerOp, res.Baseline, res.BaselineNsPerOp))
	}
	return res
}

// report writes the metrics, the log lines and the registry record.
func report(b *testing.B, res verdict.Result, ms measurement, notes []string) {
	b.Helper()
	extra := settings.Metrics(os.Getenv, flag.CommandLine)
	if res.BaselineNsPerOp > 0 {
		b.ReportMetric(res.BaselineNsPerOp, "ns/op")
		if extra {
			reportImpls(b, res, ms)
		}
	} else {
		b.ReportMetric(0, "ns/op") // nothing measured: suppress elapsed/N
	}
	if extra {
		b.ReportMetric(float64(res.Rounds), "rounds")
	}
	if ms.allocsPerOp >= 0 {
		b.ReportMetric(ms.allocsPerOp, "allocs/op")
		b.ReportMetric(ms.bytesPerOp, "B/op")
	}
	if n, ok := testingb.SetBytes(b); !ok {
		notes = append(notes, "cannot read b.SetBytes's value in this Go release: a MB/s on this line would be the bytes over the whole comparison's time, not a throughput")
	} else if n > 0 {
		reportThroughput(b, res, n, extra)
	}

	for _, n := range notes {
		b.Log("control: note: " + n)
	}
	for _, line := range lines(res) {
		b.Log(line)
	}

	rec := res.Clone()
	rec.Warnings = append(append([]string{}, notes...), res.Warnings...)
	reg := registry.Comparison{Result: rec, Procs: runtime.GOMAXPROCS(0), RoundNs: ms.ns}
	registry.Default().AddComparison(testingb.Key(b), reg)

	for _, e := range res.Candidates {
		switch {
		case e.GateFailed:
			b.Errorf("control: gate failed: %s is %s slower than %s %s, beyond the %.3g%% gate", e.Name, textfmt.Pct(e.DeltaPct), res.Baseline, fmtCI(e, res.Confidence), res.Gate)
		case e.GateNote != "":
			b.Logf("control: %s: %s; it is undecided because %s", e.Name, e.GateNote, e.Reason)
		}
	}
}

// reportImpls reports each implementation's ns/op, its ratio to the
// baseline and the closure overhead: the metrics that -benchkit.metrics=off
// (BENCHKIT_METRICS=off) leaves out.
func reportImpls(b *testing.B, res verdict.Result, ms measurement) {
	b.ReportMetric(res.BaselineNsPerOp, res.Baseline+"-ns/op")
	for _, e := range res.Candidates {
		b.ReportMetric(e.NsPerOp, e.Name+"-ns/op")
	}
	if res.Rounds == 0 {
		return // one probed call each: no ratio, no overhead was measured
	}
	for _, e := range res.Candidates {
		b.ReportMetric(ratioPct(e), ratioUnit(e.Name, res.Baseline))
	}
	b.ReportMetric(ratioPct(res.Control), ratioUnit(ControlName, res.Baseline))
	b.ReportMetric(ms.overhead, "closure-ns/op")
}

// reportThroughput reports, for a benchmark that called b.SetBytes(n),
// the baseline's throughput as MB/s (replacing testing's, which divides n
// by the whole comparison's time since b.N is 1) and each
// implementation's as <name>-MB/s (only when extra, the metrics switch,
// is on): n / ns-per-op × 1e3. Without a measurement it reports MB/s 0,
// which go test does not print.
func reportThroughput(b *testing.B, res verdict.Result, n int64, extra bool) {
	if !(res.BaselineNsPerOp > 0) {
		b.ReportMetric(0, "MB/s")
		return
	}
	mbs := func(ns float64) float64 { return float64(n) / ns * 1e3 }
	b.ReportMetric(mbs(res.BaselineNsPerOp), "MB/s")
	if !extra {
		return
	}
	b.ReportMetric(mbs(res.BaselineNsPerOp), res.Baseline+"-MB/s")
	for _, e := range res.Candidates {
		if e.NsPerOp > 0 {
			b.ReportMetric(mbs(e.NsPerOp), e.Name+"-MB/s")
		}
	}
}

// lines returns the human-readable summary of a Result that Compare logs:
// a header line, then one line per implementation, control first:
//
//	control: alpha 412.3 ns/op; 712 rounds × 2400 calls; closure 1.80 ns/op; 98.3% intervals (Bonferroni over 3)
//	control: control  +0.02% [-0.21%, +0.25%] same: noise floor: ...
//	control: plus5    +4.93% [+4.61%, +5.20%] slower: the interval excludes 0 ...
//
// The format is for people; the Result fields are the stable contract.
func lines(res verdict.Result) []string {
	w := len(ControlName)
	for _, e := range res.Candidates {
		w = max(w, len(e.Name))
	}
	where := "within one process"
	if res.Forks > 1 {
		where = fmt.Sprintf("over %d forks, t-interval over the forks", res.Forks)
	}
	out := []string{fmt.Sprintf("control: %s %.4g ns/op; %s × %d calls %s; closure %.3g ns/op; %.1f%% intervals (Bonferroni over %d); seed %d",
		res.Baseline, res.BaselineNsPerOp, textfmt.Plural(res.Rounds, "round"), res.BatchIters, where, res.OverheadNsPerOp, 100*res.Confidence, len(res.Candidates)+1, res.Seed)}
	line := func(e verdict.Estimate) string {
		if res.Rounds == 0 {
			return fmt.Sprintf("control: %-*s %s: %s", w, e.Name, e.Verdict, e.Reason)
		}
		return fmt.Sprintf("control: %-*s %8s %s %s: %s", w, e.Name, textfmt.Pct(e.DeltaPct), textfmt.Interval(e.LoPct, e.HiPct), e.Verdict, e.Reason)
	}
	out = append(out, line(res.Control))
	for _, e := range res.Candidates {
		out = append(out, line(e))
	}
	if line := forksLine(res); line != "" {
		out = append(out, line)
	}
	for _, wn := range res.Warnings {
		out = append(out, "control: warning: "+wn)
	}
	return out
}

func fmtCI(e verdict.Estimate, conf float64) string {
	return fmt.Sprintf("(%.1f%% interval %s)", 100*conf, textfmt.Interval(e.LoPct, e.HiPct))
}

// ratioUnit returns the metric unit Compare reports an implementation's
// time ratio under: "<name>/<base>-%", for example "plus5/alpha-%".
func ratioUnit(name, base string) string { return name + "/" + base + "-%" }

// ratioPct returns the value Compare reports under ratioUnit: the median
// per-round ratio of the implementation's time to the baseline's, in
// percent of the baseline: 100 + DeltaPct (104.93 for 4.93% slower, 95.0
// for 5% faster). A ratio centred on 100 stays positive, so benchstat
// prints it without SI prefixes, computes its interval and geomean, and
// compares it across files. go test prints metrics to four significant
// digits, so the benchmark line resolves 0.1 points near 100; the log
// line has two decimals and the Result full precision.
func ratioPct(e verdict.Estimate) float64 { return 100 + e.DeltaPct }
