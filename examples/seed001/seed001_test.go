package seed001

import (
	"os"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

func TestMakeBuffer(t *testing.T) {
	if got := len(MakeBuffer(64)); got != 64 {
		t.Fatalf("len(MakeBuffer(64)) = %d, want 64", got)
	}
}

// BenchmarkMakeBuffer_Correct measures MakeBuffer while a CPU hog competes
// for the cores during the middle third of the run (see the package doc).
func BenchmarkMakeBuffer_Correct(b *testing.B) {
	if d, ok := benchDuration(); ok && os.Getenv("SEED001_HOG") != "off" {
		b.Cleanup(hogWindow(d, b.Logf))
	}
	benchkit.Loop(b, func() []byte { return MakeBuffer(64) })
}
