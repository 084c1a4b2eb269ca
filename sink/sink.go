package sink

import "runtime"

// Keep marks v as used, so the computation that produced it cannot be
// removed as dead code, even after that computation is inlined into the
// caller. Keep is built on [runtime.KeepAlive]. It is inlined, does not
// allocate for any T, and does not make v escape to the heap; in a b.N
// loop it costs what the compiler's own keep-alive in a [testing.B.Loop]
// body costs: one stack store per kept value. It writes no shared memory,
// so it is race-free inside [testing.B.RunParallel] bodies.
//
// Keep keeps the value; it does not hide where the value came from. A
// computation whose inputs are all constants is still evaluated at compile
// time, and Keep then keeps the constant. Pass such inputs through [Opaque].
func Keep[T any](v T) {
	runtime.KeepAlive(v)
}

// Opaque returns v unchanged, through a call the compiler cannot see into,
// so a benchmark input built from constants and passed through Opaque is
// not constant-folded: in bits.OnesCount(sink.Opaque(uint(0b10110))) the
// count runs at run time, where bits.OnesCount(0b10110) compiles to 3.
//
// Opaque is never inlined. A call costs one function call (a nanosecond or
// two) and does not allocate for any T: call it once, before the measured
// loop, and use its result inside the loop. v does not escape through
// Opaque: a pointer passed in escapes only as far as the caller lets the
// result escape. Opaque stops constant folding, not dead-code elimination:
// a result that is never used can still be removed. Use [Keep] for that.
//
//go:noinline
func Opaque[T any](v T) T {
	return v
}
