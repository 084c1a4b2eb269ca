package warmup

import "testing"

// Benchmark is the body of a disposable first benchmark, so that the
// penalty a process's first benchmark can pay lands on a line nobody
// reads:
//
//	func BenchmarkWarmup(b *testing.B) { warmup.Benchmark(b) }
//
// go test runs benchmarks in source order, so BenchmarkWarmup must be the
// first Benchmark function in its package's first file (files are taken in
// name order), and it must match the -bench pattern, for example
// -bench='Warmup|Sum'. Benchmark runs Run's workload in a `for b.Loop()`
// loop, so it honours -benchtime, as a duration or a count (Nx). Its ns/op
// describes the warm-up workload and nothing else: discard the line
// (benchstat -filter '-.name:Warmup', or grep -v Warmup).
func Benchmark(b *testing.B) {
	data := newData()
	for b.Loop() {
		unit(data)
	}
}
