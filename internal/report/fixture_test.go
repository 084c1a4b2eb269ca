package report

import (
	"time"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// seed001 are twenty ns/op in run order shaped like seed 001's loaded
// capture: seven runs around 40, one at 37, eight around 27, then four
// climbing back (34, then 38-39).
var seed001 = []float64{
	39.39, 41.2, 43.9, 38.6, 40.1, 42.0, 39.8, 37.0,
	27.54, 26.1, 28.3, 25.4, 27.9, 28.8, 26.7, 25.9,
	34.0, 38.2, 38.9, 39.1,
}

func runs(procs int, wait float64, ns ...float64) []registry.Run {
	out := make([]registry.Run, len(ns))
	for i, v := range ns {
		out[i] = registry.Run{
			Seq: i + 1, Procs: procs, N: 1000000, NsPerOp: v, AllocsPerOp: 1, BytesPerOp: 64,
			Wall: time.Second, TimedFraction: 0.99, WaitFraction: wait, InvoluntarySwitches: 3, WithinCV: -1,
		}
	}
	return out
}

// fixture is a synthetic run with a clean, a noisy, a bimodal, an
// eliminated and a batches-only benchmark, and one comparison.
func fixture() Input {
	clean := []float64{100.1, 100.4, 99.8, 100.0, 100.2, 99.9, 100.3, 100.1, 99.7, 100.0}
	noisy := []float64{98.1, 104.9, 89.6, 101.9, 96.7, 110.4, 95.1, 106.9, 99.4, 103.3, 93.1, 100.6} // 100+6z at normal quantiles
	timeline := make([]float64, 60)
	for i := range timeline {
		timeline[i] = 50 + float64(i%3)*0.1
		if i >= 20 && i < 40 {
			timeline[i] = 80 + float64(i%2)*0.2
		}
	}
	return Input{
		Package: "example.com/p", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU @ 2.0GHz",
		Facts:    []env.Fact{{Name: "go", Value: "go1.26.8 linux/amd64"}, {Name: "cpus", Value: "2"}, {Name: "governor", Value: "unknown"}},
		Warnings: []env.Warning{{Key: "load", Message: "load average 3.10 over the last minute is above the 2 CPUs: stop other work", Short: "load 3.10 above 2 CPUs"}},
		Warmup: &Warmup{Summary: "warm-up 180ms, 52 batches, stable (5 within 5%), first batch 1.12× slower than last",
			Duration: 180 * time.Millisecond, Batches: 52, Converged: true, FirstToLast: 1.12},
		Benches: []registry.Bench{
			{Name: "BenchmarkClean", Runs: runs(2, 0.001, clean...), TotalRuns: 10},
			{Name: "BenchmarkNoisy", Runs: runs(2, 0.05, noisy...), TotalRuns: 12},
			{Name: "BenchmarkMakeBuffer_Correct", Runs: runs(2, 0.41, seed001...), TotalRuns: 20},
			{Name: "BenchmarkSum/eliminated", Runs: runs(2, 0, 0.31, 0.32, 0.31, 0.31, 0.33, 0.31), TotalRuns: 6,
				Flags: []registry.Flag{{Kind: registry.FlagEliminated, Count: 6,
					Message: "benchkit: BenchmarkSum/eliminated: 0.31 ns/op is at the empty-loop floor (0.30 ns): the compiler removed the work; keep the result with sink.Keep"}}},
			{Name: "BenchmarkLoop", Runs: runs(2, 0.2, 60), TotalRuns: 1, Timeline: timeline},
			{Name: "BenchmarkCompare", Comparisons: []registry.Comparison{{Result: verdict.Result{Baseline: "old", BaselineNsPerOp: 246.5, Rounds: 40, Confidence: 0.975, OverheadNsPerOp: 1.2, Gate: 5, Control: verdict.Estimate{Name: "old", NsPerOp: 246.9, DeltaPct: 0.3, LoPct: -0.8, HiPct: 1.2, Verdict: verdict.Same}, Candidates: []verdict.Estimate{
				{Name: "new", NsPerOp: 233.9, DeltaPct: -5.1, LoPct: -6.0, HiPct: -4.2, Verdict: verdict.Faster},
				{Name: "plus10", NsPerOp: 271.2, DeltaPct: 10.0, LoPct: 9.1, HiPct: 10.9, Verdict: verdict.Slower, GateFailed: true},
			}, GateFailed: true}}}},
		},
	}
}
