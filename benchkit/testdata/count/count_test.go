// Package count is the fixture of the count mode's end-to-end test
// (-benchkit.count=instructions): BenchmarkSum is counted,
// BenchmarkUnderCount passes when measured and fails in the count's
// processes (it fails under GOGC=off), and BenchmarkUntracked does not
// call Track, so it is not counted.
package count

import (
	"os"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

var xs = func() []uint64 {
	s := make([]uint64, 1000)
	for i := range s {
		s[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	return s
}()

//go:noinline
func sum(s []uint64) uint64 {
	var t uint64
	for _, x := range s {
		t += x ^ (t >> 7)
	}
	return t
}

func BenchmarkSum(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

func BenchmarkUnderCount(b *testing.B) {
	benchkit.Track(b)
	if os.Getenv("GOGC") == "off" {
		b.Fatal("count testdata: fails in the count's processes only")
	}
	for b.Loop() {
		sink.Keep(sum(xs[:10]))
	}
}

func BenchmarkUntracked(b *testing.B) {
	for b.Loop() {
		sink.Keep(sum(xs[:10]))
	}
}
