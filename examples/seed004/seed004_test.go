package seed004

import (
	"crypto/sha256"
	"math/bits"
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

func TestProcess(t *testing.T) {
	in := BuildFixture(16)
	if got := Process(in); got != "ABCDEFGHABCDEFGH" || len(MakeBuffer(64)) != 64 {
		t.Fatalf("Process(%q) = %q", in, got)
	}
}

var sinkBytes []byte

// BenchmarkMakeBuffer_DCE is seed 004's dead-code elimination: the result
// is discarded in a b.N loop, MakeBuffer is inlined, and the make is
// deleted. benchkit flags 0 allocs/op against the declared 1, and the
// empty-loop ns/op.
func BenchmarkMakeBuffer_DCE(b *testing.B) {
	benchkit.Track(b, benchkit.ExpectAllocs(1))
	for range b.N {
		MakeBuffer(64)
	}
}

// BenchmarkMakeBuffer_Correct keeps the result alive with the seed's sink
// pattern: one allocation per op, no flag.
func BenchmarkMakeBuffer_Correct(b *testing.B) {
	benchkit.Track(b, benchkit.ExpectAllocs(1))
	var s []byte
	for range b.N {
		s = MakeBuffer(64)
	}
	sinkBytes = s
}

var sinkInt int

// BenchmarkOnesCount_ConstantFolded counts the bits of a constant, which
// the compiler evaluates to 3: the loop measures nothing.
func BenchmarkOnesCount_ConstantFolded(b *testing.B) {
	benchkit.Track(b)
	var s int
	for range b.N {
		s = bits.OnesCount(0b10110)
	}
	sinkInt = s
}

// BenchmarkOnesCount_Correct passes the input through sink.Opaque, once,
// outside the loop, so the count runs at run time. It is one POPCNT
// instruction: near the floor, it may be flagged too, which is why the
// message points at the assembly.
func BenchmarkOnesCount_Correct(b *testing.B) {
	benchkit.Track(b)
	in := sink.Opaque(uint(0b10110))
	var s int
	for range b.N {
		s = bits.OnesCount(in)
	}
	sinkInt = s
}

var sinkStr string

// BenchmarkProcess_TimerOrder_Fixed is seed 004's per-iteration setup in
// the b.N style, in the correct order (its TimerOrder_BUG restarted the
// timer after the work and timed the fixture instead).
func BenchmarkProcess_TimerOrder_Fixed(b *testing.B) {
	benchkit.Track(b)
	var s string
	for range b.N {
		b.StopTimer()
		input := BuildFixture(FixtureSize)
		b.StartTimer()
		s = Process(input)
	}
	sinkStr = s
}

// BenchmarkProcess_PerIterSetup is the same measurement with
// benchkit.LoopWithSetup, where the wrong order cannot be written and the result
// is kept alive without a sink.
func BenchmarkProcess_PerIterSetup(b *testing.B) {
	benchkit.LoopWithSetup(b, func() string { return BuildFixture(FixtureSize) }, Process)
}

var payload = []byte(strings.Repeat("x", 1024))

// BenchmarkHash_BLoop is seed 004's b.Loop benchmark with Track: setup
// before the loop is not timed, and the result is kept alive.
func BenchmarkHash_BLoop(b *testing.B) {
	benchkit.Track(b)
	data := make([]byte, 1024)
	copy(data, payload)
	for b.Loop() {
		sha256.Sum256(data)
	}
}

// BenchmarkHash_Loop is the same with benchkit.Loop, which adds the
// within-run CV (batchcv%) and the batch timeline.
func BenchmarkHash_Loop(b *testing.B) {
	data := make([]byte, 1024)
	copy(data, payload)
	benchkit.Loop(b, func() [32]byte { return sha256.Sum256(data) })
}
