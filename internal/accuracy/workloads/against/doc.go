// Package against holds the workloads of the against table
// (internal/accuracy/against): one package built several ways, as if at
// several commits, each benchmark with benchkit.Track and b.Loop.
//
//	BenchmarkCompute    FNV-1a (calibrate.FNV) over 2000 bytes (compute-bound, about 2 µs)
//	BenchmarkMap        looks up 256 string keys in a map of 512, built
//	                    when the process starts (its layout, and so its
//	                    speed, is the hash seed the process drew)
//	BenchmarkAlloc      builds a linked list of 200 48-byte nodes
//	                    (allocating, several µs with its share of GC)
//	BenchmarkAllocLive  BenchmarkAlloc's list with a live heap of 200,000
//	                    nodes (9.6 MB) kept alive beside it, which every
//	                    collection marks
//
// Built plainly they are the base. Each build tag makes another build,
// as if another commit:
//
//	tag               every op does, beyond the base's
//	against_plus2     2% more of its work: 40 bytes, 4 nodes, 5 lookups
//	against_plus5     5% more: 100 bytes, 10 nodes, 13 lookups
//	against_plus25    25% more: 500 bytes, 50 nodes, 64 lookups
//	against_x2        as much again: 2000 bytes, 200 nodes, 256 lookups
//	against_bytes5    Alloc, AllocLive: one more allocation of 480 bytes
//	                  (5% of the op's 9600), kept in Spare and never
//	                  touched; the same nodes and the same mutator work
//	against_mutator5  Alloc, AllocLive: FNV over Data's first 250 (400)
//	                  bytes, about 5% of the op's time, allocating
//	                  nothing; the same nodes
//
// Under against_bytes5 and against_mutator5, BenchmarkCompute and
// BenchmarkMap are the base's: those builds change only what an
// allocating op does. The mutator's bytes were sized on a 2-CPU AMD
// Turin-class virtual machine at a quiet moment (FNV about 1.2 ns a
// byte, Alloc about 6 µs an op, AllocLive about 10 µs); elsewhere, and
// at other moments, the change is whatever the table's truth column
// measures.
//
// The identical-code A/A builds the plain package a second time with
// -trimpath, so that the two binaries differ (file paths) and the code
// does not.
//
// The benchmarks run only with BENCHKIT_AGAINST_TABLE=1 in the
// environment (the table sets it) or under a -benchtime=Nx smoke run.
package against

import "fmt"

// Sizes of the base's work: bytes hashed, nodes built, keys looked up,
// and the nodes of BenchmarkAllocLive's live heap.
const (
	computeBytes = 2000
	allocNodes   = 200
	mapKeys      = 256
	liveNodes    = 200_000
)

// Data is what BenchmarkCompute hashes (the base's bytes first, then
// the extra bytes of the heavier builds, up to the 2× build's) and what
// the mutator5 build's extra work hashes.
var Data = func() []byte {
	b := make([]byte, 2*computeBytes)
	for i := range b {
		b[i] = byte(i*131 + i>>3)
	}
	return b
}()

// node is a 48-byte list node (on 64-bit platforms): a link and five
// words of payload.
type node struct {
	next *node
	data [5]uint64
}

// Held keeps the last list alive, so that every node escapes to the heap.
var Held *node

// Spare keeps the bytes5 build's extra allocation, so that it escapes to
// the heap; nothing reads or writes it.
var Spare []byte

// BuildList builds a list of n nodes and keeps it in Held.
func BuildList(n int) {
	var head *node
	for i := range n {
		head = &node{next: head, data: [5]uint64{uint64(i)}}
	}
	Held = head
}

// Keys are the map's keys, Map the map BenchmarkMap looks them up in,
// built when the process starts: the base's 256 keys first, then the
// heavier builds' extra keys, up to the 2× build's 256 more. Every build's
// map holds all 512, so that the builds differ in the lookups only. Key i
// depends on i alone.
var (
	Keys = func() []string {
		k := make([]string, 2*mapKeys)
		for i := range k {
			k[i] = fmt.Sprintf("benchkit-key-%05d-%x", i, uint32(i)*2654435761)
		}
		return k
	}()
	Map = func() map[string]int {
		m := make(map[string]int, len(Keys))
		for i, k := range Keys {
			m[k] = i
		}
		return m
	}()
)

// Lookup sums the values of keys in Map.
func Lookup(keys []string) int {
	sum := 0
	for _, k := range keys {
		sum += Map[k]
	}
	return sum
}

// Live is BenchmarkAllocLive's live heap: a list of liveNodes nodes,
// built once, kept alive for the process's life.
var Live *node

// BuildLive builds Live once.
func BuildLive() {
	if Live != nil {
		return
	}
	for i := range liveNodes {
		Live = &node{next: Live, data: [5]uint64{uint64(i)}}
	}
}
