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
// for the cores (see the package doc): during the middle of the run, or,
// with -count=6 or more, during the whole of the middle third of the runs.
func BenchmarkMakeBuffer_Correct(b *testing.B) {
	if os.Getenv("SEED001_HOG") != "off" {
		switch nextHogPlan() {
		case hogWholeRun:
			h, err := startHog()
			if err != nil {
				b.Logf("%v; measuring without it", err)
			} else {
				b.Cleanup(h.stop)
			}
		case hogMiddle:
			if d, ok := benchDuration(); ok {
				b.Cleanup(hogWindow(d, b.Logf))
			}
		}
	}
	benchkit.Loop(b, func() []byte { return MakeBuffer(64) })
}
