// Package report renders benchkit's end-of-run hygiene report: a text
// report for the terminal, a JSON report for machines, and a samples file
// that benchstat reads directly.
//
// Every output is a pure function of an [Input] (environment facts and
// warnings, the warm-up summary, the registry's records, the settings):
//
//	in := report.Input{Facts: ..., Warmup: ..., Benches: registry.Default().Benchmarks()}
//	a := report.Analyze(in)              // rows, comparisons, failures
//	report.TextAnalysis(os.Stdout, in, a) // every line starts with report.Prefix
//	report.JSONAnalysis(f, in, a)         // schema "benchkit-report/v1"
//	report.SamplesAnalysis(g, in, a)      // benchfmt: benchstat g
//
// # Text
//
// Every line starts with [Prefix] ("benchkit │ "), so that the report
// printed after `go test -bench` output leaves it parseable:
// golang.org/x/perf/benchfmt.Reader reads no result, unit or configuration
// line from it. Sections: environment (facts, then ⚠ warnings), warm-up,
// benchmarks (one row per benchmark and GOMAXPROCS value: samples, median
// ns/op, CV% and its grade, run-queue wait share, runs needed by Lehr's
// rule, flag tags), strip plots of the samples in order, findings (each
// flag's message and the regimes, outliers and grade explained with a fix),
// control comparisons, failures.
//
// # Samples and statistics
//
// A row's samples are its runs' ns/op when it has at least two runs
// (-count), else the batch timeline benchkit.Loop recorded inside its one
// run; [Row.Source] says which. CV is the sample standard deviation over
// the mean, in percent, graded by [GradeCV]. Runs needed is
// max(⌈16·(CV/Δ)²⌉, [MinRunsForCI]) with Δ = [Settings.DeltaPct] (default
// 5%): Lehr's rule for about 80% power at α = 0.05 per side. With batch
// samples it is computed from the within-run CV, which understates the
// run-to-run CV that a -count comparison sees. Two regimes are
// stats.TwoRegimes over the samples, or, when it finds none, a contiguous
// block of samples shifted in level against the rest (stats.ShiftedBlock:
// a CPU hog's stretch is too spiky for a split by value, but stands out in
// order); outliers are Tukey's fences
// (stats.Tukey). Contention is the median over runs of the run-queue wait
// share (registry.Run.WaitFraction) in percent.
//
// # JSON schema benchkit-report/v1
//
// One object. Unknown numbers are null, never NaN; arrays are never null.
//
//	schema              "benchkit-report/v1"
//	package             import path of the package under test, or ""
//	goos, goarch        the platform, or ""
//	settings            {delta_pct: Δ for runs_needed, strict: bool}
//	environment         {facts: [{name, value}], warnings: [{key, message}]}
//	                    value is "unknown" where a probe could not read
//	warmup              null when it did not run, else {summary (one line),
//	                    duration_ns, batches, converged, first_to_last (first
//	                    batch time over last, or null), warnings: [string]}
//	benchmarks          one object per benchmark and GOMAXPROCS value:
//	  name              b.Name(), e.g. "BenchmarkSum/n=10"
//	  display           as go test prints it: "Sum/n=10-2"
//	  procs             GOMAXPROCS of its runs (0 when it has none)
//	  total_runs        runs recorded, including any the registry dropped
//	  sample_source     "runs", "batches" or "none"
//	  samples_ns_per_op the samples, in order
//	  median_ns_per_op  median ns/op of the runs (or of the batches), or null
//	  cv_pct            CV of the samples in percent, or null
//	  grade             "excellent", "acceptable", "noisy", "do-not-trust",
//	                    or "unknown"
//	  wait_pct          median run-queue wait share in percent, or null
//	  runs_needed       runs per side for Δ (see above), or null;
//	  runs_needed_capped true when Lehr's rule exceeded stats.MaxLehrRuns
//	  regimes           null, or {low, high: {center_ns_per_op (median),
//	                    size, lo_ns_per_op, hi_ns_per_op, segments: [[start,
//	                    end)] sample indices from 0}, split_ns_per_op,
//	                    separation, method: "value-split"
//	                    (stats.TwoRegimes: Ashman's D, Low.Hi ≤ split <
//	                    High.Lo) or "level-shift" (stats.ShiftedBlock: a
//	                    block against the rest by position, ranges may
//	                    overlap, split the midpoint of the centres,
//	                    separation the median/MAD analogue of D)}
//	  outliers          null (fewer than 4 samples), or {q1_ns_per_op,
//	                    q3_ns_per_op, low_mild, high_mild, low_severe,
//	                    high_severe, indices: sample indices,
//	                    high_stretch: [start, end) of the longest run of
//	                    consecutive high outliers (≥ 5 and ≥ 5% of the
//	                    samples) or null}
//	  flags             [{kind (registry.FlagKind), message, count}]
//	  runs              [{seq (process-wide order from 1), procs, n,
//	                    ns_per_op, allocs_per_op, bytes_per_op, wall_ns,
//	                    timed_fraction, wait_fraction, involuntary_switches,
//	                    within_cv_pct}], unknown values null
//	  timeline_ns_per_op the Loop batch timeline (per-op cost per batch)
//	comparisons         one per control comparison: {benchmark, baseline,
//	                    baseline_ns_per_op, control, candidates: [estimate],
//	                    rounds, confidence (e.g. 0.975), overhead_ns, gate_pct
//	                    (0: no gate), gate_failed, warnings}; an estimate is
//	                    {name, ns_per_op, delta_pct, lo_pct, hi_pct (the
//	                    median of impl/baseline − 1 in percent and its CI),
//	                    verdict ("faster", "slower", "same", "undecided"),
//	                    reason}
//	failures            messages of the reasons the run fails (gates, and
//	                    every flag in strict mode)
//	failed              failures is not empty
//	dropped_benchmarks  names the registry could not hold
//
// Fields may be added within v1; a removed or redefined field makes v2.
package report
