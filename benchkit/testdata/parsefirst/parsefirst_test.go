// Package parsefirst is a fixture for benchkit's tests of a TestMain that
// calls flag.Parse before benchkit.Main: with
// benchkit.RegisterFlags first, -benchkit.* flags work; PARSEFIRST_PLAIN=1
// leaves RegisterFlags out, and flag.Parse rejects them as go's flag
// package does.
package parsefirst

import (
	"flag"
	"os"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) {
	if os.Getenv("PARSEFIRST_PLAIN") != "1" {
		benchkit.RegisterFlags()
	}
	flag.Parse()
	benchkit.Main(m)
}

var xs = make([]uint64, 64)

func BenchmarkSum(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		var s uint64
		for _, x := range xs {
			s += x
		}
		sink.Keep(s)
	}
}
