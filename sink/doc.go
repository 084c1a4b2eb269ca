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
// Keep is inlined and allocation-free. In a b.N loop it costs what the
// compiler's own keep-alive in a for b.Loop() body costs (2.54 ns against
// 2.54 ns per iteration for a two-multiply function; the repository's
// docs/measurements.md has the command and table). Opaque is one
// non-inlined call; it belongs outside the loop. sink imports nothing but
// the runtime.
//
// # When a sink is still needed
//
// Since Go 1.24 a loop written literally as
//
//	for b.Loop() {
//		...
//	}
//
// is kept alive by the compiler itself: in every statement between those
// braces (nested blocks included) it keeps the results of calls, the
// arguments of calls that return nothing, and the variables assigned. In
// Go 1.26 this is done with keep-alive marks rather than by refusing to
// inline. Keep is redundant there; it is harmless, and costs one more stack
// store per iteration, since the compiler keeps Keep's argument and Keep
// keeps it again. A sink is still needed everywhere else:
//
//   - b.N-style loops: for i := 0; i < b.N; i++ { ... } and for range b.N
//     keep nothing alive. An inlinable pure call with a discarded result is
//     removed.
//   - Closures handed to helpers: in helper(b, func() { f(x) }) the helper's
//     own for b.Loop() keeps the call alive, but the closure's body is
//     compiled on its own and f(x) in it is removed; the closure compiles to
//     a bare RET. Write func() { sink.Keep(f(x)) }, or take a func() T and
//     let the helper's loop use the result.
//   - Code outside the loop braces: setup before the loop and work after it
//     get no keep-alive.
//   - RunParallel bodies: for pb.Next() { ... } is not a b.Loop loop.
//   - Any loop not written literally for b.Loop(): a wrapper such as
//     for k.Loop() (even one that only forwards to b.Loop), a method value
//     (loop := b.Loop; for loop()), for ok && b.Loop() and
//     for b.Loop() == true all lose the keep-alive. Only the receiver may
//     vary: for k.B.Loop() still matches.
//   - Go 1.26.0 to 1.26.2: inside for b.Loop(), _ = f(x) was still removed
//     (golang/go#77654, fixed in Go 1.26.3). sink.Keep(f(x)) works on every
//     version.
//
// The package's tests check each of these cases in the compiled code of
// testdata/asm (see asm_test.go). To check your own benchmark, look for the
// work in go test -gcflags=-S -run='^$' -bench='^$' . output, or for
// "function result will be kept alive" in -gcflags=-m=2 output.
//
// # Constant folding
//
// No sink stops constant folding, b.Loop included. Inside for b.Loop(),
// bits.OnesCount(0b10110) compiles to the constant 3 (MOVL $3 on amd64),
// and sink.Keep(mix(0xdeadbeef)) keeps a precomputed constant. Build such
// inputs outside the loop and pass them through [Opaque]; the compiler
// cannot know what it returns, so the computation runs at run time. A
// value read from a package-level variable has the same effect, but Opaque
// says why it is there and keeps the input local.
//
// # Why there are no sink variables
//
// A typed package-level variable (var Uint64 uint64; Uint64 = f(x)) keeps
// work alive as cheaply as Keep (2.67 ns against 2.67 ns per iteration), but
// it is worse in two ways, so this package does not offer one. A store to a
// global makes the value escape: Global = make([]byte, 64) allocates on
// every iteration while sink.Keep(make([]byte, 64)) allocates nothing, so
// the benchmark measures a heap allocation the production code may not
// have. And concurrent stores from RunParallel bodies are a data race. A
// sink of type any is worse still: each store boxes the value, about 32 ns
// and one allocation per iteration on top of the work. The tests show the
// allocation counts; docs/measurements.md shows the timings.
package sink
