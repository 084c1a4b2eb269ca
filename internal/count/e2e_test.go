package count

import (
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/testbin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// valgrindOrSkip returns the valgrind on PATH, or skips t with Find's
// message (the fix included) where there is none or the platform has no
// port.
func valgrindOrSkip(t *testing.T) Valgrind {
	t.Helper()
	vg, err := Find()
	if err != nil {
		t.Skipf("counts need valgrind: %v", err)
	}
	return vg
}

// TestInstructionsPlus5 counts testdata/work built plainly and with 5%
// more work per op: the count must read +3% to +7%, and the b.N-style
// benchmark doing the same work must count as the b.Loop one does.
func TestInstructionsPlus5(t *testing.T) {
	vg := valgrindOrSkip(t)
	base := testbin.BuildAs(t, "./testdata/work", "base")
	plus5 := testbin.BuildAs(t, "./testdata/work", "plus5", "-tags=plus5")

	b, err := Instructions(vg, Target{Binary: base, Benchmark: "BenchmarkWork"}, Limits{})
	require.NoError(t, err)
	n, err := Instructions(vg, Target{Binary: plus5, Benchmark: "BenchmarkWork"}, Limits{NsPerOp: 2000})
	require.NoError(t, err)
	t.Logf("base %.1f instructions/op (N %d→%d, %v), +5%% build %.1f (N %d→%d, %v)", b.PerOp, b.N1, b.N2, b.Wall, n.PerOp, n.N1, n.N2, n.Wall)
	delta := 100 * (n.PerOp/b.PerOp - 1)
	assert.True(t, delta >= 3 && delta <= 7, "+5%% work reads %+.2f%% instructions/op, outside +3…+7%%", delta)

	for _, r := range []Result{b, n} {
		assert.Equal(t, N1, r.N1)
		assert.Greater(t, r.N2, r.N1)
		assert.Empty(t, r.Capped)
		assert.True(t, Enough(r.Total2-r.Total1, DefaultBudget), "the difference reaches half the budget")
		assert.Equal(t, vg.Version, r.Valgrind)
		assert.Equal(t, r.N2, r.Runs[len(r.Runs)-1].N, "the last process ran at N2")
		assert.LessOrEqual(t, len(r.Runs), 1+MaxSteps)
	}
	assert.Less(t, len(n.Runs), len(b.Runs), "the ns/op hint saves processes")

	nStyle, err := Instructions(vg, Target{Binary: base, Benchmark: "BenchmarkWorkN"}, Limits{NsPerOp: 2000})
	require.NoError(t, err)
	assert.InEpsilon(t, b.PerOp, nStyle.PerOp, 0.01, "a b.N loop of the same work counts within 1%% of the b.Loop one: %.1f and %.1f", nStyle.PerOp, b.PerOp)
}

// TestInstructionsErrors checks the errors of benchmarks that cannot be
// counted: one that skips, one that fails, a name that selects nothing,
// a process past its deadline.
func TestInstructionsErrors(t *testing.T) {
	vg := valgrindOrSkip(t)
	bin := testbin.BuildAs(t, "./testdata/work", "work")
	for _, tc := range []struct {
		bench  string
		lim    Limits
		reason Reason
		says   []string
	}{
		{"BenchmarkSkips", Limits{}, ReasonNotRun, []string{"printed no result line", "-test.benchtime=2x"}},
		{"BenchmarkNone", Limits{}, ReasonNotRun, []string{"the name selects nothing"}},
		{"BenchmarkFails", Limits{}, ReasonFailed, []string{"failed under valgrind (exit status 1)", "a benchmark that fails"}},
		{"BenchmarkWork", Limits{Timeout: 100 * time.Millisecond}, ReasonDeadline, []string{"deadline of 100ms", "killed"}},
	} {
		r, err := Instructions(vg, Target{Binary: bin, Benchmark: tc.bench}, tc.lim)
		require.Error(t, err, tc.bench)
		assert.Equal(t, tc.reason, ReasonOf(err), "%s: %v", tc.bench, err)
		for _, s := range tc.says {
			assert.Contains(t, err.Error(), s, tc.bench)
		}
		assert.Len(t, r.Runs, 1, "%s: the first process says it", tc.bench)
	}
}
