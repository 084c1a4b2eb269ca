// Package registry records what benchkit and control measured, keyed by
// benchmark name, so that benchkit.Main can print one report after m.Run.
//
// It is the only channel between package benchkit, package control and the
// report renderer: producers call [Registry.AddRun], [Registry.AddFlag],
// [Registry.SetTimeline] and [Registry.AddComparison], and Main's session
// [Registry.SetCount] after the run; the report reads
// [Registry.Benchmarks]. Every method is safe for concurrent use, and memory
// is bounded whatever the number of runs: at most [MaxRuns] runs,
// [MaxFlags] flags, [MaxTimeline] timeline points, [MaxComparisons]
// comparisons and one instruction count (its output at most
// [MaxCountOutput] bytes) are kept per benchmark, and at most
// [MaxBenchmarks] names.
package registry
