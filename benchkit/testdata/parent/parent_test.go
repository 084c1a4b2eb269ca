// Package parent is a fixture for benchkit's tests of Track in a
// benchmark that calls b.Run: testing measures only
// the sub-benchmarks, so Track there records nothing, and must say so
// once, in the log (go test -v) and in Main's report.
package parent

import (
	"strconv"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

var xs = make([]uint64, 64)

func sum(s []uint64) uint64 {
	var t uint64
	for _, x := range s {
		t += x
	}
	return t
}

// BenchmarkParent tracks itself but not its sub-benchmarks.
func BenchmarkParent(b *testing.B) {
	benchkit.Track(b)
	for _, n := range []int{16, 64} {
		b.Run("len="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				sink.Keep(sum(xs[:n]))
			}
		})
	}
}

// BenchmarkBoth tracks itself and its sub-benchmark: the leaf is recorded,
// the parent says so.
func BenchmarkBoth(b *testing.B) {
	benchkit.Track(b)
	b.Run("leaf", func(b *testing.B) {
		benchkit.Track(b)
		for b.Loop() {
			sink.Keep(sum(xs))
		}
	})
}
