package shard

import (
	"hash/fnv"
	"slices"

	"github.com/benchkit/go-benchkit/internal/child"
)

// Of returns the shard, from 1 to n, that the top-level benchmark named
// name ("BenchmarkSum", as testing lists it) of package pkg (its import
// path) belongs to among n shards. n must be at least 1.
func Of(pkg, name string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(pkg))
	h.Write([]byte{0})
	h.Write([]byte(name))
	return int(h.Sum64()%uint64(n)) + 1
}

// Keep returns the names, in their order, that belong to shard k of n
// (1 ≤ k ≤ n) in package pkg.
func Keep(pkg string, names []string, k, n int) []string {
	var out []string
	for _, name := range names {
		if Of(pkg, name, n) == k {
			out = append(out, name)
		}
	}
	return out
}

// Narrow returns the -test.bench pattern that selects shard k of n
// (1 ≤ k ≤ n) of what bench and skip (the user's -test.bench and
// -test.skip, "" none) select in package pkg: of the top-level benchmarks
// tops (one binary's, or both builds' together; repeats are ignored)
// those the pattern selects and Of puts in shard k, with bench's deeper
// levels kept. kept is how many top-level benchmarks the shard holds, of
// how many the selection holds; with none kept, the pattern selects
// nothing.
func Narrow(pkg, bench, skip string, tops []string, k, n int) (pattern string, kept, of int) {
	tops = slices.Compact(slices.Sorted(slices.Values(tops)))
	var selected []string
	for _, t := range tops {
		if child.Selects(bench, skip, t) {
			selected = append(selected, t)
		}
	}
	keep := Keep(pkg, selected, k, n)
	return child.TopFilter(bench, keep), len(keep), len(selected)
}
