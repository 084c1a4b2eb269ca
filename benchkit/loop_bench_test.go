package benchkit

import "testing"

var mixIn uint64 = 0x0123456789abcdef

// mix is a few nanoseconds of inlinable work the compiler would delete if
// its result were discarded.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// BenchmarkLoopOverhead measures what Loop adds per iteration over a plain
// `for b.Loop()` body doing the same work (impl=plain), and over the same
// loop calling the work through a func value (impl=closure), which is the
// part of Loop's cost its func() T signature makes unavoidable; compare with
//
//	go test -run='^$' -bench=LoopOverhead -count=10 ./benchkit | benchstat -col /impl -
func BenchmarkLoopOverhead(b *testing.B) {
	b.Run("impl=plain", func(b *testing.B) {
		x := mixIn
		for b.Loop() {
			mix(x)
		}
	})
	b.Run("impl=closure", func(b *testing.B) {
		x := mixIn
		f := sinkOpaqueFunc(func() uint64 { return mix(x) })
		for b.Loop() {
			f()
		}
	})
	b.Run("impl=Loop", func(b *testing.B) {
		x := mixIn
		Loop(b, func() uint64 { return mix(x) })
	})
}

// sinkOpaqueFunc returns f through a call the compiler cannot see into, so
// the closure call is not devirtualised and inlined.
//
//go:noinline
func sinkOpaqueFunc(f func() uint64) func() uint64 { return f }
