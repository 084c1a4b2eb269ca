// Package registry records what benchkit and control measured, keyed by
// benchmark name, so that benchkit.Main can print one report after m.Run.
//
// It is the only channel between package benchkit, package control and the
// report renderer: producers call [Registry.AddRun], [Registry.AddFlag],
// [Registry.SetTimeline] and [Registry.AddComparison]; the report reads
// [Registry.Benchmarks]. Every method is safe for concurrent use, and memory
// is bounded whatever the number of runs: at most [MaxRuns] runs,
// [MaxFlags] flags, [MaxTimeline] timeline points and [MaxComparisons]
// comparisons are kept per benchmark, and at most [MaxBenchmarks] names.
package registry
