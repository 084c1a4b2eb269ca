package count

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

func BenchmarkCompute(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

func BenchmarkAlloc(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(alloc(allocN))
	}
}

func BenchmarkMap(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(lookup(table, keys))
	}
}
