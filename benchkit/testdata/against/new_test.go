//go:build against_new

package against

import (
	"testing"

	"github.com/benchkit/go-benchkit/sink"
)

const isNew = true

// work does twice the base's work.
func work() uint64 { return sum(xs) + sum(xs[1:]) }

// allocate allocates once more than the base's.
func allocate() { held, held2 = make([]byte, 64), make([]byte, 32) }

func BenchmarkOnlyNew(b *testing.B) {
	for b.Loop() {
		allocate()
	}
}

func BenchmarkFixed(b *testing.B) {
	for b.Loop() {
		sink.Keep(sum(xs[:64]))
	}
}
