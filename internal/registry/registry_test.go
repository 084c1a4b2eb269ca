package registry

import (
	"fmt"
	"sync"
	"testing"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddRunOrderAndBound(t *testing.T) {
	var r Registry
	for i := 0; i < MaxRuns+10; i++ {
		r.AddRun("BenchmarkA", Run{NsPerOp: float64(i)})
	}
	r.AddRun("BenchmarkB", Run{NsPerOp: 1})
	bs := r.Benchmarks()
	require.Len(t, bs, 2)
	assert.Equal(t, "BenchmarkA", bs[0].Name)
	assert.Len(t, bs[0].Runs, MaxRuns, "runs are bounded")
	assert.Equal(t, MaxRuns+10, bs[0].TotalRuns)
	assert.Equal(t, 10.0, bs[0].Runs[0].NsPerOp, "the oldest runs are dropped")
	assert.Equal(t, MaxRuns+11, bs[1].Runs[0].Seq, "Seq is process-wide")
	assert.Equal(t, []float64{1}, r.NsPerOp("BenchmarkB"))
	assert.Nil(t, r.NsPerOp("missing"))
}

func TestFlagsMerge(t *testing.T) {
	var r Registry
	r.AddFlag("B", Flag{Kind: FlagEliminated, Message: "one"})
	r.AddFlag("B", Flag{Kind: FlagEliminated, Message: "two"})
	r.AddFlag("B", Flag{Kind: FlagAllocs, Message: "x"})
	fs := r.Benchmarks()[0].Flags
	require.Len(t, fs, 2)
	assert.Equal(t, Flag{Kind: FlagEliminated, Message: "two", Count: 2}, fs[0])
	r.AddFlag("P", Flag{Kind: FlagMisuse, Message: "parent", Parent: true})
	assert.True(t, r.Benchmarks()[1].Flags[0].Parent)
	r.AddFlag("P", Flag{Kind: FlagMisuse, Message: "twice"})
	assert.False(t, r.Benchmarks()[1].Flags[0].Parent, "like the message, the latest run's")
	for i := 0; i < 2*MaxFlags; i++ {
		r.AddFlag("B", Flag{Kind: FlagKind(fmt.Sprint(i))})
	}
	assert.Len(t, r.Benchmarks()[0].Flags, MaxFlags)
}

func TestSetTimelineBound(t *testing.T) {
	var r Registry
	r.SetTimeline("B", make([]float64, 10*MaxTimeline))
	assert.LessOrEqual(t, len(r.Benchmarks()[0].Timeline), MaxTimeline)
}

func TestBenchmarksIsACopy(t *testing.T) {
	var r Registry
	r.AddComparison("B", Comparison{Result: verdict.Result{Candidates: []verdict.Estimate{{Name: "new"}}}})
	bs := r.Benchmarks()
	bs[0].Comparisons[0].Candidates[0].Name = "changed"
	assert.Equal(t, "new", r.Benchmarks()[0].Comparisons[0].Candidates[0].Name)
}

func TestBoundedNames(t *testing.T) {
	var r Registry
	for i := 0; i < MaxBenchmarks+3; i++ {
		r.AddRun(fmt.Sprint(i), Run{})
	}
	assert.Len(t, r.Benchmarks(), MaxBenchmarks)
	assert.Equal(t, 3, r.Dropped())
	r.Reset()
	assert.Empty(t, r.Benchmarks())
	assert.Zero(t, r.Dropped())
}

func TestConcurrent(t *testing.T) {
	var r Registry
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				r.AddRun("B", Run{})
				r.AddFlag("B", Flag{Kind: FlagMisuse})
				r.SetTimeline("B", []float64{1, 2, 3})
				_ = r.Benchmarks()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 800, r.Benchmarks()[0].TotalRuns)
	assert.Equal(t, 800, r.Benchmarks()[0].Flags[0].Count)
}

func TestComparisonForkDeltasAreCopied(t *testing.T) {
	var r Registry
	deltas := []float64{1, 2}
	r.AddComparison("B", Comparison{Result: verdict.Result{Forks: 2, Candidates: []verdict.Estimate{{Name: "new", ForkDeltaPct: deltas}}}})
	deltas[0] = 99
	got := r.Benchmarks()[0].Comparisons[0]
	assert.Equal(t, 2, got.Forks)
	assert.Equal(t, []float64{1, 2}, got.Candidates[0].ForkDeltaPct, "AddComparison keeps its own copy")
	got.Candidates[0].ForkDeltaPct[1] = 99
	assert.Equal(t, []float64{1, 2}, r.Benchmarks()[0].Comparisons[0].Candidates[0].ForkDeltaPct, "Benchmarks returns a copy")
}

// TestComparisonsBound: -count=20 keeps all 20 comparisons of a benchmark;
// beyond MaxComparisons the latest are counted in DroppedComparisons,
// never lost without a word.
func TestComparisonsBound(t *testing.T) {
	var r Registry
	for i := range 20 {
		r.AddComparison("B", Comparison{Result: verdict.Result{Rounds: i}})
	}
	b := r.Benchmarks()[0]
	assert.Len(t, b.Comparisons, 20, "-count=20 keeps every comparison")
	assert.Zero(t, b.DroppedComparisons)

	r.Reset()
	for i := range MaxComparisons + 4 {
		r.AddComparison("B", Comparison{Result: verdict.Result{Rounds: i}})
	}
	b = r.Benchmarks()[0]
	require.Len(t, b.Comparisons, MaxComparisons)
	assert.Equal(t, 4, b.DroppedComparisons)
	assert.Equal(t, MaxComparisons-1, b.Comparisons[MaxComparisons-1].Rounds, "the first ones are kept")
}

// TestFlagFailedSticks: once a run's flag failed the benchmark, the merged
// flag says so, whatever later runs of the same kind did.
func TestFlagFailedSticks(t *testing.T) {
	var r Registry
	r.AddFlag("B", Flag{Kind: FlagTimerStopped, Message: "one"})
	r.AddFlag("B", Flag{Kind: FlagTimerStopped, Message: "two", Failed: true})
	r.AddFlag("B", Flag{Kind: FlagTimerStopped, Message: "three"})
	r.AddFlag("B", Flag{Kind: FlagEliminated, Message: "x"})
	fs := r.Benchmarks()[0].Flags
	require.Len(t, fs, 2)
	assert.Equal(t, Flag{Kind: FlagTimerStopped, Message: "three", Count: 3, Failed: true}, fs[0])
	assert.False(t, fs[1].Failed)
}

// TestComparisonRoundTimes: AddComparison keeps a deep copy of the
// per-round times, and beyond MaxRoundTimes rounds keeps evenly spaced
// rounds with the same indices for every implementation.
func TestComparisonRoundTimes(t *testing.T) {
	var r Registry
	base := []float64{10, 11, 12}
	c := Comparison{Result: verdict.Result{Baseline: "old", BatchIters: 100}, Procs: 2, RoundNs: [][]float64{base, {10, 10, 10}, {5, 6, 7}}}
	r.AddComparison("BenchmarkX-2", c)
	base[0] = 99
	got := r.Benchmarks()[0].Comparisons[0]
	assert.Equal(t, [][]float64{{10, 11, 12}, {10, 10, 10}, {5, 6, 7}}, got.RoundNs, "a copy, not the caller's slices")
	assert.Equal(t, 2, got.Procs)
	assert.Equal(t, 100, got.BatchIters)

	n := 3*MaxRoundTimes + 7
	mk := func(off float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = off + float64(i)
		}
		return xs
	}
	r.AddComparison("BenchmarkY", Comparison{Result: verdict.Result{Rounds: n}, RoundNs: [][]float64{mk(0), mk(1e6), mk(2e6)}})
	got = r.Benchmarks()[1].Comparisons[0]
	require.Len(t, got.RoundNs, 3)
	for i, ns := range got.RoundNs {
		require.Len(t, ns, MaxRoundTimes, "implementation %d", i)
		assert.Equal(t, float64(i)*1e6, ns[0], "the first round is kept")
		for k := range ns {
			assert.Equal(t, got.RoundNs[0][k]+float64(i)*1e6, ns[k], "round %d is the same round for every implementation", k)
		}
	}
	assert.GreaterOrEqual(t, got.RoundNs[0][MaxRoundTimes-1], float64(n-n/MaxRoundTimes-1), "rounds spread to the end")
	assert.Equal(t, n, got.Rounds, "Rounds still counts them all")

	var empty Registry
	empty.AddComparison("BenchmarkZ", Comparison{})
	assert.Nil(t, empty.Benchmarks()[0].Comparisons[0].RoundNs)
}

func TestAddFlagCountsAndCertainty(t *testing.T) {
	var r Registry
	assert.Equal(t, 1, r.AddFlag("B", Flag{Kind: FlagEliminated, Message: "one", Detail: "long one"}))
	assert.Equal(t, 2, r.AddFlag("B", Flag{Kind: FlagEliminated, Message: "two", Detail: "long two", Allowed: "why"}))
	f := r.Benchmarks()[0].Flags[0]
	assert.Equal(t, Flag{Kind: FlagEliminated, Message: "two", Detail: "long two", Allowed: "why", Count: 2}, f)
	for _, k := range []FlagKind{FlagEliminated, FlagTimerToggling, FlagSetupCost} {
		assert.False(t, k.Certain(), k)
	}
	for _, k := range []FlagKind{FlagTimerStopped, FlagAllocs, FlagMisuse} {
		assert.True(t, k.Certain(), k)
	}
}
