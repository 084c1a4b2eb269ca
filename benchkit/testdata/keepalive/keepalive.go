// Package keepalive is compiled with -gcflags=-S by benchkit's
// TestLoopKeepsTheResultAlive, which counts the multiplies left in each
// closure passed to benchkit.Loop.
package keepalive

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

var in uint64 = 12345

func mix(x uint64) uint64 {
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	return x
}

// Kept returns the work's result: Loop keeps it alive, the multiplies stay.
func Kept(b *testing.B) {
	x := in
	benchkit.Loop(b, func() uint64 { return mix(x) })
}

// Discarded computes the work but returns something else: nothing keeps
// the work, and the compiler removes the multiplies.
func Discarded(b *testing.B) {
	x := in
	benchkit.Loop(b, func() int { mix(x); return 0 })
}
