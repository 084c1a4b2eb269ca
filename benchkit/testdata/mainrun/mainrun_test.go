// Package mainrun is a fixture for benchkit's Run tests: a TestMain with
// teardown after benchkit.Run, built with go test -c and run by
// benchkit/main_run_test.go. MAINRUN_FAIL=1 fails BenchmarkTracked.
package mainrun

import (
	"fmt"
	"os"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) {
	code := benchkit.Run(m)
	// Teardown: os.Exit would skip it, so Run returns the code instead.
	fmt.Fprintf(os.Stderr, "mainrun: teardown ran; exit code %d\n", code)
	os.Exit(code)
}

func TestPasses(t *testing.T) {}

func BenchmarkTracked(b *testing.B) {
	benchkit.Track(b)
	if os.Getenv("MAINRUN_FAIL") == "1" {
		b.Fatal("deliberate failure (MAINRUN_FAIL=1)")
	}
	xs := make([]int, 64)
	for b.Loop() {
		s := 0
		for _, x := range xs {
			s += x
		}
		sink.Keep(s)
	}
}
