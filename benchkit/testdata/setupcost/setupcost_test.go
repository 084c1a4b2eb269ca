// Package setupcost holds benchmarks whose per-iteration setup around the
// timer costs more wall time than the measured work (a 256-byte ToUpper),
// for benchkit's end-to-end tests of the timer-toggling and setup-cost
// flags. It lives under testdata so that `go test ./...` does not run it.
package setupcost

import (
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

const fixtureSize = 256

func buildFixture(n int) string { return strings.Repeat("abcdefgh", n/8) }

func process(s string) string { return strings.ToUpper(s) }

var sinkStr string

// BenchmarkStopStart is seed 004's b.N-style per-iteration setup in the
// correct order: the StopTimer/StartTimer pair of every iteration costs
// far more wall time than the work, so Track raises timer-toggling.
func BenchmarkStopStart(b *testing.B) {
	benchkit.Track(b)
	var s string
	for range b.N {
		b.StopTimer()
		input := buildFixture(fixtureSize)
		b.StartTimer()
		s = process(input)
	}
	sinkStr = s
}

// BenchmarkLoopWithSetup is the same measurement with
// benchkit.LoopWithSetup, which raises setup-cost with the pairs' cost.
func BenchmarkLoopWithSetup(b *testing.B) {
	benchkit.LoopWithSetup(b, func() string { return buildFixture(fixtureSize) }, process)
}
