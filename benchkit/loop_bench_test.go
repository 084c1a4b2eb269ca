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
// `for b.Loop()` body doing the same work; compare with
//
//	go test -run='^$' -bench=LoopOverhead -count=10 ./benchkit | benchstat -col /impl -
func BenchmarkLoopOverhead(b *testing.B) {
	b.Run("impl=plain", func(b *testing.B) {
		x := mixIn
		for b.Loop() {
			mix(x)
		}
	})
	b.Run("impl=Loop", func(b *testing.B) {
		x := mixIn
		Loop(b, func() uint64 { return mix(x) })
	})
}
