package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/settings"
)

// TestHeaderLine: the compact report's first line names the package, Go,
// the CPU, how many, and the load, or the warning that names it; the
// warnings in a few words, worst first, as many as one line holds, the
// others counted; a fact not known is left out.
func TestHeaderLine(t *testing.T) {
	in := Input{Package: "example.com/p", Facts: []env.Fact{
		{Name: "go", Value: "go1.26.8 linux/amd64"}, {Name: "cpu", Value: "AMD EPYC 9B14"}, {Name: "cpus", Value: "4"},
		{Name: "load", Value: "0.52 0.61 0.70 (1, 5, 15 min)"}, {Name: "governor", Value: env.Unknown},
	}}
	assert.Equal(t, "example.com/p · go1.26.8 · AMD EPYC 9B14 · 4 CPUs · load 0.52", headerLine(in, LineWidth))

	in.Facts[1].Value = env.Unknown
	in.Warnings = []env.Warning{
		{Key: "load", Message: "load average 5.10 over the last minute is above the 4 CPUs: stop other work", Short: "load 5.10 above 4 CPUs"},
		{Key: "turbo", Message: "turbo boost is on (intel_pstate/no_turbo): run it"},
	}
	assert.Equal(t, "example.com/p · go1.26.8 · 4 CPUs · ⚠ load 5.10 above 4 CPUs, turbo boost is on (intel_pstate/no_turbo)", headerLine(in, LineWidth),
		"the load once, in its warning; a warning without Short by its message up to the colon")

	full := headerLine(in, 0)
	assert.Equal(t, "example.com/p · go1.26.8 · 4 CPUs · ⚠ load 5.10 above 4 CPUs (+1 more)", headerLine(in, len([]rune(full))-1),
		"what does not fit is counted")
	assert.Equal(t, "example.com/p · go1.26.8 · 4 CPUs · ⚠ load 5.10 above 4 CPUs (+1 more)", headerLine(in, 10), "the worst stays however narrow")
	assert.Equal(t, "benchkit report", headerLine(Input{}, LineWidth))

	a := againstInput()
	assert.Equal(t, "example.com/p · against base.test", headerLine(a, LineWidth))
	long := againstInput()
	long.Against.Base.Path = "/tmp/" + strings.Repeat("d", 120) + "/base.test"
	long.Facts, long.Warnings = in.Facts, in.Warnings
	assert.Equal(t, "example.com/p · against base.test · go1.26.8 · 4 CPUs · ⚠ load 5.10 above 4 CPUs (+1 more)", headerLine(long, LineWidth),
		"too long with the worst warning alone: the base binary's file name")
	assert.Contains(t, headerLine(long, 0), "against /tmp/ddd", "no width: the path whole")
	long.Facts = append(long.Facts, env.Fact{Name: "cpu", Value: strings.Repeat("c", 80)})
	assert.Equal(t, "example.com/p · against base.test · go1.26.8 · 4 CPUs · ⚠ load 5.10 above 4 CPUs (+1 more)", headerLine(long, LineWidth),
		"then the CPU's name left out")
	a.Against.BaseRev = &against.Revision{Rev: "origin/main", Commit: "0123456789abcdef0123456789abcdef01234567"}
	a.Settings.Shard = settings.Shard{K: 2, N: 3}
	assert.Equal(t, "example.com/p · shard 2/3 · against origin/main (merge base 0123456789ab)", headerLine(a, LineWidth))
	assert.Contains(t, titleText(a, Analyze(a)), " · example.com/p · shard 2/3")
}

// TestCompactIsShort: the compact report of a package of five benchmarks
// is the header, the table and a line per finding that needs action; the
// full one has the environment, the legends, the plots and the findings
// explained.
func TestCompactIsShort(t *testing.T) {
	in := fixture()
	in.Benches = in.Benches[:5]
	compact, full := renderCompact(t, in), render(t, in)
	lines := strings.Split(strings.TrimSuffix(compact, "\n"), "\n")
	require.NotEmpty(t, lines)
	assert.Equal(t, "benchkit │ example.com/p · go1.26.8 · 2 CPUs · ⚠ load 3.10 above 2 CPUs", lines[0])
	assert.Regexp(t, `^benchkit │   benchmark +samples +median/op`, lines[1])
	var rows, findings int
	for _, l := range lines[2:] {
		switch {
		case strings.HasPrefix(l, "benchkit │   ⚠ "):
			findings++
		case strings.HasPrefix(l, "benchkit │     "): // a line wrapped at LineWidth
		default:
			rows++
		}
	}
	assert.Equal(t, 5, rows, "one line per benchmark:\n%s", compact)
	assert.Equal(t, 5, findings, "two regimes twice, eliminated, contention, a spread of its own:\n%s", compact)
	for _, gone := range []string{"environment", "governor", "· samples:", "samples in order", "findings\n", "Lehr's rule"} {
		assert.NotContains(t, compact, gone)
		assert.Contains(t, full, gone)
	}
	assert.Less(t, len(lines)*2, strings.Count(full, "\n"), "less than half the full report's lines")
}

// TestCompactFindings: each row's flags (an allowed one left out), the
// stale runs, regimes, a stretch and a cold start each get a line; the
// rows under contention, the drifted ones and those with no spread share
// one.
func TestCompactFindings(t *testing.T) {
	in := fixture()
	in.Benches = []registry.Bench{
		{Name: "BenchmarkA", Runs: runs(2, 0.3, 100, 101, 99, 100, 102, 98), TotalRuns: 6, Flags: []registry.Flag{
			{Kind: registry.FlagAllocs, Count: 6, Message: "benchkit: BenchmarkA: 1.00 allocs/op, but ExpectAllocs(0) declared none"},
			{Kind: registry.FlagEliminated, Count: 1, Allowed: "AllowEliminated", Message: "benchkit: BenchmarkA: eliminated"},
		}},
		{Name: "BenchmarkB", Runs: runs(2, 0.4, 100, 101, 99, 100, 102, 98), TotalRuns: 6},
		{Name: "BenchmarkC", Runs: runs(2, 0, 5), TotalRuns: 1},
	}
	in.Benches[0].Runs[0].StaleProcs = 1
	got := compactFindings(Analyze(in).Rows)
	assert.Equal(t, []string{
		"A-2: allocs (in 6 runs): 1.00 allocs/op, but ExpectAllocs(0) declared none",
		"A-2: run 1 measured by testing at GOMAXPROCS=1, not this row's -cpu value (golang/go#49980). Fix: -count=2 or more, and read the runs after the first",
		"contention in 2 benchmarks, wait% 30.0–40.0: other processes took the CPUs. Fix: stop other work (go test -p 1) or pin the benchmark (taskset)",
		"no spread known for C-2 (one run each): -count=10, or benchkit.Loop with a -benchtime above 1x, measures it",
	}, got)
}
