package calibrate

import (
	"fmt"
	"slices"
)

// Sizes holds a workload's counts: the baseline's and those of the
// variants doing about 2%, 5% and 10% more work (see the package doc).
type Sizes struct{ Base, P2, P5, P10 int }

// The workloads' sizes.
var (
	SumSizes   = Sizes{1000, 1020, 1050, 1100}
	AllocSizes = Sizes{200, 204, 210, 220}
	MapSizes   = Sizes{1000, 1020, 1050, 1100}
	SortSizes  = Sizes{64, 65, 67, 69}
)

// MapEntries is the number of entries in Table.
const MapEntries = 4096

// splitmix returns the i-th value of the SplitMix64 sequence seeded with
// 0: a fixed pseudo-random stream, the same on every run.
func splitmix(i uint64) uint64 {
	z := (i + 1) * 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Xs is the input of the sum workload (seed000.Sum): SumSizes.P10
// values, of which each implementation reads a prefix. seed000.Xs holds
// only 1050; Sum's cost does not depend on the values.
var Xs = func() []uint64 {
	xs := make([]uint64, SumSizes.P10)
	for i := range xs {
		xs[i] = splitmix(uint64(i))
	}
	return xs
}()

// Table is the map Lookup reads: MapEntries pseudo-random keys, each
// mapped to its index.
var Table = func() map[uint64]uint64 {
	m := make(map[uint64]uint64, MapEntries)
	for i := range uint64(MapEntries) {
		m[splitmix(i)] = i
	}
	return m
}()

// Keys is the input of Lookup: MapSizes.P10 keys of Table chosen
// pseudo-randomly (with repeats), of which Lookup reads a prefix. Every
// key is present, so every lookup is a hit.
var Keys = func() []uint64 {
	ks := make([]uint64, MapSizes.P10)
	for i := range ks {
		ks[i] = splitmix(splitmix(uint64(MapEntries+i)) % MapEntries)
	}
	return ks
}()

// Lookup looks each of keys up in m and returns the sum of the values
// found. It is not inlined, so the work per call is len(keys) lookups
// plus one call.
//
//go:noinline
func Lookup(m map[uint64]uint64, keys []uint64) uint64 {
	var s uint64
	for _, k := range keys {
		s += m[k]
	}
	return s
}

// WordSeed picks Words among the pseudo-random inputs: the one, among
// seeds 1 to 5000, whose slices.Sort comparison counts at 64 to 69 strings
// rise steadily and best match n·log₂n. Sorting's cost depends on the data
// as well as on n: with seed 1, 65 strings took 7% fewer comparisons than
// 64. TestSortComparisons checks the counts.
const WordSeed = 1579

// Words is the input of SortCopy: SortSizes.P10 distinct pseudo-random
// lowercase strings of 8 to 15 bytes (from WordSeed), in no order, of
// which SortCopy reads a prefix.
var Words = func() []string {
	ws := make([]string, SortSizes.P10)
	for i := range ws {
		r := splitmix(WordSeed<<20 + uint64(i))
		b := make([]byte, 8+r%8)
		for j := range b {
			b[j] = 'a' + byte(splitmix(r+uint64(j))%26)
		}
		ws[i] = fmt.Sprintf("%s%02d", b[:len(b)-2], i) // the index makes them distinct
	}
	return ws
}()

// SortCopy returns a sorted copy of src, leaving src as it is. It is not
// inlined, so the work per call is one allocation, one copy and one sort.
//
//go:noinline
func SortCopy(src []string) []string {
	dst := make([]string, len(src))
	copy(dst, src)
	slices.Sort(dst)
	return dst
}
