// Package cpulist is a fixture for benchkit's -cpu tests: a
// package whose TestMain is benchkit.Main, with a b.N-style and a
// b.Loop-style benchmark, run with -cpu=1,2 (and 2,1). testing runs the
// first run1 of each benchmark before it sets the -cpu value, so Track
// used to file that run under the other value's name.
package cpulist

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/control"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

var xs = func() []uint64 {
	s := make([]uint64, 256)
	for i := range s {
		s[i] = uint64(i) * 2654435761
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

// BenchmarkCountN is b.N style: testing's ramp steps after run1 run at the
// -cpu value.
func BenchmarkCountN(b *testing.B) {
	benchkit.Track(b)
	var s uint64
	for range b.N {
		s += sum(xs)
	}
	sink.Keep(s)
}

// BenchmarkLoop is b.Loop style: its first repeat runs entirely in run1,
// at the GOMAXPROCS the previous benchmark left (golang/go#49980).
func BenchmarkLoop(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

// BenchmarkCompare is a control comparison: it runs inside b.Loop, so its
// first repeat too runs before testing sets the first -cpu value.
func BenchmarkCompare(b *testing.B) {
	control.Compare(b,
		control.Func("old", func() uint64 { return sum(xs) }),
		control.Func("new", func() uint64 { return sum(xs[:128]) }),
	)
}
