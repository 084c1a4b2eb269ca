// Package metrics is a fixture for the extra-metrics switch: Track, Loop
// and control.Compare in a package without TestMain, built with go test -c
// and run by benchkit/main_metrics_test.go with and without
// BENCHKIT_METRICS=off.
package metrics

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/control"
	"github.com/benchkit/go-benchkit/sink"
)

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

func BenchmarkTracked(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

func BenchmarkLooped(b *testing.B) {
	benchkit.Loop(b, func() uint64 { return sum(xs) })
}

func BenchmarkCompare(b *testing.B) {
	b.SetBytes(int64(8 * len(xs)))
	control.Compare(b,
		control.Func("old", func() uint64 { return sum(xs) }),
		control.Func("new", func() uint64 { return sum(xs[:len(xs)/2]) }),
	)
}
