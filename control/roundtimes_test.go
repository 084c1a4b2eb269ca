package control

import (
	"github.com/benchkit/go-benchkit/control/verdict"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/registry"
)

// TestCombineRounds: the forks' per-implementation rounds are appended
// fork after fork, so round r is the same round for every implementation.
func TestCombineRounds(t *testing.T) {
	frs := []forkResult{
		{Names: []string{"a", "control", "b"}, NsPerOp: [][]float64{{1, 2}, {1.1, 2.1}, {3, 4}}},
		{Names: []string{"a", "control", "b"}, NsPerOp: [][]float64{{5}, {5.1}, {6}}},
		{Names: []string{"a", "control", "b"}}, // a fork that measured nothing
		{Names: []string{"a", "control", "b"}, NsPerOp: [][]float64{{7, 8}, {7.1}, {9, 10}}},
	}
	ms := combine(frs)
	assert.Equal(t, [][]float64{{1, 2, 5, 7}, {1.1, 2.1, 5.1, 7.1}, {3, 4, 6, 9}}, ms.ns,
		"a fork with unequal counts contributes only the rounds all implementations have")
	assert.Nil(t, combine([]forkResult{{Names: []string{"a"}}}).ns)
}

// TestCompareRecordsRoundTimes: Compare records each implementation's
// per-round times, GOMAXPROCS and the batch size for the samples file.
func TestCompareRecordsRoundTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark")
	}
	setBenchtime(t, "50x") // 50 rounds within 1s per implementation: no load can stop it before a round
	registry.Default().Reset()
	t.Cleanup(registry.Default().Reset)
	xs := make([]uint64, 100)
	sum := func(n int) func() uint64 {
		return func() uint64 {
			var s uint64
			for _, x := range xs[:n] {
				s += x
			}
			return s
		}
	}
	var res verdict.Result
	testing.Benchmark(func(b *testing.B) {
		res = With(Seed(5), Forks(1)).Compare(b, Func("short", sum(50)), Func("long", sum(100)))
	})
	benches := registry.Default().Benchmarks()
	require.Len(t, benches, 1)
	require.Len(t, benches[0].Comparisons, 1)
	c := benches[0].Comparisons[0]
	assert.Equal(t, runtime.GOMAXPROCS(0), c.Procs)
	assert.Equal(t, res.BatchIters, c.BatchIters)
	require.Len(t, c.RoundNs, 3, "baseline, control, candidate")
	for i, ns := range c.RoundNs {
		assert.Len(t, ns, min(res.Rounds, registry.MaxRoundTimes), "implementation %d: one time per round", i)
		for _, v := range ns {
			assert.Positive(t, v)
		}
	}
}
