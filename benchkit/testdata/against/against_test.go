// Package against is the fixture of -benchkit.against's end-to-end test:
// one package built twice, as if at two commits. Built plainly it is the
// base; built with -tags against_new it is the new version, in which
// BenchmarkWork does twice the work (a certain direction on a noisy
// 2-core machine, where the 10% would not be), BenchmarkAlloc
// allocates once more per op, BenchmarkOnlyBase is gone,
// BenchmarkOnlyNew appears and BenchmarkFixed no longer fails.
// BENCHKIT_TESTDATA_PANIC=1 makes BenchmarkPanics panic in the new
// version only; in the base version only, BENCHKIT_TESTDATA_HANG=1 makes
// BenchmarkHangs hang in its first call and BENCHKIT_TESTDATA_FAKE=1 makes
// BenchmarkPrints print a line that looks like a result to stdout.
// BENCHKIT_TESTDATA_MIDWAY=die|hang|garbage|closefd|forge makes
// BenchmarkMidway, in a lockstep process, in its fifth call, exit, hang,
// write garbage on the protocol's descriptor, close that descriptor (a
// file then takes its number) and go on, or write a well-formed step
// report of its own there and go on, in the base version, or with
// BENCHKIT_TESTDATA_MIDWAY_NEW=1 in the new one.
// BenchmarkSpins leaves a goroutine spinning after its first call.
// BENCHKIT_TESTDATA_CHILD_FAIL=1 makes TestMain fail in every child
// process of the base version (it still starts plainly), and
// BENCHKIT_TESTDATA_PHANTOM=1 makes TestMain print a line in testing's
// result format, after m.Run, in both versions.
package against

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) {
	if !isNew && os.Getenv("BENCHKIT_TESTDATA_CHILD_FAIL") == "1" && os.Getenv("BENCHKIT_CHILD_RESULT") != "" {
		fmt.Fprintln(os.Stderr, "against testdata: TestMain fails in a child process")
		os.Exit(1)
	}
	code := benchkit.Run(m)
	if os.Getenv("BENCHKIT_TESTDATA_PHANTOM") == "1" {
		fmt.Println("BenchmarkSame/phantom-2   \t     100\t      1000 ns/op")
	}
	os.Exit(code)
}

var xs = func() []uint64 {
	s := make([]uint64, 4096)
	for i := range s {
		s[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	return s
}()

func sum(s []uint64) uint64 {
	var t uint64
	for _, x := range s {
		t += x ^ (t >> 7)
	}
	return t
}

// Kept in package variables so that every make escapes to the heap.
var held, held2 []byte

func BenchmarkWork(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		sink.Keep(work())
	}
}

// BenchmarkSizes has two sub-benchmarks, each tracked: lockstep runs
// each leaf, at each -cpu value, in its own triples.
func BenchmarkSizes(b *testing.B) {
	for _, n := range []int{64, 512} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchkit.Track(b)
			for b.Loop() {
				sink.Keep(sum(xs[:n]))
			}
		})
	}
}

// BenchmarkSame is identical in both versions, and calls no Track: it is
// compared in rounds of processes, not in lockstep.
func BenchmarkSame(b *testing.B) {
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

// BenchmarkClassic is BenchmarkWork as a b.N loop: testing calls it with
// N=1 before each run, which a lockstep child does not report.
func BenchmarkClassic(b *testing.B) {
	benchkit.Track(b)
	for range b.N {
		sink.Keep(work())
	}
}

func BenchmarkAlloc(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		allocate()
	}
}

func BenchmarkPanics(b *testing.B) {
	if isNew && os.Getenv("BENCHKIT_TESTDATA_PANIC") == "1" {
		panic("against testdata: a deliberate panic in the new version")
	}
	for b.Loop() {
		sink.Keep(sum(xs[:64]))
	}
}

func BenchmarkHangs(b *testing.B) {
	if !isNew && os.Getenv("BENCHKIT_TESTDATA_HANG") == "1" {
		time.Sleep(time.Hour)
	}
	for b.Loop() {
		sink.Keep(sum(xs[:64]))
	}
}

func BenchmarkPrints(b *testing.B) {
	if !isNew && os.Getenv("BENCHKIT_TESTDATA_FAKE") == "1" {
		fmt.Println("BenchmarkPrints-2 1000000 1.000 ns/op")
	}
	for b.Loop() {
		sink.Keep(sum(xs[:64]))
	}
}

var spinOnce sync.Once

// spun is what the goroutine BenchmarkSpins leaves behind writes.
var spun atomic.Uint64

func BenchmarkSpins(b *testing.B) {
	benchkit.Track(b)
	spinOnce.Do(func() {
		go func() {
			for {
				spun.Add(1)
			}
		}()
	})
	for b.Loop() {
		sink.Keep(sum(xs[:256]))
	}
}

// midwayCalls counts BenchmarkMidway's calls in this process.
var midwayCalls int

func BenchmarkMidway(b *testing.B) {
	benchkit.Track(b)
	midwayCalls++
	inLockstep := os.Getenv("BENCHKIT_CHILD_LOCKSTEP") != ""
	if mine := isNew == (os.Getenv("BENCHKIT_TESTDATA_MIDWAY_NEW") == "1"); mine && inLockstep && midwayCalls == 5 {
		switch os.Getenv("BENCHKIT_TESTDATA_MIDWAY") {
		case "die":
			fmt.Fprintln(os.Stderr, "against testdata: BenchmarkMidway dies midway")
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		case "garbage":
			fmt.Println("BenchmarkMidway-2 1 1.000 ns/op")
			os.NewFile(3, "lockstep").WriteString("garbage\n")
		case "closefd":
			_ = os.NewFile(3, "lockstep").Close()
			if f, err := os.Open(os.Args[0]); err == nil {
				fmt.Fprintln(os.Stderr, "against testdata: descriptor 3 closed, a file took number", f.Fd())
			}
			time.Sleep(time.Hour)
		case "forge":
			os.NewFile(3, "lockstep").WriteString("step 1 5 0 0 1\n")
		}
	}
	for b.Loop() {
		sink.Keep(sum(xs[:256]))
	}
}
