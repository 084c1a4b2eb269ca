// Package seed004 reproduces seed 004's benchmarks with benchkit.Track, for
// benchkit's end-to-end tests (benchkit/e2e_test.go). It lives under
// testdata so that `go test ./...` does not run it.
package seed004

import (
	"crypto/sha256"
	"math/bits"
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

func makeBuffer(n int) []byte {
	return make([]byte, n) // heap-escaping allocation
}

var sink []byte

// BenchmarkMakeBuffer_DCE discards the result: the compiler inlines
// makeBuffer and removes the make. Track flags it.
func BenchmarkMakeBuffer_DCE(b *testing.B) {
	benchkit.Track(b, benchkit.ExpectAllocs(1))
	for range b.N {
		makeBuffer(64)
	}
}

// BenchmarkMakeBuffer_Correct keeps the result through a package variable.
func BenchmarkMakeBuffer_Correct(b *testing.B) {
	benchkit.Track(b, benchkit.ExpectAllocs(1))
	var s []byte
	for range b.N {
		s = makeBuffer(64)
	}
	sink = s
}

var sinkInt int

// BenchmarkOnesCount_ConstantFolded counts the bits of a constant: the
// compiler folds it to 3.
func BenchmarkOnesCount_ConstantFolded(b *testing.B) {
	benchkit.Track(b)
	var s int
	for range b.N {
		s = bits.OnesCount(0b10110)
	}
	sinkInt = s
}

var onesInput uint = 0b10110

// BenchmarkOnesCount_Correct reads its input from a variable.
func BenchmarkOnesCount_Correct(b *testing.B) {
	benchkit.Track(b)
	var s int
	for range b.N {
		s = bits.OnesCount(onesInput)
	}
	sinkInt = s
}

const fixtureSize = 256

func buildFixture(n int) string { return strings.Repeat("abcdefgh", n/8) }

func processString(s string) string { return strings.ToUpper(s) }

var sinkStr string

// BenchmarkProcess_PerIterSetup_Correct is seed 004's b.N-style correct order.
func BenchmarkProcess_PerIterSetup_Correct(b *testing.B) {
	benchkit.Track(b)
	var s string
	for range b.N {
		b.StopTimer()
		input := buildFixture(fixtureSize)
		b.StartTimer()
		s = processString(input)
	}
	sinkStr = s
}

// BenchmarkProcess_TimerOrder_BUG is seed 004's bug: the timer measures the
// fixture and not the work.
func BenchmarkProcess_TimerOrder_BUG(b *testing.B) {
	benchkit.Track(b)
	var s string
	for range b.N {
		b.StopTimer()
		s = processString(buildFixture(fixtureSize))
		b.StartTimer()
		_ = buildFixture(fixtureSize)
	}
	sinkStr = s
}

// BenchmarkProcess_Setup is the same measurement with benchkit.Setup.
func BenchmarkProcess_Setup(b *testing.B) {
	benchkit.Setup(b, func() string { return buildFixture(fixtureSize) }, processString)
}

var payload = []byte(strings.Repeat("x", 1024))

// BenchmarkHash_BLoop is seed 004's b.Loop benchmark with Track.
func BenchmarkHash_BLoop(b *testing.B) {
	benchkit.Track(b)
	data := make([]byte, 1024)
	copy(data, payload)
	for b.Loop() {
		sha256.Sum256(data)
	}
}

// BenchmarkHash_Loop measures the same with benchkit.Loop.
func BenchmarkHash_Loop(b *testing.B) {
	data := make([]byte, 1024)
	copy(data, payload)
	benchkit.Loop(b, func() [32]byte { return sha256.Sum256(data) })
}
