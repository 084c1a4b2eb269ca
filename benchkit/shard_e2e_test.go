package benchkit_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/summary"
	"github.com/benchkit/go-benchkit/internal/testbin"
)

// procsSuffix is the -P suffix go test prints after a benchmark's name.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// TestAgainstViewsE2E builds testdata/against as the base and the new
// version and runs the subtests of sharding and artifacts with both.
func TestAgainstViewsE2E(t *testing.T) {
	base := testbin.BuildAs(t, "./testdata/against", "base")
	cand := testbin.BuildAs(t, "./testdata/against", "new", "-tags=against_new")
	t.Run("Shards", func(t *testing.T) { againstShards(t, base, cand) })
	t.Run("Artifacts", func(t *testing.T) { againstArtifacts(t, base, cand) })
}

// againstArtifacts: under go test -artifacts the comparison's files go
// to the package's artifacts, and no process of the comparison makes an
// _artifacts directory of its own where it runs.
func againstArtifacts(t *testing.T, base, cand string) {
	cwd, out := t.TempDir(), t.TempDir()
	r := testbin.Run(t, cand, cwd, 5*time.Minute, nil,
		"-test.run=^$", "-test.bench=^BenchmarkSame$", "-test.benchtime=5ms", "-test.artifacts", "-test.outputdir="+out,
		"-benchkit.against="+base, "-benchkit.pairing=rounds", "-benchkit.rounds=2")
	require.Equal(t, 0, r.Code, r.Combined())
	rep := readAgainstJSON(t, filepath.Join(out, "_artifacts", "benchkit", "testdata", "against", "benchkit", "report.json"))
	require.NotNil(t, rep.Against)
	assert.Len(t, rep.Against.Benchmarks, 1)
	assert.NoDirExists(t, filepath.Join(cwd, "_artifacts"), "the children keep no artifacts")
}

// againstShards: -benchkit.against sharded in two: each shard compares
// its share in both builds, and the two shards' JSON reports together
// hold every selected benchmark once, the ones found in one build only
// included (the base's are listed from the base). In GitHub Actions each
// shard adds its part to the step summary by default. A shard that holds
// none of the package's benchmarks measures nothing, prints its line and
// no report, and writes its files.
func againstShards(t *testing.T, base, cand string) {
	dir := t.TempDir()
	step := filepath.Join(dir, "step_summary.md")
	run := func(bench string, k int) (againstJSON, string) {
		jsonPath := filepath.Join(dir, fmt.Sprintf("shard%d.json", k))
		r := testbin.Run(t, cand, "", 5*time.Minute, []string{"GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY=" + step},
			"-test.run=^$", "-test.bench="+bench, "-test.benchtime=5ms",
			"-benchkit.against="+base, "-benchkit.pairing=rounds", "-benchkit.rounds=2", "-benchkit.gate=50",
			fmt.Sprintf("-benchkit.shard=%d/2", k), "-benchkit.json="+jsonPath)
		require.Equal(t, 0, r.Code, r.Combined())
		againstCheckParses(t, r.Stdout)
		rep := readAgainstJSON(t, jsonPath)
		require.NotNil(t, rep.Against, "every shard writes its files")
		return rep, r.Stdout
	}

	var got []string
	measured := 0
	for k := 1; k <= 2; k++ {
		rep, _ := run("^Benchmark(Same|Classic|Work|OnlyBase|OnlyNew)$", k)
		if len(rep.Against.Benchmarks)+len(rep.Against.OnlyBase)+len(rep.Against.OnlyNew) > 0 {
			measured++
		}
		for _, b := range rep.Against.Benchmarks {
			got = append(got, procsSuffix.ReplaceAllString(b.Name, ""))
		}
		for _, name := range append(slices.Clone(rep.Against.OnlyBase), rep.Against.OnlyNew...) {
			got = append(got, procsSuffix.ReplaceAllString(name, ""))
		}
	}
	slices.Sort(got)
	assert.Equal(t, []string{"Classic", "OnlyBase", "OnlyNew", "Same", "Work"}, got)
	parts, err := summary.Read(step)
	require.NoError(t, err)
	require.Len(t, parts, measured, "a part per shard that measured anything")
	for _, p := range parts {
		assert.True(t, p.Against)
		require.NotNil(t, p.Shard)
		assert.Equal(t, 2, p.Shard.N)
	}

	empty := 0
	for k := 1; k <= 2; k++ { // one benchmark: one of the two shards holds it
		rep, stdout := run("^BenchmarkSame$", k)
		if strings.Contains(stdout, "none of the 1 top-level benchmarks") {
			empty++
			assert.NotContains(t, stdout, "· against ", "no report of nothing: no header line")
			assert.NotContains(t, stdout, "benchkit │ against", "nor the full report's section")
			assert.Empty(t, rep.Against.Benchmarks)
			assert.Empty(t, rep.Failures, "a gated shard that holds nothing passes")
		} else {
			assert.Len(t, rep.Against.Benchmarks, 1)
		}
	}
	assert.Equal(t, 1, empty)
}
