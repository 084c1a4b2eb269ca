package registry

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

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
	r.AddComparison("B", Comparison{Candidates: []Estimate{{Name: "new"}}})
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

func TestKey(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	assert.Equal(t, "BenchmarkX/a=1", Key("BenchmarkX/a=1"), "no suffix at GOMAXPROCS=1, as testing prints it")
	runtime.GOMAXPROCS(3)
	assert.Equal(t, "BenchmarkX/a=1-3", Key("BenchmarkX/a=1"))
}

func TestComparisonForkDeltasAreCopied(t *testing.T) {
	var r Registry
	deltas := []float64{1, 2}
	r.AddComparison("B", Comparison{Forks: 2, Candidates: []Estimate{{Name: "new", ForkDeltaPct: deltas}}})
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
		r.AddComparison("B", Comparison{Rounds: i})
	}
	b := r.Benchmarks()[0]
	assert.Len(t, b.Comparisons, 20, "-count=20 keeps every comparison")
	assert.Zero(t, b.DroppedComparisons)

	r.Reset()
	for i := range MaxComparisons + 4 {
		r.AddComparison("B", Comparison{Rounds: i})
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

func TestAgainstRecord(t *testing.T) {
	var r Registry
	assert.Nil(t, r.Against())
	a := Against{Rounds: 2, Benches: []AgainstBench{{Name: "X-2", Base: Side{NsPerOp: []float64{1, 2}}}}, OnlyBase: []string{"Y-2"}}
	r.SetAgainst(a)
	a.Benches[0].Base.NsPerOp[0] = 99
	got := r.Against()
	require.NotNil(t, got)
	assert.Equal(t, []float64{1, 2}, got.Benches[0].Base.NsPerOp, "a deep copy is kept")
	got.OnlyBase[0] = "Z"
	assert.Equal(t, []string{"Y-2"}, r.Against().OnlyBase, "and handed out")
	r.Reset()
	assert.Nil(t, r.Against())
}
