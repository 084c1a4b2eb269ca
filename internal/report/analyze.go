package report

import (
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// Analyze computes the rows, comparisons and failures of in.
func Analyze(in Input) Analysis {
	var a Analysis
	delta := in.Settings.delta()
	for _, b := range in.Benches {
		rows := splitProcs(b)
		for i := range rows {
			if c, ok := in.Counts[b.Name]; ok {
				rows[i].Count = &c
			}
			analyzeRow(&rows[i], delta)
		}
		a.Rows = append(a.Rows, rows...)
		for i, c := range b.Comparisons {
			row := ComparisonRow{Benchmark: b.Name, Index: i + 1, Of: len(b.Comparisons) + b.DroppedComparisons, Comparison: c}
			if i == len(b.Comparisons)-1 {
				row.Dropped = b.DroppedComparisons
			}
			a.Comparisons = append(a.Comparisons, row)
			if c.GateFailed {
				a.Failures = append(a.Failures, gateFailure(b.Name, c))
			}
		}
	}
	a.Failures = append(a.Failures, flagFailures(a.Rows, in.Settings.Strict)...)
	a.Failures = append(a.Failures, againstFailures(in.Against)...)
	return a
}

// flagFailures returns a failure per flag that failed its benchmark
// (registry.Flag.Failed) and, with strict, per flag raised at all but the
// ones the benchmark allowed (registry.Flag.Allowed): go test loses a
// failure in a later -count repeat and passes, so the report must fail
// the run itself.
func flagFailures(rows []Row, strict bool) []string {
	var out []string
	for _, r := range rows {
		for _, f := range r.Flags {
			switch {
			case strict && f.Allowed == "":
				out = append(out, fmt.Sprintf(
					"benchkit: %s raised %s (strict mode: every flag fails the run; fix the benchmark or drop -benchkit.strict)",
					r.Display, f.Kind))
			case f.Failed:
				out = append(out, fmt.Sprintf(
					"benchkit: %s: %s failed the benchmark (go test can print PASS when it was a later -count repeat that failed); fix the benchmark",
					r.Display, f.Kind))
			}
		}
	}
	return out
}

func gateFailure(name string, c registry.Comparison) string {
	var worst []string
	for _, e := range c.Candidates {
		if e.GateFailed {
			worst = append(worst, fmt.Sprintf("%s %+.1f%% [%+.1f%%, %+.1f%%]", e.Name, e.DeltaPct, e.LoPct, e.HiPct))
		}
	}
	detail := strings.Join(worst, ", ")
	if detail == "" {
		detail = "a candidate"
	}
	return fmt.Sprintf("benchkit: %s: gate %.3g%% failed: %s slower than %s beyond the gate; fix the regression or raise the gate",
		benchname.Display(name, 1), c.Gate, detail, c.Baseline)
}

// splitProcs makes one row per GOMAXPROCS value of b's runs (one row when
// b has no runs). The timeline belongs to the latest run's procs.
func splitProcs(b registry.Bench) []Row {
	var procs []int
	for _, r := range b.Runs {
		if !slices.Contains(procs, r.Procs) {
			procs = append(procs, r.Procs)
		}
	}
	if len(procs) == 0 {
		procs = []int{0}
	}
	last := procs[len(procs)-1]
	if len(b.Runs) > 0 {
		last = b.Runs[len(b.Runs)-1].Procs
	}
	rows := make([]Row, 0, len(procs))
	for _, p := range procs {
		r := Row{Name: b.Name, Display: benchname.Display(b.Name, p), Procs: p, Flags: b.Flags}
		for _, run := range b.Runs {
			if run.Procs == p {
				r.Runs = append(r.Runs, run)
			}
		}
		r.TotalRuns = len(r.Runs)
		if len(procs) == 1 {
			r.TotalRuns = max(b.TotalRuns, len(r.Runs))
		}
		if p == last {
			r.Timeline = b.Timeline
		}
		rows = append(rows, r)
	}
	return rows
}

func analyzeRow(r *Row, delta float64) {
	r.MedianNs, r.CVPct, r.CIPct, r.WaitPct, r.CILoNs, r.CIHiNs = -1, -1, -1, -1, -1, -1
	ns := make([]float64, 0, len(r.Runs))
	var waits []float64
	for _, run := range r.Runs {
		if finite(run.NsPerOp) && run.NsPerOp >= 0 {
			ns = append(ns, run.NsPerOp)
		}
		if finite(run.WaitFraction) && run.WaitFraction >= 0 {
			waits = append(waits, run.WaitFraction*100)
		}
	}
	if m, ok := stats.Median(ns); ok {
		r.MedianNs = m
	}
	if m, ok := stats.Median(waits); ok {
		r.WaitPct = m
	}
	tl := finiteOnly(r.Timeline)
	switch {
	case len(ns) >= 2:
		r.Source, r.Samples = SourceRuns, ns
	case len(tl) >= 2:
		r.Source, r.Samples = SourceBatches, tl
		if r.MedianNs < 0 {
			if m, ok := stats.Median(tl); ok {
				r.MedianNs = m
			}
		}
	default:
		r.Source = SourceNone
	}
	xs := r.Samples
	if ratio, cold, _ := stats.ColdStart(xs); cold {
		r.ColdStart, xs = ratio, xs[1:]
	}
	if cv, ok := stats.CV(xs); ok {
		r.CVPct = cv
	}
	gradeRow(r, xs, delta)
	if c, found := stats.FindRegimes(xs, r.Source == SourceBatches); found {
		reg := c.Regimes
		if r.ColdStart > 0 {
			reg = shiftIndices(reg, 1)
		}
		r.Regimes, r.Shift = &reg, c.Shift
	} else if d, drifting, _ := stats.Drift(xs); drifting {
		r.Drift = &d
	}
	if o, ok := stats.Tukey(r.Samples); ok {
		r.Outliers = &o
		r.HighStretch = highStretch(r.Samples, o.Q3+1.5*o.IQR)
	}
}

// gradeRow sets r's CIPct, grade and runs-needed from xs, r's samples
// without a cold first one: for runs from their CV, for batches from the
// batch-means interval of the run's median.
func gradeRow(r *Row, xs []float64, delta float64) {
	switch r.Source {
	case SourceRuns:
		if c, lo, hi, ok := stats.MedianCI(xs, 0.95); ok && c > 0 {
			r.CIPct, r.CILoNs, r.CIHiNs = 100*(hi-lo)/2/c, lo, hi
		}
		r.Grade, r.GradeBasis = GradeCV(r.CVPct), BasisRunCV
		if r.CVPct >= 0 {
			r.RunsNeededBasis = BasisRunCV
			r.RunsNeeded, r.RunsNeededCapped = runsNeeded(r.CVPct, delta)
		}
	case SourceBatches:
		ci, ok := stats.BatchMedianCI(xs, 0.95)
		if !ok {
			r.Grade = GradeUnknown
			return
		}
		r.CIPct = ci.HalfWidthPct
		if r.MedianNs >= 0 {
			r.CILoNs, r.CIHiNs = r.MedianNs*(1-ci.HalfWidthPct/100), r.MedianNs*(1+ci.HalfWidthPct/100)
		}
		r.Grade, r.GradeBasis = GradeCI(ci.HalfWidthPct), BasisBatchCI
		r.RunsNeededBasis = BasisBatchCI
		r.RunsNeeded, r.RunsNeededCapped = runsNeeded(ci.SEPct, delta)
		hi, _ := runsNeeded(ci.BlockCVPct, delta)
		r.RunsNeededHi = max(hi, r.RunsNeeded)
	default:
		r.Grade = GradeUnknown
	}
}

// runsNeeded is max(Lehr's rule, MinRunsForCI) for a per-run cv in
// percent (MinRunsForCI for 0), and whether Lehr's rule was capped; 0 for
// a negative or non-finite cv.
func runsNeeded(cvPct, delta float64) (n int, capped bool) {
	if cvPct == 0 {
		return MinRunsForCI, false
	}
	lehr, ok := stats.LehrRuns(cvPct, delta)
	if lehr == 0 {
		return 0, false
	}
	return max(lehr, MinRunsForCI), !ok
}

// shiftIndices returns g with every segment moved by d places (the
// regimes were found on the samples without the first).
func shiftIndices(g stats.Regimes, d int) stats.Regimes {
	move := func(ss [][2]int) [][2]int {
		out := make([][2]int, len(ss))
		for i, s := range ss {
			out[i] = [2]int{s[0] + d, s[1] + d}
		}
		return out
	}
	g.Low.Segments, g.High.Segments = move(g.Low.Segments), move(g.High.Segments)
	return g
}

// highStretch returns the longest [start, end) of consecutive xs above
// fence, or zero when it is shorter than MinStretch or 5% of len(xs).
func highStretch(xs []float64, fence float64) [2]int {
	var best [2]int
	start := -1
	for i := 0; i <= len(xs); i++ {
		if i < len(xs) && xs[i] > fence {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start > best[1]-best[0] {
			best = [2]int{start, i}
		}
		start = -1
	}
	if n := best[1] - best[0]; n < MinStretch || float64(n) < 0.05*float64(len(xs)) {
		return [2]int{}
	}
	return best
}

// againstFailures returns the reasons a cross-build comparison fails the
// run: a benchmark that failed a gate, and a process of this binary (the
// new side) that failed. A process of the base binary that failed is a
// warning in the report, not a failure: the code under test is the new
// side.
func againstFailures(a *against.Result) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, b := range a.Benches {
		for _, g := range b.GatesFailed {
			out = append(out, againstGateFailure(a, b, g))
		}
	}
	if a.NothingCompared != "" {
		out = append(out, a.NothingCompared)
	}
	for _, f := range a.Failures {
		if f.Side == "new" {
			out = append(out, fmt.Sprintf("benchkit: against %s: this binary's process failed in round %d%s: %s; fix the benchmark (its output is in the report)",
				a.BaseName(), f.Round, failedNames(f), f.Message))
		}
	}
	return out
}

// againstGateFailure says why b failed gate g, as the comparison decided
// it (against.Bench.GatesFailed), with the numbers and the fix.
func againstGateFailure(a *against.Result, b against.Bench, g string) string {
	switch g {
	case against.GateTime:
		e := b.NewEst
		return fmt.Sprintf("benchkit: against %s: %s is %s slower than the base %s, beyond the %s%% gate; fix the regression or raise -benchkit.gate",
			a.BaseName(), b.Name, textfmt.Pct(e.DeltaPct), textfmt.Interval(e.LoPct, e.HiPct), fmtNum(a.GatePct))
	case against.GateInstr:
		c := b.Instr
		return fmt.Sprintf("benchkit: against %s: %s executes %s more instructions per op (%s → %s), beyond the %s%% instruction gate; fix the regression or raise -benchkit.gate.instructions",
			a.BaseName(), b.Name, textfmt.Pct(c.DeltaPct), fmtInstr(c.Base.PerOp), fmtInstr(c.New.PerOp), fmtNum(a.GateInstr))
	}
	return fmt.Sprintf("benchkit: against %s: %s allocates more, %s allocs/op against the base's %s (-benchkit.gate.allocs); remove the allocation or drop the allocation gate",
		a.BaseName(), b.Name, fmtCount(b.Allocs.New), fmtCount(b.Allocs.Base))
}

func failedNames(f against.Failure) string {
	if len(f.Benchmarks) == 0 {
		return ""
	}
	return " (" + strings.Join(f.Benchmarks, ", ") + ")"
}

// contended reports whether r's wait% names contention as a cause.
func contended(r Row) bool { return r.WaitPct > ContentionPct }

// causeNames lists the causes of spread found in r, for the grade
// finding: "two regimes", "contention" and "drift" (a cold start is left
// out of the grade).
func causeNames(r Row) []string {
	var cs []string
	if r.Regimes != nil {
		cs = append(cs, "two regimes")
	}
	if contended(r) {
		cs = append(cs, "contention")
	}
	if r.Drift != nil {
		cs = append(cs, "drift")
	}
	return cs
}

// causes is [causeNames] with r's wait% after contention:
// "contention (wait 41.0%)".
func causes(r Row) []string {
	cs := causeNames(r)
	for i, c := range cs {
		if c == "contention" {
			cs[i] = fmt.Sprintf("contention (wait %.1f%%)", r.WaitPct)
		}
	}
	return cs
}
