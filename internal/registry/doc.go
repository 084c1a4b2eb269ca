// Package registry records what running benchmarks measured in this
// process, keyed by benchmark name, so that benchkit.Main can print one
// report after m.Run: it holds only what crosses from a running benchmark
// (in package benchkit or control) to Main. What Main makes itself after
// the run (instruction counts, the cross-build comparison) it passes to
// the report directly.
//
// Producers call [Registry.AddRun], [Registry.AddFlag],
// [Registry.SetTimeline] and [Registry.AddComparison]; the session reads
// [Registry.Benchmarks]. Every method is safe for concurrent use, and
// memory is bounded whatever the number of runs: at most [MaxRuns] runs,
// [MaxFlags] flags, [MaxTimeline] timeline points and [MaxComparisons]
// comparisons are kept per benchmark, and at most [MaxBenchmarks] names.
package registry
