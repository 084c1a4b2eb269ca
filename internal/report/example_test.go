package report_test

import (
	"os"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/report"
)

// Text renders the report from synthetic records: twelve runs of one
// benchmark that moved between two regimes, as in seed 001.
func ExampleText() {
	var runs []registry.Run
	for _, ns := range []float64{39.4, 41.2, 43.9, 38.6, 27.5, 26.1, 28.3, 25.4, 27.9, 38.2, 38.9, 39.1} {
		runs = append(runs, registry.Run{Procs: 2, N: 1000000, NsPerOp: ns, AllocsPerOp: 1, BytesPerOp: 64,
			WaitFraction: 0.3, TimedFraction: 1, InvoluntarySwitches: -1, WithinCV: -1})
	}
	in := report.Input{
		Facts:   []env.Fact{{Name: "go", Value: "go1.26.8 linux/amd64"}, {Name: "governor", Value: "unknown"}},
		Benches: []registry.Bench{{Name: "BenchmarkMakeBuffer-2", Runs: runs, TotalRuns: len(runs)}},
	}
	_ = report.Text(os.Stdout, in)
	// Output:
	// benchkit │ hygiene report · 1 benchmark · 12 runs
	// benchkit │
	// benchkit │ environment
	// benchkit │   go        go1.26.8 linux/amd64
	// benchkit │   governor  unknown
	// benchkit │
	// benchkit │ warm-up
	// benchkit │   off: the first benchmark paid for cold caches and clock ramp-up (turn it on with -benchkit.warmup=1s or BENCHKIT_WARMUP=1s)
	// benchkit │
	// benchkit │ benchmarks
	// benchkit │   benchmark     samples  median/op  ±%    cv%   grade         wait%  runs@5%  flags
	// benchkit │   MakeBuffer-2  12 runs  38.40ns    15.5  19.8  do-not-trust  30.0   n/a      two-regimes 27.50ns×5|39.10ns×7
	// benchkit │   · samples: the runs' ns/op with 2 runs or more, else the batches benchkit.Loop timed in the one run
	// benchkit │   · ±%: 95% interval of the median, half-width in percent: over runs as benchstat's (6 runs or more); over batches from 16 blocks of the run (this run's own
	// benchkit │     uncertainty, not another process's)
	// benchkit │   · cv%: over runs the run-to-run cv (of -count runs, all in this process: what differs between processes is not in it); over batches (b) the spread of batches
	// benchkit │     a few ms long within the run, not graded
	// benchkit │   · grade: of the run-to-run cv with 2 runs or more, else of ±%: <2% excellent, 2-5% acceptable, 5-10% noisy, >10% do-not-trust
	// benchkit │   · wait%: time the process's threads waited for a CPU, over the run's wall time (contention)
	// benchkit │   · runs@5%: runs per side to resolve a 5% change, ⌈16·(cv/Δ)²⌉ (Lehr's rule), at least 6, from the run-to-run cv; over batches lo–hi: lo from the run's own
	// benchkit │     standard error (processes differ at least that much), hi from the cv of its 16 blocks as if each were a run (holds unless processes differ more than
	// benchkit │     stretches of one run); -count=10 measures it; n/a with two regimes
	// benchkit │
	// benchkit │ samples in order (▁ lowest … █ highest, per row)
	// benchkit │   MakeBuffer-2  runs  ▆▇█▆▂▁▂▁▂▆▆▆  25.40ns … 43.90ns
	// benchkit │
	// benchkit │ findings
	// benchkit │   MakeBuffer-2: two regimes in the runs: 5 around 27.50ns (runs 5-9) and 7 around 39.10ns (runs 1-4, 10-12), separation 8.4; the mean 34.54ns sits between them,
	// benchkit │     and no run count removes that bias (Lehr's rule does not apply); find what changed between them (other load, CPU frequency, core placement) and measure
	// benchkit │     again on a quiet machine
	// benchkit │   MakeBuffer-2: contention: the process waited for a CPU 30.0% of the run's wall time (other processes competed for the cores); more runs average the noise but
	// benchkit │     keep its bias. Fix: stop other work on the machine (other builds and tests; go test -p 1), or give the benchmark its own cores (taskset, a pinned container)
	// benchkit │   MakeBuffer-2: cv 19.8% over runs: do-not-trust, caused by two regimes and contention (wait 30.0%) (see above); fix the cause rather than adding runs
}
