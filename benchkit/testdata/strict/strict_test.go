// Package strict is a fixture for benchkit's strict-mode and Allow tests
// : a package whose TestMain is benchkit.Main. In strict mode a
// flag fails the benchmark that raised it (so go test -json names it), and
// a flag the benchmark allowed fails nothing.
package strict

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

func makeBuffer(n int) []byte { return make([]byte, n) }

// BenchmarkDCE declares an allocation the compiler removes: the allocs
// flag, a certain one, on every run.
func BenchmarkDCE(b *testing.B) {
	benchkit.Track(b, benchkit.ExpectAllocs(1))
	for range b.N {
		makeBuffer(64)
	}
}

// BenchmarkEmptyAllowed is an empty loop that allows the eliminated flag:
// it is shown with the reason and fails nothing.
func BenchmarkEmptyAllowed(b *testing.B) {
	benchkit.Track(b, benchkit.Allow("eliminated", "an empty loop on purpose"))
	for range b.N {
	}
}
