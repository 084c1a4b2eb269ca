package count_test

import (
	"os"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/count"

	"github.com/benchkit/go-benchkit/internal/testbin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInstructionsPlus5 counts testdata/work built plainly and with 5%
// more work per op: the count must read +3% to +7%, and the b.N-style
// benchmark doing the same work must count as the b.Loop one does.
func TestInstructionsPlus5(t *testing.T) {
	vg := testbin.Valgrind(t)
	base := testbin.BuildAs(t, "./testdata/work", "base")
	plus5 := testbin.BuildAs(t, "./testdata/work", "plus5", "-tags=plus5")

	b, err := count.Instructions(vg, count.Target{Binary: base, Benchmark: "BenchmarkWork"}, count.Limits{})
	require.NoError(t, err)
	n, err := count.Instructions(vg, count.Target{Binary: plus5, Benchmark: "BenchmarkWork"}, count.Limits{NsPerOp: 2000})
	require.NoError(t, err)
	t.Logf("base %.1f instructions/op (N %d→%d, %v), +5%% build %.1f (N %d→%d, %v)", b.PerOp, b.N1, b.N2, b.Wall, n.PerOp, n.N1, n.N2, n.Wall)
	delta := 100 * (n.PerOp/b.PerOp - 1)
	assert.True(t, delta >= 3 && delta <= 7, "+5%% work reads %+.2f%% instructions/op, outside +3…+7%%", delta)

	for _, r := range []count.Result{b, n} {
		assert.Equal(t, count.N1, r.N1)
		assert.Greater(t, r.N2, r.N1)
		assert.Empty(t, r.Capped)
		assert.True(t, count.Enough(r.Total2-r.Total1, count.DefaultBudget), "the difference reaches half the budget")
		assert.Equal(t, vg.Version, r.Valgrind)
		assert.Equal(t, r.N2, r.Runs[len(r.Runs)-1].N, "the last process ran at N2")
		assert.Len(t, r.PerOps, count.DefaultRepeats)
		assert.GreaterOrEqual(t, r.HalfWidthPct, 0.0)
		assert.LessOrEqual(t, len(r.Runs), count.MaxSteps+count.DefaultRepeats)
	}
	assert.Less(t, len(n.Runs), len(b.Runs), "the ns/op hint saves processes")

	// A count continued with one process more at N2 keeps its
	// processes and N2.
	more, err := count.Instructions(vg, count.Target{Binary: base, Benchmark: "BenchmarkWork"}, count.Limits{From: &b, Repeats: count.DefaultRepeats + 1})
	require.NoError(t, err)
	assert.Equal(t, b.N2, more.N2)
	assert.Equal(t, b.PerOps, more.PerOps[:count.DefaultRepeats])
	assert.Len(t, more.PerOps, count.DefaultRepeats+1)
	assert.Len(t, more.Runs, len(b.Runs)+1)
	assert.InEpsilon(t, b.PerOp, more.PerOp, 0.005)
	_, err = count.Instructions(vg, count.Target{Binary: base, Benchmark: "BenchmarkWorkN"}, count.Limits{From: &b, Repeats: 3})
	assert.ErrorContains(t, err, "cannot continue a count")

	nStyle, err := count.Instructions(vg, count.Target{Binary: base, Benchmark: "BenchmarkWorkN"}, count.Limits{NsPerOp: 2000})
	require.NoError(t, err)
	assert.InEpsilon(t, b.PerOp, nStyle.PerOp, 0.01, "a b.N loop of the same work counts within 1%% of the b.Loop one: %.1f and %.1f", nStyle.PerOp, b.PerOp)
}

// TestInstructionsErrors checks the errors of benchmarks that cannot be
// counted: one that skips, one that fails, a name that selects nothing,
// a process past its deadline.
func TestInstructionsErrors(t *testing.T) {
	vg := testbin.Valgrind(t)
	bin := testbin.BuildAs(t, "./testdata/work", "work")
	for _, tc := range []struct {
		bench  string
		lim    count.Limits
		reason count.Reason
		says   []string
	}{
		{"BenchmarkSkips", count.Limits{}, count.ReasonNotRun, []string{"printed no result line", "-test.benchtime=2x"}},
		{"BenchmarkNone", count.Limits{}, count.ReasonNotRun, []string{"the name selects nothing"}},
		{"BenchmarkFails", count.Limits{}, count.ReasonFailed, []string{"failed under valgrind (exit status 1)", "a benchmark that fails"}},
		{"BenchmarkWork", count.Limits{Timeout: 100 * time.Millisecond}, count.ReasonDeadline, []string{"deadline of 100ms", "killed"}},
	} {
		r, err := count.Instructions(vg, count.Target{Binary: bin, Benchmark: tc.bench}, tc.lim)
		require.Error(t, err, tc.bench)
		assert.Equal(t, tc.reason, count.ReasonOf(err), "%s: %v", tc.bench, err)
		for _, s := range tc.says {
			assert.Contains(t, err.Error(), s, tc.bench)
		}
		assert.Len(t, r.Runs, 1, "%s: the first process says it", tc.bench)
	}
}

// TestInstructionsBlockProfile counts a benchmark that blocks on a
// channel with the block profiler at rate 1: each blocking event reads
// the CPU's tick counter, with RDTSCP where the runtime believes the CPU
// has it. valgrind's CPU model may claim RDTSCP where this CPU lacks it;
// the count then turns it off, and the process runs as it does natively
// instead of dying of SIGILL.
func TestInstructionsBlockProfile(t *testing.T) {
	vg := testbin.Valgrind(t)
	bin := testbin.Build(t, "./testdata/system")
	r, err := count.Instructions(vg, count.Target{Binary: bin, Benchmark: "BenchmarkBlocks"}, count.Limits{NsPerOp: 1000})
	require.NoError(t, err)
	t.Logf("%.1f instructions/op (N %d→%d, %d processes, %v)", r.PerOp, r.N1, r.N2, len(r.Runs), r.Wall)
	assert.Greater(t, r.PerOp, 100.0, "a round trip between two goroutines")
	assert.Empty(t, r.Children, "no process started")
	assert.Equal(t, int64(0), r.Runs[0].ChildFaults, "and each process said so")
}

// TestInstructionsChildren counts benchmarks that start /bin/true: every
// op (its processes' wall time bounds N2, and the result says that
// their instructions are not in the count), and once before the loop (it
// says they did not grow with N).
func TestInstructionsChildren(t *testing.T) {
	vg := testbin.Valgrind(t)
	if _, err := os.Stat("/bin/true"); err != nil {
		t.Skipf("needs /bin/true: %v", err)
	}
	bin := testbin.Build(t, "./testdata/system")
	const opsWall = 5 * time.Second
	r, err := count.Instructions(vg, count.Target{Binary: bin, Benchmark: "BenchmarkExecTrue"}, count.Limits{NsPerOp: 4.5e6, OpsWall: opsWall})
	require.NoError(t, err)
	t.Logf("ExecTrue: %.1f instructions/op (N %d→%d, %d processes, %v); capped: %s; children: %s", r.PerOp, r.N1, r.N2, len(r.Runs), r.Wall, r.Capped, r.Children)
	assert.Contains(t, r.Capped, "fill the 5s a process's ops may take", "the processes' wall time bounds N2 before the budget")
	assert.Contains(t, r.Children, "starts processes as it runs")
	assert.Contains(t, r.Children, "their instructions are not in the count")
	for _, run := range r.Runs {
		assert.Greater(t, run.ChildFaults, int64(0), "every process started /bin/true")
	}

	r, err = count.Instructions(vg, count.Target{Binary: bin, Benchmark: "BenchmarkExecOnce"}, count.Limits{NsPerOp: 1000})
	require.NoError(t, err)
	t.Logf("ExecOnce: %.1f instructions/op (N %d→%d, %d processes, %v); children: %s", r.PerOp, r.N1, r.N2, len(r.Runs), r.Wall, r.Children)
	assert.Empty(t, r.Capped)
	assert.Contains(t, r.Children, "not growing with N")
}
