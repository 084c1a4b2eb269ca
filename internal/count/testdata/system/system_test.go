// Package system is the fixture of package count's end-to-end tests of
// benchmarks that reach the runtime's and the system's paths:
// BenchmarkBlocks blocks on a channel with the block profiler on at rate
// 1 (every blocking event reads the CPU's tick counter, RDTSCP where the
// runtime believes the CPU has it); BenchmarkExecTrue starts /bin/true
// every op, and BenchmarkExecOnce once a run of the benchmark function,
// before its loop.
package system

import (
	"os/exec"
	"runtime"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

func BenchmarkBlocks(b *testing.B) {
	runtime.SetBlockProfileRate(1)
	b.Cleanup(func() { runtime.SetBlockProfileRate(0) })
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
	}()
	defer close(ping)
	benchkit.Track(b)
	for b.Loop() {
		ping <- 1
		sink.Keep(<-pong)
	}
}

func BenchmarkExecTrue(b *testing.B) {
	benchkit.Track(b)
	for b.Loop() {
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExecOnce(b *testing.B) {
	if err := exec.Command("/bin/true").Run(); err != nil {
		b.Fatal(err)
	}
	benchkit.Track(b)
	xs := make([]uint64, 1000)
	for b.Loop() {
		var t uint64
		for i := range xs {
			t += xs[i] ^ (t >> 7)
			xs[i] = t
		}
		sink.Keep(t)
	}
}
