package count

import (
	"io"
	"os"
	"testing"
	"time"

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

// busyLimit is the longest TestBusy spins.
const busyLimit = 3 * time.Hour

// TestBusy spins, when BENCHKIT_COUNT_BUSY=1, until its standard input
// (a pipe from the table's process) closes, or for busyLimit at most, so
// that it never outlives the table; it skips otherwise.
func TestBusy(t *testing.T) {
	if os.Getenv("BENCHKIT_COUNT_BUSY") != "1" {
		t.Skip("a busy loop for the count table; runs only with BENCHKIT_COUNT_BUSY=1")
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	deadline := time.Now().Add(busyLimit)
	x := uint64(1)
	for i := 0; ; i++ {
		x = splitmix(x)
		sink.Keep(x)
		if i%(1<<20) == 0 && time.Now().After(deadline) {
			return
		}
	}
}
