// Package compat is a fixture for the go test flag compatibility matrix
// (docs/compatibility.md): benchkit.Main in TestMain, and each benchmark
// shape benchkit supports, run by benchkit/compat_test.go under one go
// test flag at a time.
package compat

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

// TestQuick is a plain test, for -run, -short and -v.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Log("short mode")
	}
}

// TestBenchmarkFromTest calls testing.Benchmark on a tracked body.
func TestBenchmarkFromTest(t *testing.T) {
	r := testing.Benchmark(func(b *testing.B) {
		benchkit.Track(b)
		for b.Loop() {
			sink.Keep(sum(xs))
		}
	})
	if r.N == 0 {
		t.Fatal("testing.Benchmark ran nothing")
	}
}

func BenchmarkTrackLoop(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

func BenchmarkTrackN(b *testing.B) {
	benchkit.Track(b)
	for range b.N {
		sink.Keep(sum(xs))
	}
}

func BenchmarkBatches(b *testing.B) {
	benchkit.Loop(b, func() uint64 { return sum(xs) })
}

func BenchmarkSub(b *testing.B) {
	for _, n := range []int{64, 256} {
		b.Run("n="+itoa(n), func(b *testing.B) {
			benchkit.Track(b)
			for b.Loop() {
				sink.Keep(sum(xs[:n]))
			}
		})
	}
}

func BenchmarkParallel(b *testing.B) {
	benchkit.Track(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			sink.Keep(sum(xs))
		}
	})
}

func BenchmarkCompare(b *testing.B) {
	control.Compare(b,
		control.Func("full", func() uint64 { return sum(xs) }),
		control.Func("half", func() uint64 { return sum(xs[:len(xs)/2]) }),
	)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
