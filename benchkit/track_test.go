package benchkit

import (
	"flag"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/testingb"
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
	require.NoError(t, flag.Set("test.benchtime", v))
	t.Cleanup(func() { _ = flag.Set("test.benchtime", old) })
}

// records resets the registry and returns a function that returns every
// run recorded since, across names (benchkit names testing.Benchmark's
// unnamed B after the function it runs).
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
		assert.False(t, math.IsNaN(v) || math.IsInf(v, 0), "metric %s = %v", unit, v)
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
	assert.NotContains(t, first.Extra, unitCV, "first repeat reports %s; want it from the second repeat on", unitCV)
	assert.Contains(t, second.Extra, unitCV, "second repeat lacks %s: %v", unitCV, second.Extra)
	if runtime.GOOS == "linux" {
		assert.Contains(t, second.Extra, unitWait, "second repeat lacks %s on Linux: %v", unitWait, second.Extra)
	}
	got := runs()
	require.Len(t, got, 2, "recorded %d runs, want 2: %+v", len(got), got)
	for _, r := range got {
		// One compound check, as written: split into Greater/Less, the
		// float comparisons would also reject NaNs that it lets through.
		bad := r.N != 1000 || r.NsPerOp <= 0 || r.TimedFraction <= 0 || r.TimedFraction > 1 || !(r.AllocsPerOp >= 0 && r.AllocsPerOp < 0.5) || r.WithinCV != -1
		assert.False(t, bad, "run %+v: want N=1000, ns/op > 0, timed fraction in (0, 1], allocs/op rounding to 0 (the race runtime may add one), no WithinCV", r)
		assert.Equal(t, runtime.GOMAXPROCS(0), r.Procs, "run Procs = %d, want GOMAXPROCS %d", r.Procs, runtime.GOMAXPROCS(0))
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
	require.Equal(t, 2, calls, "calls = %d, N = %d; want testing's two runs, N=1 then N=50", calls, r.N)
	require.Equal(t, 50, r.N, "calls = %d, N = %d; want testing's two runs, N=1 then N=50", calls, r.N)
	got := runs()
	if assert.Len(t, got, 1, "recorded %+v; want one run, N=50 (the ramp step N=1 is not a repeat)", got) {
		assert.Equal(t, 50, got[0].N, "recorded %+v; want one run, N=50 (the ramp step N=1 is not a repeat)", got)
	}
}

var sinkU64 uint64

func TestTrackKeepsTheTimerState(t *testing.T) {
	withBenchtime(t, "1x")
	records(t)
	var onAfter, offAfter, known bool
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		onAfter, known = testingb.TimerOn(b)
	})
	testing.Benchmark(func(b *testing.B) {
		b.StopTimer()
		Track(b)
		offAfter, _ = testingb.TimerOn(b)
		b.StartTimer()
	})
	if !known {
		t.Skip("timer state unreadable on this Go version")
	}
	const timerWant = "timer after Track: running case %v, stopped case %v; want Track to leave it as it found it"
	assert.True(t, onAfter, timerWant, onAfter, offAfter)
	assert.False(t, offAfter, timerWant, onAfter, offAfter)
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
	got := runs()
	assert.Empty(t, got, "skip and failure recorded %+v; want nothing", got)
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		b.Run("sub", func(b *testing.B) {
			Track(b)
			for b.Loop() {
				sum(xs)
			}
		})
	})
	got = runs()
	if assert.Len(t, got, 1, "parent with a sub-benchmark recorded %+v; want only the sub's run, N=10", got) {
		assert.Equal(t, 10, got[0].N, "parent with a sub-benchmark recorded %+v; want only the sub's run, N=10", got)
	}
	// The parent's Track says once that it recorded nothing
	//, under a name rather than "" (testing.Benchmark's B has
	// none): the function it runs.
	fs := flagsRecorded()
	if assert.Len(t, fs, 1, "flags %+v; want the parent's misuse flag", fs) {
		assert.Equal(t, registry.FlagMisuse, fs[0].Kind)
		assert.Regexp(t, `^benchkit: testing\.Benchmark\(benchkit\.TestTrackRecordsNothingForSkipsFailuresAndParents\.func\d+\) calls b\.Run`, fs[0].Message)
	}
	for _, b := range registryBenchmarks() {
		assert.NotRegexp(t, `^-\d+$`, b.Name, "a registry name that is only a GOMAXPROCS suffix")
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
	if assert.Len(t, fs, 1, "flags %+v; want one misuse flag", fs) {
		assert.Equal(t, registry.FlagMisuse, fs[0].Kind, "flags %+v; want one misuse flag", fs)
		assert.Contains(t, fs[0].Message, "Track called twice", "flags %+v; want one misuse flag", fs)
	}
	got := runs()
	assert.Len(t, got, 1, "recorded %d runs, want 1", len(got))
}

func TestBadInputPanics(t *testing.T) {
	tests := []struct {
		label string
		call  func()
		want  string
	}{
		{"Track nil b", func() { Track(nil) }, "benchkit: Track called with a nil *testing.B"},
		{"Allow allocs", func() { Allow("allocs", "x") }, `benchkit: Allow("allocs"): the allocs flag compares an exact count`},
		{"Allow timer-stopped", func() { Allow("timer-stopped", "x") }, `benchkit: Allow("timer-stopped"): a stopped timer always fails`},
		{"Allow misuse", func() { Allow("misuse", "x") }, `benchkit: Allow("misuse"): misuse is a call that cannot measure`},
		{"Allow unknown", func() { Allow("slow", "x") }, `benchkit: Allow("slow"): the kinds that can be allowed are "eliminated"`},
		{"Allow without a reason", func() { Allow("eliminated", " ") }, `benchkit: Allow("eliminated", ""): give the reason`},
		{"Loop nil b", func() { Loop(nil, func() int { return 0 }) }, "benchkit: Loop called with a nil *testing.B"},
		{"LoopWithSetup nil b", func() { LoopWithSetup(nil, func() int { return 0 }, func(int) int { return 0 }) }, "benchkit: LoopWithSetup called with a nil *testing.B"},
		{"ExpectAllocs 0", func() { ExpectAllocs(0) }, "benchkit: ExpectAllocs(0)"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				assert.True(t, strings.HasPrefix(msg, tt.want), "panic %q; want it to start with %q", msg, tt.want)
			}()
			tt.call()
		})
	}
}

func TestSetupRunsSetupOncePerIteration(t *testing.T) {
	withBenchtime(t, "100x")
	runs := records(t)
	setups, works := 0, 0
	r := testing.Benchmark(func(b *testing.B) {
		LoopWithSetup(b, func() []uint64 { setups++; return xs }, func(in []uint64) uint64 { works++; return sum(in) })
	})
	const countsWant = "N=%d setups=%d works=%d; want 100 each"
	assert.Equal(t, 100, r.N, countsWant, r.N, setups, works)
	assert.Equal(t, 100, setups, countsWant, r.N, setups, works)
	assert.Equal(t, 100, works, countsWant, r.N, setups, works)
	got := runs()
	if assert.Len(t, got, 1, "recorded %+v; want one run, N=100", got) {
		assert.Equal(t, 100, got[0].N, "recorded %+v; want one run, N=100", got)
	}
}

func TestEmptyLoopFloor(t *testing.T) {
	f := measureFloor(1<<12, 3)
	assert.Greater(t, f, 0.0, "measureFloor = %v ns; want a positive, finite cost per iteration", f) // fails on NaN too, as !(f > 0) did
	assert.False(t, math.IsInf(f, 0), "measureFloor = %v ns; want a positive, finite cost per iteration", f)
}

type registryBench = registry.Bench

func registryBenchmarks() []registry.Bench { return registry.Default().Benchmarks() }

// TestTestingBenchmarkIsNamed: testing.Benchmark's B has no name; its
// record used to be a row named "-2". It is named after the
// function it runs.
func TestTestingBenchmarkIsNamed(t *testing.T) {
	withBenchtime(t, "10x")
	records(t)
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		for b.Loop() {
			sum(xs)
		}
	})
	bs := registryBenchmarks()
	require.Len(t, bs, 1)
	assert.Regexp(t, `^testing\.Benchmark\(benchkit\.TestTestingBenchmarkIsNamed\.func\d+\)(-\d+)?$`, bs[0].Name)
}

// TestAllowRecordsWithoutFailing: under FailOnFlags an allowed kind is
// recorded with its reason and does not fail the benchmark, while the
// other flags still do.
func TestAllowRecordsWithoutFailing(t *testing.T) {
	withBenchtime(t, "100x")
	records(t)
	var failed bool
	testing.Benchmark(func(b *testing.B) {
		Track(b, FailOnFlags(), Allow("setup-cost", "measured on purpose"))
		st, _ := states.Load(b)
		st.(*state).raise(registry.Flag{Kind: registry.FlagSetupCost, Message: "benchkit: x: costly"})
		for b.Loop() {
			sum(xs)
		}
		failed = b.Failed()
	})
	assert.False(t, failed, "an allowed flag failed the benchmark under FailOnFlags")
	fs := flagsRecorded()
	if assert.Len(t, fs, 1) {
		assert.Equal(t, "measured on purpose", fs[0].Allowed)
		assert.False(t, fs[0].Failed)
	}
}

// TestLongRunEstimate: 3 of 87 benchmarks in 40 s project about 19
// minutes, which is said; too early, too short, or done, it is not.
func TestLongRunEstimate(t *testing.T) {
	est, long := longRunEstimate(40*time.Second, 3, 87)
	assert.True(t, long)
	assert.Equal(t, 40*time.Second*87/3, est)
	_, long = longRunEstimate(20*time.Second, 1, 87)
	assert.False(t, long, "under 30 s: too early to tell")
	_, long = longRunEstimate(40*time.Second, 10, 20)
	assert.False(t, long, "80 s in all is not long")
	_, long = longRunEstimate(40*time.Minute, 5, 5)
	assert.False(t, long, "nothing left to run")
	_, long = longRunEstimate(time.Minute, 0, 5)
	assert.False(t, long)
}
