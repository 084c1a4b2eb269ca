package seed000

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/control"
)

// BenchmarkBatchSweep measures both workloads with control.Compare at
// several batch lengths, to show why the default is 50µs. It is skipped
// unless SEED000_SWEEP=1:
//
//	SEED000_SWEEP=1 go test -run='^$' -bench=BatchSweep -count=3 ./examples/seed000
//
// The control's interval in each log ("noise floor: a copy of alpha lies
// within [lo, hi]") is the harness's error bar at that batch length.
func BenchmarkBatchSweep(b *testing.B) {
	if os.Getenv("SEED000_SWEEP") != "1" {
		b.Skip("set SEED000_SWEEP=1 to run the batch-length sweep")
	}
	for _, bt := range []time.Duration{20 * time.Microsecond, 50 * time.Microsecond, 100 * time.Microsecond, 250 * time.Microsecond, time.Millisecond} {
		for _, work := range []string{"sum", "alloc"} {
			name := fmt.Sprintf("batch=%s/work=%s", strings.ReplaceAll(bt.String(), "µ", "u"), work)
			b.Run(name, func(b *testing.B) {
				alpha, beta, plus5 := sumImpls()
				if work == "alloc" {
					alpha, beta, plus5 = allocImpls()
				}
				control.With(control.BatchTime(bt)).Compare(b, alpha, beta, plus5)
			})
		}
	}
}
