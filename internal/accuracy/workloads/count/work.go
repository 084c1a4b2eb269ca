package count

import "fmt"

// mapEntries is the number of entries in table.
const mapEntries = 4096

// splitmix returns the i-th value of the SplitMix64 sequence seeded with
// 0: a fixed pseudo-random stream, the same on every run.
func splitmix(i uint64) uint64 {
	z := (i + 1) * 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// xs is the input of sum: computeN pseudo-random values.
var xs = func() []uint64 {
	s := make([]uint64, computeN)
	for i := range s {
		s[i] = splitmix(uint64(i))
	}
	return s
}()

// sum adds the values of s, each mixed with the sum so far, so that the
// compiler cannot vectorise or fold the loop.
//
//go:noinline
func sum(s []uint64) uint64 {
	var t uint64
	for _, x := range s {
		t += x ^ (t >> 7)
	}
	return t
}

// held keeps alloc's slices on the heap.
var held []byte

// alloc makes n heap allocations of 64 bytes.
//
//go:noinline
func alloc(n int) int {
	for range n {
		held = make([]byte, 64)
	}
	return len(held)
}

// key returns the i-th key of table: 16 bytes, distinct for each i.
func key(i uint64) string { return fmt.Sprintf("%016x", splitmix(i)) }

// table maps mapEntries keys to their index.
var table = func() map[string]uint64 {
	m := make(map[string]uint64, mapEntries)
	for i := range uint64(mapEntries) {
		m[key(i)] = i
	}
	return m
}()

// keys are mapN keys of table chosen pseudo-randomly (with repeats).
var keys = func() []string {
	ks := make([]string, mapN)
	for i := range ks {
		ks[i] = key(splitmix(uint64(mapEntries+i)) % mapEntries)
	}
	return ks
}()

// lookup looks each key up in m and returns the sum of the values found.
//
//go:noinline
func lookup(m map[string]uint64, ks []string) uint64 {
	var s uint64
	for _, k := range ks {
		s += m[k]
	}
	return s
}
