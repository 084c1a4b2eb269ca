package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/verdict"
)

// Schema is the value of the "schema" field of the JSON report. It changes
// only when a field is removed or changes meaning; fields may be added
// within a version.
const Schema = "benchkit-report/v1"

// DefaultDeltaPct is the change, in percent, that the runs-needed column
// sizes for when [Settings.DeltaPct] is zero.
const DefaultDeltaPct = 5.0

// MinRunsForCI is the least number of runs per side the runs-needed column
// shows: benchstat cannot compute a 95% confidence interval of the median
// with fewer than 6 samples (it prints "± ∞").
const MinRunsForCI = 6

// Input is everything the report shows. The renderer is a pure function of
// it: the same Input always gives the same text, JSON and samples file.
type Input struct {
	// Package is the import path of the package under test, or "".
	Package string
	// GOOS, GOARCH and CPU go into the samples file's configuration lines
	// and the JSON report; "" leaves them out.
	GOOS, GOARCH, CPU string
	// Facts and Warnings describe the environment (env.Snapshot's), and
	// benchkit's own warnings about the run.
	Facts    []env.Fact
	Warnings []env.Warning
	// Warmup is the warm-up's result; nil when it did not run.
	Warmup *Warmup
	// Benches are the registry's records, in the order they were seen.
	Benches []registry.Bench
	// Dropped counts benchmark names the registry could not hold.
	Dropped  int
	Settings Settings
	// Meta is the run's metadata, for the JSON report.
	Meta Meta
	// Against is the cross-build comparison of -benchkit.against, or nil.
	Against *registry.Against
}

// Warmup summarises the warm-up that ran before the benchmarks.
type Warmup struct {
	// Summary is the one-line description (warmup.Result.String()).
	Summary     string
	Duration    time.Duration
	Batches     int
	Converged   bool
	FirstToLast float64
	Warnings    []string
}

// Settings are the user's choices that change the report.
type Settings struct {
	// DeltaPct is the change, in percent, the runs-needed column is sized
	// for (Lehr's rule); 0 means [DefaultDeltaPct].
	DeltaPct float64
	// Strict makes every raised flag a failure (see [Analysis.Failures]).
	Strict bool
}

func (s Settings) delta() float64 {
	if !(s.DeltaPct > 0) || math.IsInf(s.DeltaPct, 0) {
		return DefaultDeltaPct
	}
	return s.DeltaPct
}

// Grade is the verdict on how far the printed median can be trusted: on
// the run-to-run coefficient of variation when a benchmark has two runs
// or more ([GradeCV]), else on the confidence interval of its median from
// the run's batches ([GradeCI]); [Row.GradeBasis] says which.
type Grade string

// The grades of [GradeCV] and [GradeCI], after seed 001's rule of thumb.
const (
	GradeExcellent  Grade = "excellent"    // CV < 2%
	GradeAcceptable Grade = "acceptable"   // 2% ≤ CV < 5%
	GradeNoisy      Grade = "noisy"        // 5% ≤ CV < 10%
	GradeDoNotTrust Grade = "do-not-trust" // CV ≥ 10%
	GradeUnknown    Grade = "unknown"      // fewer than 2 samples
)

// GradeCV grades a coefficient of variation given in percent: below 2
// excellent, below 5 acceptable, below 10 noisy, else do-not-trust. A
// negative, NaN or infinite CV is unknown.
func GradeCV(cvPct float64) Grade {
	switch {
	case math.IsNaN(cvPct) || math.IsInf(cvPct, 0) || cvPct < 0:
		return GradeUnknown
	case cvPct < 2:
		return GradeExcellent
	case cvPct < 5:
		return GradeAcceptable
	case cvPct < 10:
		return GradeNoisy
	default:
		return GradeDoNotTrust
	}
}

// GradeCI grades the relative half-width, in percent, of a 95%
// confidence interval of a run's median (the "±" benchstat prints) on
// the same scale as [GradeCV]: below 2 excellent, below 5 acceptable,
// below 10 noisy, else do-not-trust. A negative, NaN or infinite value is
// unknown. It is used when a run has only Loop batches: it grades the
// number the report prints, not the spread of batches a few ms long.
func GradeCI(halfWidthPct float64) Grade { return GradeCV(halfWidthPct) }

// Basis says which variance a grade or a runs-needed figure comes from.
type Basis string

// The bases of [Row.GradeBasis] and [Row.RunsNeededBasis].
const (
	// BasisRunCV: the coefficient of variation of the runs' ns/op
	// (-count repeats), the variance Lehr's rule is stated for.
	BasisRunCV Basis = "run-cv"
	// BasisBatchCI: the confidence interval of the median from one run's
	// batches (stats.BatchMedianCI); for runs-needed, a range: its
	// standard error gives the low end (a run cannot see how far another
	// process lands, only that it lands at least that far), the spread of
	// its 16 block medians the high end (Row.RunsNeededHi).
	BasisBatchCI Basis = "batch-ci"
	// BasisNone: no spread is known.
	BasisNone Basis = ""
)

// ContentionPct is the wait% (run-queue wait over wall time) above which
// the report names contention as a cause: the process waited for a CPU
// more than a twentieth of the run.
const ContentionPct = 5.0

// Source says where a row's samples come from.
type Source string

// The sample sources of a [Row].
const (
	// SourceRuns: the ns/op of each run (-count repeats), when there are
	// at least two runs.
	SourceRuns Source = "runs"
	// SourceBatches: the per-iteration cost of the batches benchkit.Loop
	// timed inside a single run.
	SourceBatches Source = "batches"
	// SourceNone: one run and no timeline; no spread can be computed.
	SourceNone Source = "none"
)

// Row is the analysis of one benchmark at one GOMAXPROCS value.
type Row struct {
	// Name is the registry name (b.Name(), e.g. "BenchmarkSum/n=10") and
	// Display the name as go test prints it, without "Benchmark" and with
	// the "-procs" suffix when procs ≠ 1.
	Name, Display string
	Procs         int
	// Runs are the recorded runs at this procs value; TotalRuns counts
	// dropped ones too (registry bound).
	Runs      []registry.Run
	TotalRuns int
	// Source and Samples are the values the spread, the regimes and the
	// strip plot are computed from, in order, in ns/op.
	Source  Source
	Samples []float64
	// MedianNs is the median ns/op of the runs (of the single run's ns/op
	// when there is one), or -1.
	MedianNs float64
	// CVPct is the coefficient of variation of Samples in percent, or -1:
	// the run-to-run CV for SourceRuns, the spread of batches within one
	// run for SourceBatches (not graded: a batch lasts milliseconds, a
	// run seconds, and the run's median averages over its batches).
	CVPct float64
	// CIPct is the half-width of the 95% confidence interval of the
	// median in percent of it, or -1: benchstat's "±" (stats.MedianCI,
	// 6 runs or more) for SourceRuns, stats.BatchMedianCI for
	// SourceBatches.
	CIPct float64
	// Grade grades CVPct for SourceRuns and CIPct for SourceBatches;
	// GradeBasis says which (BasisNone when unknown).
	Grade      Grade
	GradeBasis Basis
	// WaitPct is the median over runs of the run-queue wait share, in
	// percent of wall time (can exceed 100 with several threads), or -1.
	WaitPct float64
	// RunsNeeded is max(⌈16·(cv/Δ)²⌉, MinRunsForCI) by Lehr's rule, or 0
	// when the CV is unknown; RunsNeededCapped is true when Lehr's rule
	// asked for more than stats.MaxLehrRuns. RunsNeededBasis says which
	// cv: the run-to-run CV (BasisRunCV), or, with batches only, the
	// standard error of the run's median (BasisBatchCI), which makes
	// RunsNeeded the low end of a range that ends at RunsNeededHi.
	RunsNeeded       int
	RunsNeededCapped bool
	RunsNeededBasis  Basis
	// RunsNeededHi is, for BasisBatchCI, Lehr's rule on the CV of the
	// run's 16 block medians (stats.BatchCI.BlockCVPct), as if each
	// sixteenth of the run were a run: an upper estimate, which holds
	// unless processes differ more than stretches of one run do. At least
	// RunsNeeded; 0 otherwise.
	RunsNeededHi int
	// ColdStart is the ratio of the first sample to the median of the
	// rest when stats.ColdStart calls it a cold start, else 0. The first
	// sample is then left out of CVPct, CIPct, the grade, the regimes and
	// the drift.
	ColdStart float64
	// Drift is set when stats.Drift finds a monotone trend and there are
	// no regimes.
	Drift *stats.DriftResult
	// Regimes is set when the samples split into two regimes
	// (stats.FindRegimes): by value (stats.TwoRegimes), or, failing that,
	// as a contiguous block of samples shifted in level against the rest
	// (stats.ShiftedBlock, then Shift is true). Both sources are in order
	// (runs, or Loop batches); for batches the regimes must also be a
	// sustained level (stats.Sustained), not scattered bursts.
	Regimes *stats.Regimes
	// Shift is true when Regimes comes from stats.ShiftedBlock: the
	// regimes are a block and the rest by position, their value ranges may
	// overlap, Separation is the robust (median/MAD) analogue of Ashman's
	// D and Regimes.OrderP the block test's permutation p-value.
	Shift bool
	// Outliers is Tukey's classification of the samples (nil with fewer
	// than 4 samples).
	Outliers *stats.Outliers
	// HighStretch is the longest run [start, end) of consecutive samples
	// above Tukey's upper fence Q3 + 1.5·IQR, kept only when it holds at
	// least MinStretch samples and 5% of them; zero otherwise. A stretch
	// is a change of state during the run (the hog in examples/seed001, a
	// neighbour's job), not scattered spikes, even when the two-regime
	// test cannot separate it from the rest.
	HighStretch [2]int
	// Flags are the problems benchkit and control raised.
	Flags []registry.Flag
	// Timeline is the Loop batch timeline (ns per op per batch), if any.
	Timeline []float64
}

// Shown reports whether the row belongs in the benchmark table: a
// benchmark that only holds control comparisons (no runs, no timeline, no
// flags) is shown in the comparisons section alone.
func (r Row) Shown() bool { return r.TotalRuns > 0 || len(r.Timeline) > 0 || len(r.Flags) > 0 }

// Tags returns the short labels of the row's findings, for the table.
func (r Row) Tags() []string {
	var tags []string
	for _, f := range r.Flags {
		tag := string(f.Kind)
		if f.Allowed != "" {
			tag += " (allowed)"
		}
		tags = append(tags, tag)
	}
	if r.Regimes != nil {
		tags = append(tags, fmt.Sprintf("two-regimes %s×%d|%s×%d",
			fmtNs(r.Regimes.Low.Center), r.Regimes.Low.Size, fmtNs(r.Regimes.High.Center), r.Regimes.High.Size))
	}
	if r.ColdStart > 0 {
		tags = append(tags, fmt.Sprintf("cold-start %.0f×", r.ColdStart))
	}
	if r.Drift != nil {
		tags = append(tags, fmt.Sprintf("drift %+.0f%%", r.Drift.ChangePct))
	}
	if r.Outliers != nil && r.Outliers.Count() > 0 {
		tag := fmt.Sprintf("outliers %d", r.Outliers.Count())
		if n := r.HighStretch[1] - r.HighStretch[0]; n > 0 {
			tag += fmt.Sprintf(" (%d in a row)", n)
		}
		tags = append(tags, tag)
	}
	return tags
}

// ComparisonRow is one control comparison, with the benchmark it ran in.
// Index (from 1) and Of number the comparisons made under the same
// benchmark name, one per -count repeat; Of includes the ones the registry
// could not hold, and Dropped, set on the last one it kept, counts them.
type ComparisonRow struct {
	Benchmark string
	Index, Of int
	Dropped   int
	registry.Comparison
}

// Analysis is the report's content, computed from an [Input] by [Analyze].
type Analysis struct {
	Rows        []Row
	Comparisons []ComparisonRow
	// Failures are the reasons the run must fail: a comparison gate that
	// failed, a flag that failed its benchmark (a stopped timer, any flag
	// under FailOnFlags), and with Settings.Strict every raised flag. Each
	// starts with "benchkit:".
	Failures []string
}

// Failed reports whether the run must exit non-zero.
func (a Analysis) Failed() bool { return len(a.Failures) > 0 }

// Analyze computes the rows, comparisons and failures of in.
func Analyze(in Input) Analysis {
	var a Analysis
	delta := in.Settings.delta()
	for _, b := range in.Benches {
		rows := splitProcs(b)
		for i := range rows {
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
		if e.Verdict == verdict.Slower && e.DeltaPct > c.Gate {
			worst = append(worst, fmt.Sprintf("%s %+.1f%% [%+.1f%%, %+.1f%%]", e.Name, e.DeltaPct, e.LoPct, e.HiPct))
		}
	}
	detail := strings.Join(worst, ", ")
	if detail == "" {
		detail = "a candidate"
	}
	return fmt.Sprintf("benchkit: %s: gate %.3g%% failed: %s slower than %s beyond the gate; fix the regression or raise the gate",
		displayName(name, 1), c.Gate, detail, c.Baseline)
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
		r := Row{Name: b.Name, Display: displayName(b.Name, p), Procs: p, Flags: b.Flags}
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

// displayName returns name as go test prints it: without the "Benchmark"
// prefix, with "-procs" when procs is neither 0 (unknown) nor 1 and name
// does not already end with it (benchkit.Track keys its records by b.Name()
// plus the suffix testing prints).
func displayName(name string, procs int) string {
	d := strings.TrimPrefix(name, "Benchmark")
	if d == "" {
		d = name
	}
	if suffix := "-" + strconv.Itoa(procs); procs > 1 && !strings.HasSuffix(d, suffix) {
		d += suffix
	}
	return d
}

func analyzeRow(r *Row, delta float64) {
	r.MedianNs, r.CVPct, r.CIPct, r.WaitPct = -1, -1, -1, -1
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
			r.CIPct = 100 * (hi - lo) / 2 / c
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

// MinStretch is the least length of a [Row.HighStretch].
const MinStretch = 5

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

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func finiteOnly(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if finite(x) && x >= 0 {
			out = append(out, x)
		}
	}
	return out
}

// fmtNs formats a duration in nanoseconds with 3–4 significant digits and
// a unit: "27.5ns", "1.234µs", "12.3ms", "2.00s".
func fmtNs(ns float64) string {
	if !finite(ns) || ns < 0 {
		return "?"
	}
	unit, v := "ns", ns
	switch {
	case ns >= 1e9:
		unit, v = "s", ns/1e9
	case ns >= 1e6:
		unit, v = "ms", ns/1e6
	case ns >= 1e3:
		unit, v = "µs", ns/1e3
	}
	var s string
	switch {
	case v >= 100:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 10:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	default:
		s = strconv.FormatFloat(v, 'f', 3, 64)
	}
	return s + unit
}
