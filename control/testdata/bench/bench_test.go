// Package bench holds benchmarks that misuse package control on purpose,
// and a Rounds benchmark; control's tests build this package and run it
// with chosen flags. It is in testdata so that go test ./... never runs
// it.
package bench

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/control"
)

var xs = make([]uint64, 3000)

func sum(n int) func() uint64 {
	return func() uint64 {
		var s uint64
		for _, x := range xs[:n] {
			s += x
		}
		return s
	}
}

func BenchmarkRounds(b *testing.B) {
	control.With(control.Seed(1)).Benchstat(b, 5, control.Func("alpha", sum(100)), control.Func("beta", sum(100)), control.Func("plus5", sum(105)))
}

func BenchmarkNilFunc(b *testing.B) {
	control.Compare(b, control.Func("a", sum(10)), control.Func[uint64]("b", nil))
}

func BenchmarkDuplicate(b *testing.B) {
	control.Compare(b, control.Func("a", sum(10)), control.Func("a", sum(10)))
}

func BenchmarkEmptyName(b *testing.B) {
	control.Compare(b, control.Func("", sum(10)))
}

func BenchmarkWhitespaceName(b *testing.B) {
	control.Compare(b, control.Func("a", sum(10)), control.Func("new impl", sum(10)))
}

func BenchmarkClosureName(b *testing.B) {
	control.Compare(b, control.Func("a", sum(10)), control.Func("closure", sum(10)))
}

func BenchmarkRoundsDigitsName(b *testing.B) {
	control.Benchstat(b, 2, control.Func("a", sum(10)), control.Func("copy-2", sum(10)))
}

func BenchmarkRoundsZero(b *testing.B) {
	control.Benchstat(b, 0, control.Func("a", sum(10)))
}

func BenchmarkPanic(b *testing.B) {
	control.Compare(b, control.Func("a", sum(10)), control.Func("boom", func() int {
		var m map[string]int
		m["x"] = 1 // assignment to entry in nil map
		return 0
	}))
}

func BenchmarkSlow(b *testing.B) {
	control.Compare(b, control.Func("a", sum(10)), control.Func("glacial", func() int {
		time.Sleep(300 * time.Millisecond)
		return 0
	}))
}

// BenchmarkGate: plus200 does 3× the work; a 10% gate fails it.
func BenchmarkGate(b *testing.B) {
	control.With(control.Gate(10)).Compare(b, control.Func("base", sum(1000)), control.Func("plus200", sum(3000)))
}

// BenchmarkGateFaster: a faster candidate never fails a gate.
func BenchmarkGateFaster(b *testing.B) {
	control.With(control.Gate(10)).Compare(b, control.Func("base", sum(3000)), control.Func("minus66", sum(1000)))
}

func BenchmarkBadOption(b *testing.B) {
	control.With(control.Gate(-3)).Compare(b, control.Func("a", sum(10)))
}

func BenchmarkTwice(b *testing.B) {
	control.Compare(b, control.Func("a", sum(10)))
	control.Compare(b, control.Func("a", sum(10)))
}

func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		control.Compare(b, control.Func("a", sum(10)))
		for pb.Next() {
		}
	})
}

// BenchmarkGoroutines shares b between two goroutines.
func BenchmarkGoroutines(b *testing.B) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			control.Compare(b, control.Func("a", sum(10)))
		}()
	}
	wg.Wait()
}

// BenchmarkCount is a plain comparison, run with -count=2 to check the
// note is logged once.
func BenchmarkCount(b *testing.B) {
	control.Compare(b, control.Func("a", sum(100)), control.Func("b", sum(100)))
}

// BenchmarkForks has sub-benchmarks with awkward names: regexp
// metacharacters, a space (go test rewrites it to '_') and a repeated
// name (the second gets "#01"), two levels deep; each must be selected
// alone in its forks.
func BenchmarkForks(b *testing.B) {
	for _, name := range []string{"a.b*c+(d)|e", "x y", "dup", "dup"} {
		b.Run(name, func(b *testing.B) {
			b.Run("size=[10]", func(b *testing.B) {
				control.Compare(b, control.Func("base", sum(200)), control.Func("more", sum(400)))
			})
		})
	}
}

// BenchmarkFailInFork fails only inside a fork, the way a benchmark that
// depends on its process's state would.
func BenchmarkFailInFork(b *testing.B) {
	if os.Getenv("BENCHKIT_CHILD_RESULT") != "" {
		b.Fatal("the input file is missing in this process")
	}
	control.Compare(b, control.Func("a", sum(10)), control.Func("b", sum(10)))
}

// BenchmarkSlowish: a round (a, its control copy, b) sleeps about 20 ms,
// so a fork needs about 230 ms to measure its first rounds: at
// -benchtime=800ms ten forks would get 160 ms each, and Compare spreads
// the comparison over fewer.
func BenchmarkSlowish(b *testing.B) {
	sleep := func(d time.Duration) func() uint64 {
		return func() uint64 { time.Sleep(d); return sum(10)() }
	}
	control.Compare(b, control.Func("a", sleep(5*time.Millisecond)), control.Func("b", sleep(10*time.Millisecond)))
}

// BenchmarkStallInFork2: in the second fork only, one call outlasts the
// fork's whole budget, as when another process holds the CPU; the other
// forks measure.
func BenchmarkStallInFork2(b *testing.B) {
	slow := strings.HasSuffix(os.Getenv("BENCHKIT_CHILD_RESULT"), "fork2.json")
	control.Compare(b, control.Func("a", sum(10)), control.Func("b", func() uint64 {
		if slow {
			// Far beyond the fork's budget (400ms at -benchtime=600ms),
			// so that only this fork stops, however loaded the machine.
			time.Sleep(2 * time.Second)
		}
		return sum(10)()
	}))
}

// BenchmarkGateInForks: a candidate doing twice the work under Gate(5):
// the gate decides once, in the parent, on the combined forks.
func BenchmarkGateInForks(b *testing.B) {
	control.With(control.Gate(5)).Compare(b, control.Func("old", sum(200)), control.Func("new", sum(400)))
}

// BenchmarkSkipInImpl: an implementation that skips the benchmark, as one
// that finds its fixture missing would.
func BenchmarkSkipInImpl(b *testing.B) {
	control.Compare(b, control.Func("old", sum(10)), control.Func("new", func() uint64 {
		b.Skip("the fixture is not here")
		return 0
	}))
}

// BenchmarkAfterCompare records what the code after Compare sees, one
// line per process that runs it, in the file $BENCHKIT_TEST_AFTER.
func BenchmarkAfterCompare(b *testing.B) {
	res := control.Compare(b, control.Func("old", sum(10)), control.Func("new", sum(20)))
	appendLine(os.Getenv("BENCHKIT_TEST_AFTER"), fmt.Sprintf("after pid=%d forks=%d rounds=%d", os.Getpid(), res.Forks, res.Rounds))
}

// BenchmarkProcs records, once per process that measures it, the
// GOMAXPROCS its implementation ran at and the process's -test.cpu, in
// $BENCHKIT_TEST_PROCS.
func BenchmarkProcs(b *testing.B) {
	var once sync.Once
	control.Compare(b, control.Func("old", func() uint64 {
		once.Do(func() {
			appendLine(os.Getenv("BENCHKIT_TEST_PROCS"), fmt.Sprintf("cpu=%s procs=%d", flag.Lookup("test.cpu").Value, runtime.GOMAXPROCS(0)))
		})
		return sum(10)()
	}), control.Func("new", sum(10)))
}

// appendLine appends line to the file at path, when path is set.
func appendLine(path, line string) {
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

// TestMain records its teardown, one line per process that runs it, in
// $BENCHKIT_TEST_AFTER.
func TestMain(m *testing.M) {
	code := m.Run()
	appendLine(os.Getenv("BENCHKIT_TEST_AFTER"), fmt.Sprintf("teardown pid=%d", os.Getpid()))
	os.Exit(code)
}
