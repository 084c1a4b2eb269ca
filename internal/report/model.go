package report

import (
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/settings"
	"math"
	"time"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// Schema is the value of the "schema" field of the JSON report. It changes
// only when a field is removed or changes meaning; fields may be added
// within a version.
const Schema = "benchkit-report/v1"

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
	Against *against.Result
	// Counts are the benchmarks' instructions per op under valgrind
	// (-benchkit.count=instructions), or why each could not be counted,
	// by the benchmark's name in Benches; nil without counts.
	Counts map[string]count.Result
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
	// for (Lehr's rule); 0 means settings.DefaultDeltaPct.
	DeltaPct float64
	// Strict makes every raised flag a failure (see [Analysis.Failures]).
	Strict bool
	// Full asks for the full text report: the environment, the warm-up,
	// the column legends, the strip plots and every finding explained.
	// The default is the compact one (see [TextAnalysis]); the other
	// outputs are the same either way.
	Full bool
	// Shard is the share of the selected benchmarks the run measured
	// (-benchkit.shard); the zero value is all of them.
	Shard settings.Shard
}

func (s Settings) delta() float64 {
	if !(s.DeltaPct > 0) || math.IsInf(s.DeltaPct, 0) {
		return settings.DefaultDeltaPct
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
	// CILoNs and CIHiNs are that interval in ns/op, or -1: benchstat's
	// bounds for SourceRuns; for SourceBatches MedianNs ∓ CIPct percent
	// (stats.BatchMedianCI is symmetric in percent of the level).
	CILoNs, CIHiNs float64
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
	// Count is the benchmark's instructions per op under valgrind
	// (-benchkit.count=instructions), or why it could not be counted; nil
	// when counts were off. It was counted at GOMAXPROCS=1, whatever the
	// row's procs.
	Count *count.Result
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

// MinStretch is the least length of a [Row.HighStretch].
const MinStretch = 5

// Meta is what the JSON report records about the run itself, so that
// reports from different days, machines and commits can be lined up: when
// it started, the toolchain, go test's flags, the commit, and the
// environment snapshot as typed fields.
type Meta struct {
	// Start is when benchkit.Main began (before the warm-up); zero when
	// unknown.
	Start time.Time
	// GoVersion is runtime.Version(), e.g. "go1.26.8"; "" unknown.
	GoVersion string
	// GoTest holds go test's benchmark flags as given.
	GoTest GoTestFlags
	// VCS is the version-control stamp of the test binary, nil when the
	// build has none (go test stamps one only with -buildvcs=true).
	VCS *env.VCS
	// Env is the environment snapshot the facts came from; nil when not
	// probed.
	Env *env.Snapshot
}

// GoTestFlags are go test's benchmark flags, each as the test binary
// parsed it (the -test.* flag's String()).
type GoTestFlags struct {
	// Bench is the -bench regular expression.
	Bench string
	// Benchtime is -benchtime: a duration ("1s") or an iteration count
	// ("100x").
	Benchtime string
	// Count is -count, at least 1.
	Count int
	// CPU is the -cpu list ("1,2,4"), "" when not given (GOMAXPROCS).
	CPU string
	// Benchmem is -benchmem.
	Benchmem bool
}
