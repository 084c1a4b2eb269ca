// Package latefail is a fixture for benchkit's Main tests: a package whose
// TestMain is benchkit.Main, with one b.N-style benchmark that is correct
// in its first -count repeat and stops its timer for good in the second.
// Track fails that repeat, but go test passes a later repeat's failure to
// no parent: it prints --- FAIL, then PASS, and m.Run returns 0. Main must
// exit 1 all the same.
package latefail

import (
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/benchkit"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

var sink int

// work spins for about d of wall time.
func work(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
		sink++
	}
}

// repeat counts the -count repeats: testing starts each one with b.N = 1.
var repeat int

func BenchmarkLateStop(b *testing.B) {
	benchkit.Track(b)
	if b.N == 1 {
		repeat++
	}
	if repeat >= 2 {
		b.StopTimer()
	}
	for range b.N {
		work(5 * time.Microsecond)
	}
}
