package benchkit

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// procsSuffix is the -P suffix go test prints after a benchmark's name.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// TestShardPlainE2E: go test's own benchmarks, sharded by -benchkit.shard
// for N from 1 to 3: the shards' outputs together hold every benchmark
// of the package once, each shard says what it holds, and a bad shard is
// refused before anything runs.
func TestShardPlainE2E(t *testing.T) {
	bin := mainBinaryOf(t, "", "mainreport")
	all := []string{"Gate", "Looped", "Plain", "Tracked"}
	for n := 1; n <= 3; n++ {
		var got []string
		for k := 1; k <= n; k++ {
			r := mainExec(t, bin, nil, "-test.run=^$", "-test.bench=.", "-test.benchtime=1x", "-benchkit.warmup=off",
				fmt.Sprintf("-benchkit.shard=%d/%d", k, n))
			require.Equal(t, 0, r.code, r.stdout+r.stderr)
			assert.Regexp(t, fmt.Sprintf(`(?m)^benchkit │ shard %d/%d: (none|\d) of the 4 top-level benchmarks -bench selects in github.com/benchkit/go-benchkit/benchkit/testdata/mainreport`, k, n), r.stdout)
			names, _, _ := mainParse(t, r.stdout)
			for _, name := range names {
				got = append(got, procsSuffix.ReplaceAllString(name, ""))
			}
		}
		slices.Sort(got)
		assert.Equal(t, all, got, "the %d shards hold every benchmark once", n)
	}

	r := mainExec(t, bin, nil, "-test.run=^$", "-test.bench=.", "-benchkit.shard=4/3")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `benchkit: flag -benchkit.shard="4/3" asks for shard 4 of 3: K counts from 1 to N, so use 1/3 to 3/3`)
	assert.NotContains(t, r.stdout, "benchkit │", "nothing ran")
	r = mainExec(t, bin, []string{"BENCHKIT_SHARD=two"}, "-test.run=^$", "-test.bench=.")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `benchkit: environment variable BENCHKIT_SHARD="two" is not a shard: use K/N, such as 1/4`)
}
