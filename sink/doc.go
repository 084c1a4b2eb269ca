// Package sink stops the compiler from optimising away the work a benchmark
// means to measure.
//
// Two things go wrong in Go microbenchmarks. Dead-code elimination removes
// a computation whose result nothing reads, once the call is inlined: the
// loop runs empty and reports a fraction of a nanosecond. Constant folding
// evaluates a computation whose inputs are all constants at compile time:
// the loop reads a literal. [Keep] answers the first, [Opaque] the second:
//
//	func BenchmarkMix(b *testing.B) {
//		x := sink.Opaque(uint64(0xdeadbeef)) // a constant input: hide it, once, outside the loop
//		for i := 0; i < b.N; i++ {
//			sink.Keep(mix(x)) // a b.N loop keeps nothing alive by itself
//		}
//	}
//
// Since Go 1.24 the compiler keeps alive the work in the body of a loop
// written literally as for b.Loop() { ... }, where Keep is redundant but
// harmless. Keep is still needed everywhere else: in b.N-style loops, in
// closures handed to helpers (their bodies are compiled on their own), in
// code outside the loop's braces, in RunParallel bodies, and in any loop
// not written literally as for b.Loop(). No sink, b.Loop included, stops
// constant folding: pass constant inputs through Opaque, once, before the
// loop. There are no sink variables: a store to one makes the value escape
// to the heap and races under RunParallel, and one of type any boxes it.
//
// The compiler's rules, the Go releases they hold for and how to check a
// benchmark are in docs/compatibility.md in the repository; the costs in
// docs/measurements.md. sink imports nothing but the runtime.
package sink
