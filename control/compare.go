package control

import (
	"flag"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/registry"
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

// DefaultBenchtime is the -benchtime Compare assumes when the flag is
// absent, and the per-implementation budget it falls back to under
// -benchtime=Nx.
const DefaultBenchtime = time.Second

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
// duplicate, reserved or malformed name, or an invalid option. A panic in
// an implementation is re-raised with its name. Compare must be called at
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
	if err != nil {
		b.Fatalf("%v", err)
	}
	release := enter(b, "Compare")
	defer release()
	if !cfg.seedSet {
		cfg.seed = uint64(time.Now().UnixNano())
	}

	bt := readBenchtime()
	budget := bt.d * time.Duration(max(2, 1+len(cands)))
	maxRounds := math.MaxInt
	var notes []string
	if bt.n > 0 {
		budget = DefaultBenchtime * time.Duration(max(2, 1+len(cands)))
		maxRounds = bt.n
		notes = append(notes, fmt.Sprintf("-benchtime=%dx: running %s within a %s budget; a verdict needs -benchtime=1s (or ≥ 10x) or more", bt.n, plural(bt.n, "round"), fmtDur(budget)))
	}
	if n := readCount(); n > 1 && once(b.Name()) {
		notes = append(notes, fmt.Sprintf("-count=%d: Compare interleaves inside each run, so -count multiplies the cost by %d; -count=1 is enough", n, n))
	}

	var ms measurement
	done := false
	for b.Loop() {
		if !done {
			ms = measure(impls, budget, maxRounds, cfg)
			done = true
		}
	}

	res := result(impls, ms, cfg, budget)
	report(b, res, ms, notes)
	return res
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
	if res.BaselineNsPerOp > 0 && ms.overhead > 0.1*res.BaselineNsPerOp {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"the closure call costs %.2g ns, %.0f%% of %s's %.3g ns/op: every ratio is pulled toward 0%% (a true difference Δ shows as about Δ·(t−o)/t); compare larger units of work",
			ms.overhead, 100*ms.overhead/res.BaselineNsPerOp, res.Baseline, res.BaselineNsPerOp))
	}
	return res
}

// report writes the metrics, the log lines and the registry record.
func report(b *testing.B, res Result, ms measurement, notes []string) {
	b.Helper()
	if res.BaselineNsPerOp > 0 {
		b.ReportMetric(res.BaselineNsPerOp, "ns/op")
		b.ReportMetric(res.BaselineNsPerOp, res.Baseline+"-ns/op")
		for _, e := range res.Candidates {
			b.ReportMetric(e.NsPerOp, e.Name+"-ns/op")
			b.ReportMetric(RatioPct(e), RatioUnit(e.Name, res.Baseline))
		}
		b.ReportMetric(RatioPct(res.Control), RatioUnit(ControlName, res.Baseline))
		b.ReportMetric(ms.overhead, "closure-ns/op")
	} else {
		b.ReportMetric(0, "ns/op") // nothing measured: suppress elapsed/N
	}
	b.ReportMetric(float64(res.Rounds), "rounds")
	if ms.allocsPerOp >= 0 {
		b.ReportMetric(ms.allocsPerOp, "allocs/op")
		b.ReportMetric(ms.bytesPerOp, "B/op")
	}

	for _, n := range notes {
		b.Log("control: note: " + n)
	}
	for _, line := range Lines(res) {
		b.Log(line)
	}

	reg := registry.Comparison{
		Baseline:        res.Baseline,
		BaselineNsPerOp: res.BaselineNsPerOp,
		Control:         regEstimate(res.Control),
		Rounds:          res.Rounds,
		Confidence:      res.Confidence,
		OverheadNs:      res.OverheadNsPerOp,
		Gate:            res.Gate,
		GateFailed:      res.GateFailed,
		Warnings:        append(append([]string{}, notes...), res.Warnings...),
	}
	for _, e := range res.Candidates {
		reg.Candidates = append(reg.Candidates, regEstimate(e))
	}
	registry.Default().AddComparison(registry.Key(b.Name()), reg)
	if ms.stopped != "" {
		registry.Default().AddFlag(registry.Key(b.Name()), registry.Flag{Kind: registry.FlagMisuse, Message: "control: " + ms.stopped})
	}

	if res.Gate > 0 {
		for _, e := range res.Candidates {
			switch {
			case e.Verdict == Slower && e.DeltaPct > res.Gate:
				b.Errorf("control: gate failed: %s is %s slower than %s %s, beyond the %.3g%% gate", e.Name, fmtPct(e.DeltaPct), res.Baseline, fmtCI(e, res.Confidence), res.Gate)
			case e.Verdict == Undecided && e.DeltaPct > res.Gate:
				b.Logf("control: gate not applied to %s (%s, above the %.3g%% gate): undecided: %s", e.Name, fmtPct(e.DeltaPct), res.Gate, e.Reason)
			}
		}
	}
}

// Lines returns the human-readable summary of a Result that Compare logs:
// a header line, then one line per implementation, control first:
//
//	control: alpha 412.3 ns/op; 712 rounds × 2400 calls; closure 1.80 ns/op; 98.3% intervals (Bonferroni over 3)
//	control: control  +0.02% [-0.21%, +0.25%] same: noise floor: ...
//	control: plus5    +4.93% [+4.61%, +5.20%] slower: the interval excludes 0 ...
//
// The format is for people; the Result fields are the stable contract.
func Lines(res Result) []string {
	w := len(ControlName)
	for _, e := range res.Candidates {
		w = max(w, len(e.Name))
	}
	out := []string{fmt.Sprintf("control: %s %.4g ns/op; %s × %d calls; closure %.3g ns/op; %.1f%% intervals (Bonferroni over %d); seed %d",
		res.Baseline, res.BaselineNsPerOp, plural(res.Rounds, "round"), res.BatchIters, res.OverheadNsPerOp, 100*res.Confidence, len(res.Candidates)+1, res.Seed)}
	line := func(e Estimate) string {
		if res.Rounds == 0 {
			return fmt.Sprintf("control: %-*s %s: %s", w, e.Name, e.Verdict, e.Reason)
		}
		return fmt.Sprintf("control: %-*s %8s [%s, %s] %s: %s", w, e.Name, fmtPct(e.DeltaPct), fmtPct(e.LoPct), fmtPct(e.HiPct), e.Verdict, e.Reason)
	}
	out = append(out, line(res.Control))
	for _, e := range res.Candidates {
		out = append(out, line(e))
	}
	for _, wn := range res.Warnings {
		out = append(out, "control: warning: "+wn)
	}
	return out
}

func fmtCI(e Estimate, conf float64) string {
	return fmt.Sprintf("(%.1f%% interval [%s, %s])", 100*conf, fmtPct(e.LoPct), fmtPct(e.HiPct))
}

func regEstimate(e Estimate) registry.Estimate {
	return registry.Estimate{Name: e.Name, NsPerOp: e.NsPerOp, DeltaPct: e.DeltaPct, LoPct: e.LoPct, HiPct: e.HiPct,
		Verdict: registry.Verdict(e.Verdict), Reason: e.Reason}
}

// RatioUnit returns the metric unit Compare reports an implementation's
// time ratio under: "<name>/<base>-%", for example "plus5/alpha-%".
func RatioUnit(name, base string) string { return name + "/" + base + "-%" }

// RatioPct returns the value Compare reports under [RatioUnit]: the median
// per-round ratio of the implementation's time to the baseline's, in
// percent of the baseline: 100 + DeltaPct (104.93 for 4.93% slower, 95.0
// for 5% faster). A ratio centred on 100 stays positive, so benchstat
// prints it without SI prefixes, computes its interval and geomean, and
// compares it across files. go test prints metrics to four significant
// digits, so the benchmark line resolves 0.1 points near 100; the log
// line has two decimals and the Result full precision.
func RatioPct(e Estimate) float64 { return 100 + e.DeltaPct }

// benchtime is the parsed -test.benchtime: a duration d, or a count n > 0.
type benchtime struct {
	d time.Duration
	n int
}

// readBenchtime parses -test.benchtime as the testing package does; when
// the flag is absent or unreadable it returns DefaultBenchtime.
func readBenchtime() benchtime {
	f := flag.Lookup("test.benchtime")
	if f == nil {
		return benchtime{d: DefaultBenchtime}
	}
	return parseBenchtime(f.Value.String())
}

func parseBenchtime(s string) benchtime {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		if v, err := strconv.Atoi(n); err == nil && v > 0 {
			return benchtime{n: v}
		}
		return benchtime{d: DefaultBenchtime}
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return benchtime{d: d}
	}
	return benchtime{d: DefaultBenchtime}
}

func readCount() int {
	f := flag.Lookup("test.count")
	if f == nil {
		return 1
	}
	n, err := strconv.Atoi(f.Value.String())
	if err != nil {
		return 1
	}
	return n
}

var (
	onceMu   sync.Mutex
	onceSeen = map[string]bool{}
)

// once reports whether key is seen for the first time in this process.
func once(key string) bool {
	onceMu.Lock()
	defer onceMu.Unlock()
	if onceSeen[key] {
		return false
	}
	onceSeen[key] = true
	return true
}

// inRunParallel reports whether the caller runs inside a RunParallel
// body, from the function names on its stack.
func inRunParallel() bool {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "testing.(*B).RunParallel") {
			return true
		}
		if !more {
			return false
		}
	}
}

var (
	activeMu sync.Mutex
	active   = map[*testing.B]string{}
)

// enter marks b as in use by fn. A second entry while b is in use (a
// RunParallel body, or goroutines sharing b) panics: b.Fatal may not be
// called off the benchmark goroutine. A second call on the same run after
// the first returned fails b.
func enter(b *testing.B, fn string) (release func()) {
	b.Helper()
	if inRunParallel() {
		panic(fmt.Sprintf("control: %s called on %s from inside a RunParallel body: it measures on the benchmark's own goroutine and cannot run in parallel workers; call it once, directly in the benchmark function, outside RunParallel", fn, b.Name()))
	}
	activeMu.Lock()
	state, busy := active[b]
	if !busy {
		active[b] = "running"
	}
	activeMu.Unlock()
	switch state {
	case "running":
		panic(fmt.Sprintf("control: %s called on %s while another control call is running on the same *testing.B: do not call it from a RunParallel body or from goroutines; call it once, directly in the benchmark function", fn, b.Name()))
	case "done":
		b.Fatalf("control: %s called twice in %s: call it once per benchmark function (for several comparisons, use one b.Run sub-benchmark each)", fn, b.Name())
	}
	b.Cleanup(func() {
		activeMu.Lock()
		delete(active, b)
		activeMu.Unlock()
	})
	return func() {
		activeMu.Lock()
		active[b] = "done"
		activeMu.Unlock()
	}
}
