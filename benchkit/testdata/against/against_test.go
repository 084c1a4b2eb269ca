// Package against is the fixture of -benchkit.against's end-to-end test:
// one package built twice, as if at two commits. Built plainly it is the
// base; built with -tags against_new it is the new version, in which
// BenchmarkWork does twice the work (a certain direction on a noisy
// 2-core machine, where the 10% would not be), BenchmarkAlloc
// allocates once more per op, BenchmarkOnlyBase is gone,
// BenchmarkOnlyNew appears and BenchmarkFixed no longer fails.
// BENCHKIT_TESTDATA_PANIC=1 makes BenchmarkPanics panic in the new
// version only. With -tags against_plus5 the base build's BenchmarkWork
// does 5% more work (the against table, internal/accuracy/against).
package against

import (
	"os"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

var xs = func() []uint64 {
	s := make([]uint64, 4096)
	for i := range s {
		s[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	return s
}()

func sum(s []uint64) uint64 {
	var t uint64
	for _, x := range s {
		t += x ^ (t >> 7)
	}
	return t
}

// Kept in package variables so that every make escapes to the heap.
var held, held2 []byte

func BenchmarkWork(b *testing.B) {
	for b.Loop() {
		sink.Keep(work())
	}
}

// BenchmarkSame is identical in both versions.
func BenchmarkSame(b *testing.B) {
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

func BenchmarkAlloc(b *testing.B) {
	for b.Loop() {
		allocate()
	}
}

func BenchmarkPanics(b *testing.B) {
	if isNew && os.Getenv("BENCHKIT_TESTDATA_PANIC") == "1" {
		panic("against testdata: a deliberate panic in the new version")
	}
	for b.Loop() {
		sink.Keep(sum(xs[:64]))
	}
}
