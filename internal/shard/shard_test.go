package shard

import (
	"fmt"
	"slices"
	"testing"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// names returns n benchmark names from "BenchmarkB<from>" on.
func names(from, n int) []string {
	var out []string
	for i := from; i < from+n; i++ {
		out = append(out, fmt.Sprintf("BenchmarkB%d", i))
	}
	return out
}

// cover returns, for n shards of names, which shard each name is in, and
// fails t unless every name is in exactly one.
func cover(t *testing.T, pkg string, all []string, n int) map[string]int {
	t.Helper()
	in := map[string]int{}
	for k := 1; k <= n; k++ {
		for _, name := range Keep(pkg, all, k, n) {
			_, twice := in[name]
			require.False(t, twice, "%s is in shard %d and shard %d of %d", name, in[name], k, n)
			in[name] = k
		}
	}
	require.Len(t, in, len(all), "every benchmark is in a shard of %d", n)
	return in
}

// TestCover: for N from 1 to 5, every benchmark is in exactly one shard,
// and after names are added and removed the unchanged names keep their
// shard.
func TestCover(t *testing.T) {
	const pkg = "example.com/m/p"
	before := names(0, 60)
	after := append(slices.Clone(before[10:]), names(100, 25)...) // 10 removed, 25 added
	for n := 1; n <= 5; n++ {
		was := cover(t, pkg, before, n)
		now := cover(t, pkg, after, n)
		for _, name := range before[10:] {
			assert.Equal(t, was[name], now[name], "%s moved from shard %d to %d of %d", name, was[name], now[name], n)
		}
		for name, k := range now {
			assert.Equal(t, Of(pkg, name, n), k)
			assert.True(t, k >= 1 && k <= n)
		}
	}
}

// TestSpread: over many names no shard is left empty, and the package is
// part of the key (one name lands in different shards in some packages).
func TestSpread(t *testing.T) {
	all := names(0, 200)
	for n := 2; n <= 5; n++ {
		for k := 1; k <= n; k++ {
			got := len(Keep("example.com/m/p", all, k, n))
			assert.Greater(t, got, 200/n/2, "shard %d of %d holds %d of 200", k, n, got)
		}
	}
	moved := 0
	for _, name := range all {
		if Of("example.com/m/p", name, 4) != Of("example.com/m/q", name, 4) {
			moved++
		}
	}
	assert.Positive(t, moved)
	assert.Equal(t, 1, Of("example.com/m/p", "BenchmarkX", 1))
}

// TestNarrow: the pattern selects the shard's share of what -bench and
// -skip select, over both binaries' names, and the shards' patterns
// together select each selected benchmark once.
func TestNarrow(t *testing.T) {
	const pkg = "example.com/m/p"
	newTops := []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkSkipped", "BenchmarkOther"}
	baseTops := []string{"BenchmarkA", "BenchmarkGone"}
	all := append(slices.Clone(newTops), baseTops...)
	const bench, skip = "^Benchmark[A-G]", "Skipped"
	want := []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkGone"}
	for n := 1; n <= 4; n++ {
		seen := map[string]int{}
		total := 0
		for k := 1; k <= n; k++ {
			pat, kept, of := Narrow(pkg, bench, skip, all, k, n)
			assert.Equal(t, len(want), of)
			total += kept
			for _, name := range slices.Compact(slices.Sorted(slices.Values(append(all, "BenchmarkAB")))) {
				if child.Selects(pat, skip, name) {
					seen[name]++
				}
			}
		}
		assert.Equal(t, len(want), total)
		for _, name := range want {
			assert.Equal(t, 1, seen[name], "%s in one shard of %d", name, n)
		}
		assert.Len(t, seen, len(want), "nothing else is selected: %v", seen)
	}
	pat, kept, _ := Narrow(pkg, "Nothing", "", all, 1, 2)
	assert.Zero(t, kept)
	assert.False(t, child.Selects(pat, "", "BenchmarkA"))
}
