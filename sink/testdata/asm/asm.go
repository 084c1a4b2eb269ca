// Package asm holds benchmark bodies whose compiled code sink's tests read.
//
// It lives under testdata so that ./... never builds, vets or runs it. The
// test in ../../asm_test.go compiles it with
//
//	go build -gcflags=-S ./testdata/asm
//
// and counts instructions in each function's listing. The functions are
// ordinary benchmarks in a non-test file: the compiler's b.Loop keep-alive
// applies to any package that imports testing, and go build compiles only
// non-test files.
package asm

import (
	"math/bits"
	"testing"

	"github.com/benchkit/go-benchkit/sink"
)

// mix is an inlinable, pure 64-bit finaliser (splitmix64's): two IMULQs.
// It must stay identical to mix in ../../sink_bench_test.go.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

var in uint64 = 0x9e3779b97f4a7c15

// b.N loops: nothing keeps a discarded result alive.

func BenchmarkBNDiscard(b *testing.B) {
	for i := range b.N {
		mix(uint64(i))
	}
}

func BenchmarkBNKeep(b *testing.B) {
	for i := range b.N {
		sink.Keep(mix(uint64(i)))
	}
}

// A literal for b.Loop() keeps the result of mix alive by itself.

func BenchmarkLoopBare(b *testing.B) {
	for b.Loop() {
		mix(in)
	}
}

// A wrapper loses the keep-alive: the condition is not literally b.Loop().

type kit struct{ b *testing.B }

func (k kit) Loop() bool { return k.b.Loop() }

func BenchmarkWrapperDiscard(b *testing.B) {
	k := kit{b}
	for k.Loop() {
		mix(in)
	}
}

func BenchmarkWrapperKeep(b *testing.B) {
	k := kit{b}
	for k.Loop() {
		sink.Keep(mix(in))
	}
}

// A method value or any other condition than a bare b.Loop() call loses it
// too; only the receiver expression may vary.

func BenchmarkMethodValueDiscard(b *testing.B) {
	loop := b.Loop
	for loop() {
		mix(in)
	}
}

func BenchmarkAndDiscard(b *testing.B) {
	ok := in != 0
	for ok && b.Loop() {
		mix(in)
	}
}

func BenchmarkEqualTrueDiscard(b *testing.B) {
	for b.Loop() == true {
		mix(in)
	}
}

type holder struct{ B *testing.B }

func BenchmarkFieldReceiverBare(b *testing.B) {
	k := holder{b}
	for k.B.Loop() {
		mix(in)
	}
}

// Code after the loop's closing brace is not protected.

func BenchmarkAfterLoopDiscard(b *testing.B) {
	for b.Loop() {
	}
	mix(in)
}

// A func() closure handed to a helper: the helper's loop keeps the call, but
// the closure's own body is compiled on its own, where the result is unused.

func run(b *testing.B, f func()) {
	for b.Loop() {
		f()
	}
}

func BenchmarkClosureDiscard(b *testing.B) {
	run(b, func() { mix(in) })
}

func BenchmarkClosureKeep(b *testing.B) {
	run(b, func() { sink.Keep(mix(in)) })
}

// RunParallel bodies are pb.Next() loops, not b.Loop() loops.

func BenchmarkParallelDiscard(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mix(in)
		}
	})
}

func BenchmarkParallelKeep(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			sink.Keep(mix(in))
		}
	})
}

// Constant inputs fold, sink or no sink.

func BenchmarkMixConstKeep(b *testing.B) {
	for b.Loop() {
		sink.Keep(mix(0xdeadbeef))
	}
}

func BenchmarkMixOpaqueKeep(b *testing.B) {
	x := sink.Opaque(uint64(0xdeadbeef))
	for b.Loop() {
		sink.Keep(mix(x))
	}
}

func BenchmarkOnesCountConst(b *testing.B) {
	for b.Loop() {
		bits.OnesCount(0b10110)
	}
}

func BenchmarkOnesCountOpaque(b *testing.B) {
	x := sink.Opaque(uint(0b10110))
	for b.Loop() {
		bits.OnesCount(x)
	}
}
