package control

import (
	"flag"
	"fmt"
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
	"github.com/benchkit/go-benchkit/internal/verdict"
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
func Compare(b *testing.B, base Impl, cands ...Impl) Result {
	b.Helper()
	return Comparer{}.Compare(b, base, cands...)
}

// Compare measures base, a control copy of base and each candidate inside
// the one benchmark b, interleaved, and reports the verdicts. Call it once,
// as the whole body of a benchmark function:
//
//	func BenchmarkItoa(b *testing.B) {
//		control.Compare(b,
//			control.Func("sprintf", func() string { return fmt.Sprint(n) }),
//			control.Func("itoa", func() string { return strconv.Itoa(n) }))
//	}
//
// It spends about -benchtime × max(2, 1 + len(cands)) in all, reports the
// metrics on b's line, logs one verdict per candidate, records the result
// for benchkit's end-of-run report and returns it. See the package doc's
// "How it measures" and "Metrics" sections for the calibration, the
// rounds, the budget, -benchtime=Nx and the units, and [Analyze] for the
// verdict rule. With [Gate], a decided regression beyond the threshold
// fails b with b.Errorf.
//
// Compare fails b with b.Fatalf for a zero Impl, a nil function, an empty,
// duplicate, reserved or malformed name, a name whose metric unit would be
// one of Compare's own ("closure"), or an invalid option. A panic in
// an implementation fails b with b.Fatal, naming the implementation, the
// panic value and its stack (a panic left to crash the process can end
// in PASS). Compare must be called at
// most once per benchmark function, from the benchmark's own goroutine:
// called from a RunParallel body (seen on the call stack, whatever
// GOMAXPROCS is) or from two goroutines sharing b, it panics with a
// message, since b.Fatal may not be called off the benchmark goroutine;
// called twice, it fails b. The package doc's "Bad input" section lists
// every case.
func (c Comparer) Compare(b *testing.B, base Impl, cands ...Impl) Result {
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
	bt := testflag.Read()
	p := planFor(b.Name(), bt, len(cands), forks, flag.CommandLine, os.Executable)
	notes := p.notes
	if bt.N > 0 {
		notes = append(notes, fmt.Sprintf("-benchtime=%dx: running %s within a %s budget; a verdict needs -benchtime=1s (or ≥ 10x) or more", bt.N, textfmt.Plural(bt.N, "round"), textfmt.Dur(p.budget)))
	}
	if n := testflag.Count(); n > 1 && once(b.Name()) {
		notes = append(notes, fmt.Sprintf("-count=%d: Compare interleaves inside each run, so -count multiplies the cost by %d; -count=1 is enough", n, n))
	}

	res, ms, err := c.run(b, impls, p, cfg)
	if err != nil {
		b.Fatalf("%v", err)
	}
	report(b, res, ms, notes)
	return res
}

// run measures inside one b.Loop iteration, in forks or in this process,
// and analyses the rounds. In a fork started for b it also hands the
// measurement back to the parent. When the first fork cannot be started,
// it measures in this process and says so in a warning.
func (c Comparer) run(b *testing.B, impls []Impl, p plan, cfg config) (Result, measurement, error) {
	var (
		ms      measurement
		frs     []forkResult
		skipped string
		started = true
		err     error
		done    bool
	)
	for b.Loop() {
		if done {
			continue
		}
		done = true
		if p.forks > 1 {
			frs, skipped, started, err = runForks(b.Name(), impls, p, b.TempDir(), flag.CommandLine)
		}
		if p.forks <= 1 || !started {
			ms = measure(impls, p.budget, p.maxRounds, cfg)
		}
	}
	switch {
	case err != nil && started:
		return Result{}, ms, err
	case p.forks > 1 && started:
		ms = combine(frs)
		if skipped != "" {
			ms.warnings = append(ms.warnings, skipped)
		}
		return forkedResult(frs, ms, cfg, p.budget), ms, nil
	}
	res := result(impls, ms, cfg, p.budget)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("could not start a fork (%v): measured within this one process; the interval describes this process only", err))
	}
	if childTarget(b) {
		if werr := child.WriteResult(newForkResult(impls, ms)); werr != nil {
			return res, ms, fmt.Errorf("control: fork of %s: %v", b.Name(), werr)
		}
	}
	return res, ms, nil
}

// result turns a measurement into a Result.
func result(impls []Impl, ms measurement, cfg config, budget time.Duration) Result {
	samples := make([]Sample, len(impls))
	for i, im := range impls {
		samples[i] = Sample{Name: im.name}
		if ms.ns != nil {
			samples[i].NsPerOp = ms.ns[i]
		}
	}
	res, err := analyze(samples[0], samples[1], samples[2:], cfg)
	if err != nil {
		// Measured times are positive and paired by construction.
		panic("control: internal error: " + err.Error())
	}
	return finish(res, ms, budget)
}

// finish adds the measurement's details to an analysed Result: the count
// per batch, the closure overhead, the budget, the warnings, Undecided
// everywhere when measuring stopped early, and the closure-overhead
// warning.
func finish(res Result, ms measurement, budget time.Duration) Result {
	res.BatchIters = ms.iters
	res.OverheadNsPerOp = ms.overhead
	res.BudgetNs = float64(budget)
	res.Warnings = append(res.Warnings, ms.warnings...)
	if ms.stopped != "" {
		why := "measuring stopped: " + ms.stopped
		res.Control.Verdict, res.Control.Reason = Undecided, why
		for i := range res.Candidates {
			res.Candidates[i].Verdict, res.Candidates[i].Reason = Undecided, why
		}
		res.GateFailed = false
	}
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
func report(b *testing.B, res Result, ms measurement, notes []string) {
	b.Helper()
	extra := testflag.Metrics(os.Getenv, flag.CommandLine)
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
	if ms.stopped != "" {
		registry.Default().AddFlag(testingb.Key(b), registry.Flag{Kind: registry.FlagMisuse, Message: "control: " + ms.stopped})
	}

	if res.Gate > 0 {
		for _, e := range res.Candidates {
			switch {
			case e.Verdict == Slower && e.DeltaPct > res.Gate:
				b.Errorf("control: gate failed: %s is %s slower than %s %s, beyond the %.3g%% gate", e.Name, verdict.FmtPct(e.DeltaPct), res.Baseline, fmtCI(e, res.Confidence), res.Gate)
			case e.Verdict == Undecided && e.DeltaPct > res.Gate:
				b.Logf("control: gate not applied to %s (%s, above the %.3g%% gate): undecided: %s", e.Name, verdict.FmtPct(e.DeltaPct), res.Gate, e.Reason)
			}
		}
	}
}

// reportImpls reports each implementation's ns/op, its ratio to the
// baseline and the closure overhead: the metrics that -benchkit.metrics=off
// (BENCHKIT_METRICS=off) leaves out.
func reportImpls(b *testing.B, res Result, ms measurement) {
	b.ReportMetric(res.BaselineNsPerOp, res.Baseline+"-ns/op")
	for _, e := range res.Candidates {
		b.ReportMetric(e.NsPerOp, e.Name+"-ns/op")
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
func reportThroughput(b *testing.B, res Result, n int64, extra bool) {
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
func lines(res Result) []string {
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
	line := func(e Estimate) string {
		if res.Rounds == 0 {
			return fmt.Sprintf("control: %-*s %s: %s", w, e.Name, e.Verdict, e.Reason)
		}
		return fmt.Sprintf("control: %-*s %8s [%s, %s] %s: %s", w, e.Name, verdict.FmtPct(e.DeltaPct), verdict.FmtPct(e.LoPct), verdict.FmtPct(e.HiPct), e.Verdict, e.Reason)
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

func fmtCI(e Estimate, conf float64) string {
	return fmt.Sprintf("(%.1f%% interval [%s, %s])", 100*conf, verdict.FmtPct(e.LoPct), verdict.FmtPct(e.HiPct))
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
func ratioPct(e Estimate) float64 { return 100 + e.DeltaPct }
