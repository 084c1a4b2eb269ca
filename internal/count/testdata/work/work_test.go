// Package work is the fixture of package count's end-to-end test: one
// package built twice, plainly and with -tags plus5, in which
// BenchmarkWork and BenchmarkWorkN sum 5% more elements (4200 of 4000).
// BenchmarkSkips skips and BenchmarkFails fails, for the errors.
package work

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

var xs = func() []uint64 {
	s := make([]uint64, size)
	for i := range s {
		s[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	return s
}()

// sum mixes each element into the sum so far, so that the loop is
// neither vectorised nor folded.
//
//go:noinline
func sum(s []uint64) uint64 {
	var t uint64
	for _, x := range s {
		t += x ^ (t >> 7)
	}
	return t
}

func BenchmarkWork(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

func BenchmarkWorkN(b *testing.B) {
	benchkit.Track(b)
	for range b.N {
		sink.Keep(sum(xs))
	}
}

func BenchmarkSkips(b *testing.B) {
	b.Skip("work testdata: a benchmark that skips")
}

func BenchmarkFails(b *testing.B) {
	b.Fatal("work testdata: a benchmark that fails")
}
