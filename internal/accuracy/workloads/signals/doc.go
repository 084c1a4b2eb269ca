// Package signals holds the workloads of the signals table
// (internal/accuracy/signals): benchmarks that are correct and steady, on
// which it counts how often the report's grades, regime calls and
// timing-only flags fire. The table runs them many times, each time in a
// fresh process, next to examples/seed001's hog, and counts; the wander
// table (internal/accuracy/wander) runs BenchmarkSteady to tell why fresh
// processes differ.
//
// BenchmarkSteady measures, with benchkit.Loop (one run, the batch
// timeline), three steady workloads of different kinds:
//
//	work   what one call does
//	sum    adds 512 uint64s (compute-bound, about 170 ns)
//	sort   copies and sorts 64 strings of 8–15 bytes (allocates, about 2.4 µs)
//	map    looks up 64 pseudo-random keys in a 4096-entry map (memory-bound)
//
// BenchmarkTiny measures, with benchkit.Track and b.Loop, correct work of
// 1–3 ns per op whose result is kept (sink.Keep) and whose inputs are
// opaque (sink.Opaque): nothing is eliminated, so every "eliminated" flag
// raised on them is a false alarm of the check that compares ns/op with
// the empty-loop floor.
//
// The benchmarks run only with BENCHKIT_SIGNALS=1 in the environment
// (both tables set it) or under a -benchtime=Nx smoke run; otherwise they
// skip, so that go test -bench=. ./... stays short.
package signals
