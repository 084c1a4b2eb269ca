// Package warmup warms the machine up before benchmarks are measured.
//
// In a `go test -bench` process the first benchmark can run slower than
// identical code measured after it: a CPU still ramping its clock, cold
// caches and page tables, and a runtime still sizing itself all cost the
// first work done. From TestMain, or anywhere before measuring, call [Run]:
// it runs a fixed CPU-bound workload in short batches of equal work until
// the last few batch times agree, or a time limit passes, and says what
// happened. [Stable], [Limit], [MinTime] and [BatchTime] change the rule.
// Without a TestMain, make the first benchmark of the package a disposable
// one and discard its line:
//
//	func BenchmarkWarmup(b *testing.B) { warmup.Benchmark(b) }
//
// Whether a warm-up helps on a given machine is an empirical question:
// docs/measurements.md in the repository has the command that measures it,
// and how the defaults were chosen. Package warmup imports nothing outside
// the standard library.
package warmup
