package warmup

import "testing"

// Benchmark is the body of a disposable first benchmark. A process's first
// benchmark can pay a penalty that later ones do not (CPU frequency ramp,
// cold caches and page tables, the runtime still sizing itself); put this
// one first in the file, and first in the -bench pattern, so that the
// penalty lands on a line nobody reads:
//
//	func BenchmarkWarmup(b *testing.B) { warmup.Benchmark(b) }
//
// go test runs benchmarks in source order, so BenchmarkWarmup must be the
// first Benchmark function in its package's first file (files are taken in
// name order), and it must match the -bench pattern, for example
// -bench='Warmup|Sum'.
//
// Benchmark runs the same workload as [Run] in a `for b.Loop()` loop, so it
// honours -benchtime, both as a duration and as a count (Nx; 1x runs the
// workload once). Its result line reports the time of one workload unit as
// ns/op, which describes the warm-up workload and nothing else: discard the
// line (benchstat -filter '-.name:Warmup', or grep -v Warmup).
func Benchmark(b *testing.B) {
	data := newData()
	for b.Loop() {
		unit(data)
	}
}
