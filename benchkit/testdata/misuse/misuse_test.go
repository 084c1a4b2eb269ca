// Package misuse holds benchmarks that misuse benchkit or end early, for
// benchkit's end-to-end tests: each must behave as its comment says.
package misuse

import (
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

// xs is long enough that summing it costs well above the empty-loop floor
// (tens of ns), so no eliminated-work flag muddles these cases.
var xs = func() []uint64 {
	s := make([]uint64, 64)
	for i := range s {
		s[i] = uint64(i)
	}
	return s
}()

func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// BenchmarkTrackTwice calls Track twice: a misuse flag, not a failure.
func BenchmarkTrackTwice(b *testing.B) {
	benchkit.Track(b)
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

// BenchmarkNilLoopFunc passes a nil f to Loop: the benchmark fails with a
// benchkit message.
func BenchmarkNilLoopFunc(b *testing.B) {
	var f func() int
	benchkit.Loop(b, f)
}

// BenchmarkNilSetupFunc passes a nil setup to LoopWithSetup.
func BenchmarkNilSetupFunc(b *testing.B) {
	benchkit.LoopWithSetup[int, int](b, nil, func(int) int { return 0 })
}

// BenchmarkSkips skips after Track: nothing is recorded or reported.
func BenchmarkSkips(b *testing.B) {
	benchkit.Track(b)
	b.Skip("skipped on purpose")
}

// BenchmarkFails fails after its loop: no metric, no flag.
func BenchmarkFails(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
	b.Error("failed on purpose")
}

// BenchmarkParent calls b.Run: only the sub-benchmarks are measured and
// recorded.
func BenchmarkParent(b *testing.B) {
	benchkit.Track(b)
	for _, n := range []int{16, 64} {
		b.Run("len="+strconv.Itoa(n), func(b *testing.B) {
			benchkit.Track(b)
			for b.Loop() {
				sink.Keep(sum(xs[:n]))
			}
		})
	}
}

// BenchmarkParallel tracks a RunParallel benchmark from its top.
func BenchmarkParallel(b *testing.B) {
	benchkit.Track(b)
	var total atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		var s uint64
		for pb.Next() {
			s += sum(xs)
		}
		total.Add(s)
	})
}

// BenchmarkStrictDCE fails because its work is eliminated and it asked for
// flags to fail.
func BenchmarkStrictDCE(b *testing.B) {
	benchkit.Track(b, benchkit.ExpectAllocs(1), benchkit.FailOnFlags())
	for range b.N {
		_ = make([]byte, 8)
	}
}

// BenchmarkLoopTwice calls Loop twice: the second fails with benchkit's
// message rather than testing's "B.Loop called with timer stopped".
func BenchmarkLoopTwice(b *testing.B) {
	benchkit.Loop(b, func() uint64 { return sum(xs) })
	benchkit.Loop(b, func() uint64 { return sum(xs) })
}

// BenchmarkLoopAfterBLoop runs a plain b.Loop, then LoopWithSetup.
func BenchmarkLoopAfterBLoop(b *testing.B) {
	for b.Loop() {
		sink.Keep(sum(xs))
	}
	benchkit.LoopWithSetup(b, func() int { return 1 }, func(int) uint64 { return sum(xs) })
}

// BenchmarkLoopInParallel calls Loop inside a RunParallel body: it fails
// with benchkit's message.
func BenchmarkLoopInParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		benchkit.Loop(b, func() uint64 { return sum(xs) })
	})
}

// BenchmarkTrackInParallel calls Track inside a RunParallel body, on every
// goroutine: one message, no race (run under -race by the test), and the
// benchmark still runs.
func BenchmarkTrackInParallel(b *testing.B) {
	var total atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		benchkit.Track(b)
		var s uint64
		for pb.Next() {
			s += sum(xs)
		}
		total.Add(s)
	})
}
