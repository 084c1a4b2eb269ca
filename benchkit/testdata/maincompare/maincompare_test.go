// Package maincompare is a fixture for benchkit's Main tests: control
// comparisons and a tracked benchmark in one package whose TestMain is
// benchkit.Main, so the report's comparisons section is checked on what
// control.Compare really records.
package maincompare

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/control"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

var xs = func() []uint64 {
	s := make([]uint64, 512)
	for i := range s {
		s[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	return s
}()

func sum(s []uint64) uint64 {
	var t uint64
	for _, x := range s {
		t += x
	}
	return t
}

func BenchmarkCompare(b *testing.B) {
	control.Compare(b,
		control.Func("old", func() uint64 { return sum(xs) }),
		control.Func("new", func() uint64 { return sum(xs[:len(xs)/2]) }),
	)
}

func BenchmarkTracked(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}
