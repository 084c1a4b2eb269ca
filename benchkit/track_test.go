package benchkit

import (
	"flag"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/registry"
)

// withBenchtime sets -test.benchtime for the test, which testing.Benchmark
// reads, and restores it afterwards.
func withBenchtime(t *testing.T, v string) {
	t.Helper()
	f := flag.Lookup("test.benchtime")
	if f == nil {
		t.Skip("no -test.benchtime flag")
	}
	old := f.Value.String()
	if err := flag.Set("test.benchtime", v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("test.benchtime", old) })
}

// records resets the registry and returns a function that returns every
// run recorded since, across names (testing.Benchmark names every
// benchmark "").
func records(t *testing.T) func() []registry.Run {
	t.Helper()
	registry.Default().Reset()
	t.Cleanup(registry.Default().Reset)
	return func() []registry.Run {
		var runs []registry.Run
		for _, b := range registry.Default().Benchmarks() {
			runs = append(runs, b.Runs...)
		}
		return runs
	}
}

func flagsRecorded() []registry.Flag {
	var fs []registry.Flag
	for _, b := range registry.Default().Benchmarks() {
		fs = append(fs, b.Flags...)
	}
	return fs
}

func checkFinite(t *testing.T, r testing.BenchmarkResult) {
	t.Helper()
	for unit, v := range r.Extra {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("metric %s = %v", unit, v)
		}
	}
}

var xs = []uint64{3, 1, 4, 1, 5, 9, 2, 6}

func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

func TestTrackBLoopRecordsEachRepeat(t *testing.T) {
	withBenchtime(t, "1000x")
	runs := records(t)
	bench := func(b *testing.B) {
		Track(b)
		for b.Loop() {
			sum(xs)
		}
	}
	first := testing.Benchmark(bench)
	second := testing.Benchmark(bench)
	checkFinite(t, first)
	checkFinite(t, second)
	if _, ok := first.Extra[unitCV]; ok {
		t.Errorf("first repeat reports %s; want it from the second repeat on", unitCV)
	}
	if _, ok := second.Extra[unitCV]; !ok {
		t.Errorf("second repeat lacks %s: %v", unitCV, second.Extra)
	}
	if _, ok := second.Extra[unitWait]; !ok && runtime.GOOS == "linux" {
		t.Errorf("second repeat lacks %s on Linux: %v", unitWait, second.Extra)
	}
	got := runs()
	if len(got) != 2 {
		t.Fatalf("recorded %d runs, want 2: %+v", len(got), got)
	}
	for _, r := range got {
		if r.N != 1000 || r.NsPerOp <= 0 || r.TimedFraction <= 0 || r.TimedFraction > 1 || !(r.AllocsPerOp >= 0 && r.AllocsPerOp < 0.5) || r.WithinCV != -1 {
			t.Errorf("run %+v: want N=1000, ns/op > 0, timed fraction in (0, 1], allocs/op rounding to 0 (the race runtime may add one), no WithinCV", r)
		}
		if r.Procs != runtime.GOMAXPROCS(0) {
			t.Errorf("run Procs = %d, want GOMAXPROCS %d", r.Procs, runtime.GOMAXPROCS(0))
		}
	}
}

func TestTrackBNRecordsOnlyTheFinalStep(t *testing.T) {
	withBenchtime(t, "50x")
	runs := records(t)
	calls := 0
	r := testing.Benchmark(func(b *testing.B) {
		calls++
		Track(b)
		var s uint64
		for range b.N {
			s += sum(xs)
		}
		sinkU64 = s
	})
	if calls != 2 || r.N != 50 {
		t.Fatalf("calls = %d, N = %d; want testing's two runs, N=1 then N=50", calls, r.N)
	}
	got := runs()
	if len(got) != 1 || got[0].N != 50 {
		t.Errorf("recorded %+v; want one run, N=50 (the ramp step N=1 is not a repeat)", got)
	}
}

var sinkU64 uint64

func TestTrackKeepsTheTimerState(t *testing.T) {
	withBenchtime(t, "1x")
	records(t)
	var onAfter, offAfter, known bool
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		onAfter, known = bFields().TimerOn(b)
	})
	testing.Benchmark(func(b *testing.B) {
		b.StopTimer()
		Track(b)
		offAfter, _ = bFields().TimerOn(b)
		b.StartTimer()
	})
	if !known {
		t.Skip("timer state unreadable on this Go version")
	}
	if !onAfter || offAfter {
		t.Errorf("timer after Track: running case %v, stopped case %v; want Track to leave it as it found it", onAfter, offAfter)
	}
}

func TestTrackRecordsNothingForSkipsFailuresAndParents(t *testing.T) {
	withBenchtime(t, "10x")
	runs := records(t)
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		b.Skip("skipped")
	})
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		for b.Loop() {
		}
		b.Error("failed")
	})
	if got := runs(); len(got) != 0 {
		t.Errorf("skip and failure recorded %+v; want nothing", got)
	}
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		b.Run("sub", func(b *testing.B) {
			Track(b)
			for b.Loop() {
				sum(xs)
			}
		})
	})
	if got := runs(); len(got) != 1 || got[0].N != 10 {
		t.Errorf("parent with a sub-benchmark recorded %+v; want only the sub's run, N=10", got)
	}
	if fs := flagsRecorded(); len(fs) != 0 {
		t.Errorf("flags %+v; want none", fs)
	}
}

func TestTrackTwiceIsFlagged(t *testing.T) {
	withBenchtime(t, "10x")
	runs := records(t)
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		Track(b, FailOnFlags()) // ignored: its options too
		for b.Loop() {
			sum(xs)
		}
	})
	fs := flagsRecorded()
	if len(fs) != 1 || fs[0].Kind != registry.FlagMisuse || !strings.Contains(fs[0].Message, "Track called twice") {
		t.Errorf("flags %+v; want one misuse flag", fs)
	}
	if got := runs(); len(got) != 1 {
		t.Errorf("recorded %d runs, want 1", len(got))
	}
}

func TestBadInputPanics(t *testing.T) {
	tests := []struct {
		label string
		call  func()
		want  string
	}{
		{"Track nil b", func() { Track(nil) }, "benchkit: Track called with a nil *testing.B"},
		{"Loop nil b", func() { Loop(nil, func() int { return 0 }) }, "benchkit: Loop called with a nil *testing.B"},
		{"Setup nil b", func() { Setup(nil, func() int { return 0 }, func(int) int { return 0 }) }, "benchkit: Setup called with a nil *testing.B"},
		{"ExpectAllocs 0", func() { ExpectAllocs(0) }, "benchkit: ExpectAllocs(0)"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if !strings.HasPrefix(msg, tt.want) {
					t.Errorf("panic %q; want it to start with %q", msg, tt.want)
				}
			}()
			tt.call()
		})
	}
}

func TestViewReadsThisGoVersion(t *testing.T) {
	v := bFields()
	if v.timerOn == nil || v.netAllocs == nil || v.netBytes == nil || v.hasSub == nil {
		t.Fatalf("testing.B fields not found (%+v): Track falls back to ReadMemStats and cannot see parents; update bfields.go", *v)
	}
	if runtime.GOOS != "windows" && (v.startWall == nil || v.startExt == nil || timeWall == nil || timeExt == nil) {
		t.Fatalf("timer start not readable (%+v): the timer audit loses its tail check; update bfields.go", *v)
	}
	withBenchtime(t, "100x")
	var allocs uint64
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkBytes = make([]byte, 64)
		}
		b.StopTimer()
		allocs, _, _ = v.Allocs(b)
	})
	if runtime.GOOS != "windows" {
		// The timer start must be a monotonic reading taken by ResetTimer:
		// after one taken before the call, and before one taken after it.
		var before, start, after int64
		ok := false
		testing.Benchmark(func(b *testing.B) {
			b0, ok0 := monotonic(time.Now())
			b.ResetTimer()
			s, ok1 := v.TimerStart(b)
			a, ok2 := monotonic(time.Now())
			before, start, after, ok = b0, s, a, ok0 && ok1 && ok2
		})
		if !ok || start < before || start > after {
			t.Errorf("timer start %d not within [%d, %d] around ResetTimer (readable: %v)", start, before, after, ok)
		}
	}
	if allocs != uint64(r.MemAllocs) || r.MemAllocs < 100 {
		t.Errorf("view counted %d allocations, testing %d; want equal and ≥ 100", allocs, r.MemAllocs)
	}
}

var sinkBytes []byte

func TestSetupRunsSetupOncePerIteration(t *testing.T) {
	withBenchtime(t, "100x")
	runs := records(t)
	setups, works := 0, 0
	r := testing.Benchmark(func(b *testing.B) {
		Setup(b, func() []uint64 { setups++; return xs }, func(in []uint64) uint64 { works++; return sum(in) })
	})
	if r.N != 100 || setups != 100 || works != 100 {
		t.Errorf("N=%d setups=%d works=%d; want 100 each", r.N, setups, works)
	}
	if got := runs(); len(got) != 1 || got[0].N != 100 {
		t.Errorf("recorded %+v; want one run, N=100", got)
	}
}

func TestEmptyLoopFloor(t *testing.T) {
	f := measureFloor(1<<12, 3)
	if !(f > 0) || math.IsInf(f, 0) {
		t.Errorf("measureFloor = %v ns; want a positive, finite cost per iteration", f)
	}
}

type registryBench = registry.Bench

func registryBenchmarks() []registry.Bench { return registry.Default().Benchmarks() }
