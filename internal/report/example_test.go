package report_test

import (
	"os"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/report"
)

// Text renders the compact report from synthetic records: twelve runs
// of one benchmark that moved between two regimes, as in seed 001, while
// other processes took the CPUs. Settings.Full asks for the full report.
func ExampleText() {
	var runs []registry.Run
	for _, ns := range []float64{39.4, 41.2, 43.9, 38.6, 27.5, 26.1, 28.3, 25.4, 27.9, 38.2, 38.9, 39.1} {
		runs = append(runs, registry.Run{Procs: 2, N: 1000000, NsPerOp: ns, AllocsPerOp: 1, BytesPerOp: 64,
			WaitFraction: 0.3, TimedFraction: 1, InvoluntarySwitches: -1, WithinCV: -1})
	}
	in := report.Input{
		Package: "example.com/buf",
		Facts: []env.Fact{{Name: "go", Value: "go1.26.8 linux/amd64"}, {Name: "cpu", Value: "Intel(R) Xeon(R) Processor"},
			{Name: "cpus", Value: "2"}, {Name: "load", Value: "0.52 0.61 0.70 (1, 5, 15 min)"}},
		Benches: []registry.Bench{{Name: "BenchmarkMakeBuffer-2", Runs: runs, TotalRuns: len(runs)}},
	}
	_ = report.Text(os.Stdout, in)
	// Output:
	// benchkit │ example.com/buf · go1.26.8 · Intel(R) Xeon(R) Processor · 2 CPUs · load 0.52
	// benchkit │   benchmark     samples  median/op  ±%    cv%   grade         wait%  runs@5%  flags
	// benchkit │   MakeBuffer-2  12 runs  38.40ns    15.5  19.8  do-not-trust  30.0   n/a      two-regimes 27.50ns×5|39.10ns×7
	// benchkit │   ⚠ MakeBuffer-2: two regimes, 5 runs around 27.50ns and 7 around 39.10ns: the median mixes them; measure again on a quiet machine
	// benchkit │   ⚠ MakeBuffer-2: contention, wait% 30.0: other processes took the CPUs. Fix: stop other work (go test -p 1) or pin the benchmark (taskset)
}
