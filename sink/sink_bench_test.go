package sink_test

import (
	"testing"

	"github.com/benchkit/go-benchkit/sink"
)

// mix is splitmix64's finaliser: inlinable, pure, two multiplications.
// asm_test.go relies on it being the same function as testdata/asm's mix.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

var (
	mixIn   uint64 = 0x9e3779b97f4a7c15
	sinkU64 uint64 // typed global sink, for comparison only
	sinkAny any    // any sink, for comparison only
)

// BenchmarkSink measures the same inlinable mix call kept alive in each way
// the package doc discusses. bN-discard is what measuring nothing looks
// like: the compiler removed mix, the loop runs empty.
//
//	go test -run='^$' -bench=Sink -count=10 -benchtime=200ms ./sink/ | tee /tmp/sink.txt
//	benchstat /tmp/sink.txt
func BenchmarkSink(b *testing.B) {
	b.Run("bLoop-bare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mix(mixIn)
		}
	})
	b.Run("bLoop-Keep", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink.Keep(mix(mixIn))
		}
	})
	b.Run("bLoop-global", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkU64 = mix(mixIn)
		}
	})
	b.Run("bLoop-any", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkAny = mix(mixIn)
		}
	})
	b.Run("bN-discard", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			mix(mixIn)
		}
	})
	b.Run("bN-Keep", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sink.Keep(mix(mixIn))
		}
	})
}
