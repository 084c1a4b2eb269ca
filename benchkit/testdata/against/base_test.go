//go:build !against_new

package against

import "testing"

const isNew = false

// work is the base's work.
func work() uint64 { return sum(xs) }

func allocate() { held = make([]byte, 64) }

func BenchmarkOnlyBase(b *testing.B) {
	for b.Loop() {
		allocate()
	}
}

// BenchmarkFixed fails in the base version: a bug the new one fixed.
func BenchmarkFixed(b *testing.B) {
	b.Fatal("against testdata: BenchmarkFixed is broken in the base version")
}
