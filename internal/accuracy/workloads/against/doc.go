// Package against holds the workloads of the against table
// (internal/accuracy/against): one package built several ways, as if at
// several commits, each benchmark with benchkit.Track and b.Loop.
//
//	BenchmarkCompute  FNV-1a (calibrate.FNV) over 2000 bytes (compute-bound, about 2 µs)
//	BenchmarkAlloc    builds a linked list of 200 48-byte nodes
//	                  (allocating, about 4 µs with its share of GC)
//
// Built plainly they are the base. With -tags against_plus2 each does 2%
// more of its work (40 more bytes, 4 more nodes), with -tags
// against_plus5 5% more (100 bytes, 10 nodes): the +2% and +5% builds.
// The identical-code A/A builds the plain package a second time with
// -trimpath, so that the two binaries differ (file paths) and the code
// does not.
//
// The benchmarks run only with BENCHKIT_AGAINST_TABLE=1 in the
// environment (the table sets it) or under a -benchtime=Nx smoke run.
package against

// Sizes of the base's work: bytes hashed, nodes built.
const (
	computeBytes = 2000
	allocNodes   = 200
)

// Data is what BenchmarkCompute hashes: the base's bytes and the extra
// bytes of the +5% build.
var Data = func() []byte {
	b := make([]byte, computeBytes+computeBytes/20)
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

// BuildList builds a list of n nodes and keeps it in Held.
func BuildList(n int) {
	var head *node
	for i := range n {
		head = &node{next: head, data: [5]uint64{uint64(i)}}
	}
	Held = head
}
