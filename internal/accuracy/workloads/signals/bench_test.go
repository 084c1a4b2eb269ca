package signals

import (
	"math/bits"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/examples/seed000"
	"github.com/benchkit/go-benchkit/internal/accuracy/workloads/calibrate"
	"github.com/benchkit/go-benchkit/internal/accuracy/workloads/gate"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

// signalsEnv, set to 1, runs the benchmarks at a measuring -benchtime.
const signalsEnv = "BENCHKIT_SIGNALS"

func harnessOnly(b *testing.B) { gate.HarnessOnly(b, signalsEnv, "signals") }

// BenchmarkSteady: three steady workloads of different kinds, one
// benchkit.Loop each.
func BenchmarkSteady(b *testing.B) {
	harnessOnly(b)
	xs := calibrate.Xs[:512]
	words := calibrate.Words[:64]
	keys := calibrate.Keys[:64]
	b.Run("work=sum", func(b *testing.B) {
		benchkit.Loop(b, func() uint64 { return seed000.Sum(xs) })
	})
	b.Run("work=sort", func(b *testing.B) {
		benchkit.Loop(b, func() []string { return calibrate.SortCopy(words) })
	})
	b.Run("work=map", func(b *testing.B) {
		benchkit.Loop(b, func() uint64 { return calibrate.Lookup(calibrate.Table, keys) })
	})
}

// BenchmarkTiny: correct work of 1–3 ns per op, results kept and inputs
// opaque, tracked by benchkit.Track for its eliminated-work check.
func BenchmarkTiny(b *testing.B) {
	harnessOnly(b)
	x := sink.Opaque(uint64(0x9e3779b97f4a7c15))
	y := sink.Opaque(uint64(12345))
	b.Run("work=popcount", func(b *testing.B) {
		benchkit.Track(b)
		v := x
		for b.Loop() {
			v = v*3 + uint64(bits.OnesCount64(v))
		}
		sink.Keep(v)
	})
	b.Run("work=muladd", func(b *testing.B) {
		benchkit.Track(b)
		v := x
		for b.Loop() {
			v = v*y + x
		}
		sink.Keep(v)
	})
	b.Run("work=sum4", func(b *testing.B) {
		benchkit.Track(b)
		xs := calibrate.Xs[:4]
		var v uint64
		for b.Loop() {
			v += seed000.Sum(xs)
		}
		sink.Keep(v)
	})
}
