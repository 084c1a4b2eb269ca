package count

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/env"
)

// summary is cachegrind's summary as valgrind 3.19 writes it to its log,
// with the count given.
func summary(pid int, irefs string) string {
	return fmt.Sprintf(`==%[1]d== Cachegrind, a cache and branch-prediction profiler
==%[1]d== Copyright (C) 2002-2017, and GNU GPL'd, by Nicholas Nethercote et al.
==%[1]d== Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info
==%[1]d== Command: ./w.test -test.run=^$ -test.bench=^BenchmarkCompute$ -test.benchtime=2x
==%[1]d== 
==%[1]d== 
==%[1]d== I   refs:      %[2]s
`, pid, irefs)
}

func TestParseIRefs(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int64
	}{
		{"thousands separators", summary(31152, "5,044,983"), 5044983},
		{"billions", summary(7, "1,152,620,654"), 1152620654},
		{"no separators", summary(7, "5044983"), 5044983},
		{"small", summary(7, "983"), 983},
		{"CRLF line ends", strings.ReplaceAll(summary(7, "12,345"), "\n", "\r\n"), 12345},
		{"garbage around it", "garbage\x00\xff\nBenchmarkX 2 3 ns/op\n" + summary(9, "1,000") + "more garbage\n==9== I1  misses: 3\n", 1000},
		{"the same line twice", summary(9, "1,000") + summary(9, "1,000"), 1000},
	} {
		got, err := ParseIRefs(tc.text)
		if assert.NoError(t, err, tc.name) {
			assert.Equal(t, tc.want, got, tc.name)
		}
	}
}

func TestParseIRefsRejects(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"empty", "", "no \"I refs\" line"},
		{"missing line", strings.Split(summary(7, "1,000"), "==7== I")[0], "no \"I refs\" line"},
		{"garbage only", "\x00\x01 I refs? 12\nrefs: 12\n", "no \"I refs\" line"},
		{"bad grouping", summary(7, "1,0000"), "not a whole number"},
		{"trailing comma", summary(7, "1,000,"), "not a whole number"},
		{"decimal point", summary(7, "1.5"), "not a whole number"},
		{"negative", summary(7, "-1,000"), "not a whole number"},
		{"letters", summary(7, "12k"), "not a whole number"},
		{"overflow", summary(7, "99,999,999,999,999,999,999"), "out of range"},
		{"two processes", summary(7, "1,000") + summary(8, "2,000"), "two \"I refs\" lines"},
		{"one process, two counts", summary(7, "1,000") + summary(7, "2,000"), "two \"I refs\" lines"},
	} {
		_, err := ParseIRefs(tc.text)
		if assert.Error(t, err, tc.name) {
			assert.Contains(t, err.Error(), tc.want, tc.name)
		}
	}
}

func TestResultLine(t *testing.T) {
	out := "goos: linux\nBenchmarkCompute/n=1 \t       2\t   3228 ns/op\n" +
		"BenchmarkCompute \t    1002\t      3228 ns/op\t      1957 wait%\t    6400 B/op\t     100 allocs/op\n" +
		"--- BENCH: BenchmarkCompute\n    x_test.go:1: BenchmarkCompute 1002 1 ns/op\nPASS\n"
	b, ok := resultLine(out, "BenchmarkCompute", 1002)
	assert.True(t, ok)
	assert.Equal(t, 6400.0, b)
	b, ok = resultLine("BenchmarkCompute \t 2\t 10 ns/op\n", "BenchmarkCompute", 2)
	assert.True(t, ok)
	assert.Equal(t, -1.0, b, "no -benchmem columns")
	_, ok = resultLine(out, "BenchmarkCompute", 2)
	assert.False(t, ok, "another N")
	_, ok = resultLine("BenchmarkCompute-2 \t 1002\t 10 ns/op\n", "BenchmarkCompute", 1002)
	assert.False(t, ok, "a -procs suffix is another name")
	_, ok = resultLine("--- SKIP: BenchmarkCompute\n", "BenchmarkCompute", 2)
	assert.False(t, ok)
}

func TestPerOp(t *testing.T) {
	// A process executes S + N·I: S = 14,000,000, I = 16,000.
	total := func(n int) int64 { return 14_000_000 + int64(n)*16_000 }
	got, err := PerOp(total(N1), total(62_402), N1, 62_402)
	require.NoError(t, err)
	assert.Equal(t, 16_000.0, got)
	got, err = PerOp(5_044_983, 33_743_821, 2, 1002)
	require.NoError(t, err)
	assert.InDelta(t, 28_698.838, got, 1e-9)

	_, err = PerOp(100, 200, 5, 5)
	assert.ErrorContains(t, err, "more ops")
	_, err = PerOp(total(2), total(2)-1, 2, 3)
	assert.ErrorContains(t, err, "fewer instructions than the processes' noise resolves")
}

func TestFirstEstimate(t *testing.T) {
	assert.Equal(t, 7_000_000.0, FirstEstimate(14_000_000, 2, 0), "t1/n1 bounds I from above")
	assert.Equal(t, 8_000.0, FirstEstimate(14_000_000, 2, 1000), "8 instructions a native ns")
	assert.Equal(t, 7_000_000.0, FirstEstimate(14_000_000, 2, 1e9), "the bound from t1 wins")
	assert.Equal(t, 1.0, FirstEstimate(0, 2, 0), "at least 1")
}

func TestNextK(t *testing.T) {
	k, capped := NextK(16_000, 1_000_000_000, 0, -1, DefaultHeapBytes)
	assert.Equal(t, 62_500, k)
	assert.False(t, capped)

	k, capped = NextK(7_000_000, 1_000_000_000, 0, 0, DefaultHeapBytes)
	assert.Equal(t, 143, k, "⌈1e9 / 7e6⌉")
	assert.False(t, capped)

	k, capped = NextK(10, 1_000_000_000, 46, 0, DefaultHeapBytes)
	assert.Equal(t, 4600, k, "at most 100× the previous k")
	assert.False(t, capped, "the growth per step is no cap: a further step gets closer")

	k, capped = NextK(1000, 1_000_000_000, 0, 1<<20, 1<<30)
	assert.Equal(t, 1024, k, "1 MiB an op within 1 GiB")
	assert.True(t, capped)

	k, capped = NextK(1e12, 1_000_000_000, 0, 0, DefaultHeapBytes)
	assert.Equal(t, 1, k, "at least 1 op")
	assert.False(t, capped)

	k, capped = NextK(1e-3, 1_000_000_000_000, 0, 0, DefaultHeapBytes)
	assert.Equal(t, MaxK, k)
	assert.True(t, capped)

	k, _ = NextK(1000, 1_000_000_000, 0, 8<<30, 1<<30)
	assert.Equal(t, 1, k, "an op allocating more than the limit still runs once")
}

func TestRefine(t *testing.T) {
	assert.Equal(t, 16_000.0, Refine(7e6, 16_000*4500, 4500), "a difference out of the noise gives the estimate")
	assert.Equal(t, 70_000.0, Refine(7e6, 736_000, 46), "within the noise: grow k a hundredfold")
	assert.Equal(t, 1.0, Refine(50, -3, 46))
	assert.True(t, Enough(500_000_000, 1_000_000_000))
	assert.False(t, Enough(499_999_999, 1_000_000_000))
}

func TestResult(t *testing.T) {
	r, err := result(14_000_000, []int64{14_000_000 + 62_500*16_000}, 62_500, "")
	require.NoError(t, err)
	assert.Equal(t, 16_000.0, r.PerOp)
	assert.Equal(t, []float64{16_000}, r.PerOps)
	assert.Equal(t, N1, r.N1)
	assert.Equal(t, N1+62_500, r.N2)
	assert.Equal(t, -1.0, r.SpreadPct, "one process at N2")
	assert.Equal(t, -1.0, r.HalfWidthPct, "one process at N2")
	assert.InDelta(t, 0.04, r.ResolutionPct, 1e-12, "2 × 200,000 over 1e9")

	// Three processes at N2: each one's per-op value against the one
	// at N1, their mean, range and t-interval.
	t1 := int64(14_050_000)
	t2s := []int64{t1 + 1_000_000_000, t1 + 1_001_000_000, t1 + 999_000_000}
	r, err = result(t1, t2s, 62_500, "")
	require.NoError(t, err)
	assert.Equal(t, t1, r.Total1)
	assert.Equal(t, t1+1_000_000_000, r.Total2, "the median")
	assert.Equal(t, []float64{16_000, 16_016, 15_984}, r.PerOps)
	assert.Equal(t, 16_000.0, r.PerOp)
	assert.InDelta(t, 0.2, r.SpreadPct, 1e-9, "2,000,000 instructions over 1e9")
	// sd 16, t(0.975, 2 df) = 4.3027: 4.3027 × 16/√3 over 16,000.
	assert.InDelta(t, 100*4.302653*16/math.Sqrt(3)/16_000, r.HalfWidthPct, 1e-5)

	same, err := result(t1, []int64{t1 + 1_000_000_000, t1 + 1_000_000_000}, 62_500, "")
	require.NoError(t, err)
	assert.Equal(t, 0.0, same.HalfWidthPct, "identical processes: a zero-width interval")

	assert.Equal(t, int64(2), medianInt([]int64{3, 1, 2, 4}), "the lower middle value of an even count")

	_, err = result(100, []int64{99}, 10, "")
	assert.Equal(t, ReasonNoCount, ReasonOf(err))
	_, err = result(100, []int64{1100, 99}, 10, "")
	assert.Equal(t, ReasonNoCount, ReasonOf(err), "any process below the one at N1")
}

func TestFindMissing(t *testing.T) {
	if checkPlatform(runtime.GOOS, runtime.GOARCH) != nil {
		t.Skip("valgrind has no port for this platform; TestCheckPlatform covers its message")
	}
	t.Setenv("PATH", t.TempDir())
	_, err := Find()
	require.Error(t, err)
	assert.Equal(t, ReasonMissing, ReasonOf(err))
	for _, want := range []string{"no valgrind on PATH", "apt-get install valgrind", "brew install valgrind"} {
		assert.Contains(t, err.Error(), want)
	}
}

func TestCheckPlatform(t *testing.T) {
	assert.NoError(t, checkPlatform("linux", "amd64"))
	assert.NoError(t, checkPlatform("linux", "arm64"))
	for _, p := range [][2]string{{"darwin", "arm64"}, {"windows", "amd64"}, {"linux", "riscv64"}, {"openbsd", "amd64"}} {
		err := checkPlatform(p[0], p[1])
		require.Error(t, err, p)
		assert.Equal(t, ReasonPlatform, ReasonOf(err))
		assert.Contains(t, err.Error(), "not on "+p[0]+"/"+p[1])
		assert.Contains(t, err.Error(), "count on a Linux machine")
	}
}

func TestShadowFlag(t *testing.T) {
	assert.Equal(t, "", shadowFlag([]debug.BuildSetting{{Key: "-compiler", Value: "gc"}, {Key: "CGO_ENABLED", Value: "1"}}))
	assert.Equal(t, "-race", shadowFlag([]debug.BuildSetting{{Key: "-race", Value: "true"}}))
	assert.Equal(t, "", shadowFlag([]debug.BuildSetting{{Key: "-race", Value: "false"}}))
	assert.Equal(t, "-asan", shadowFlag([]debug.BuildSetting{{Key: "-asan", Value: "true"}}))
}

func TestDiagnose(t *testing.T) {
	log := "==5== vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0x7D 0x48\n==5== valgrind: Unrecognised instruction at address 0x4a1b2c.\n"
	d := diagnose(log, "")
	assert.Contains(t, d, "valgrind cannot decode an instruction the process executes, bytes 62 F1 7D 48:")
	assert.Contains(t, d, "a GODEBUG=cpu.<feature>=off setting for the run")
	assert.Contains(t, d, "count on a newer valgrind")
	assert.Equal(t, "", diagnose(summary(5, "1,000"), "PASS\n"))
	assert.Equal(t, "valgrind crashed: count on a newer valgrind", diagnose("==5== the 'impossible' happened\n", ""))

	// RDTSCP, which valgrind 3.19 claims on CPUs without it.
	log = "==7== vex amd64->IR: unhandled instruction bytes: 0xF 0x1 0xF9 0x48 0xC1 0xE2 0x20 0x48 0x1 0xD0 0x48 0x89\n"
	d = diagnose(log, "SIGILL: illegal instruction\n")
	assert.Contains(t, d, "valgrind cannot decode an instruction the process executes (RDTSCP), bytes 0F 01 F9 48 C1 E2 20 48 01 D0:", "the first 10 bytes")
	assert.Contains(t, d, "GODEBUG=cpu.rdtscp=off for the run may avoid it")
	assert.NotContains(t, d, "cpu.<feature>")

	// Only the Go runtime's report of the signal.
	out := "SIGILL: illegal instruction\nPC=0x494769 m=1 sigcode=1\ninstruction bytes: 0xf 0x1 0xf9 0x48 0xc1\n\ngoroutine 0 gp=0x1 m=1 [idle]:\n"
	d = diagnose("", out)
	assert.Contains(t, d, "the process died of SIGILL (an illegal instruction) under valgrind (RDTSCP), bytes 0F 01 F9 48 C1:")
	assert.Contains(t, d, "GODEBUG=cpu.rdtscp=off")
}

func TestProcessEnv(t *testing.T) {
	t.Setenv("GODEBUG", "")
	env := processEnv([]string{"A=1", "GODEBUG=madvdontneed=1"}, "BenchmarkX", "/tmp/r.json", t.TempDir(), nil)
	assert.Equal(t, "A=1", env[0], "the caller's entries come first")
	assert.Contains(t, env, "GODEBUG=madvdontneed=1,asyncpreemptoff=1,memprofilerate=0", "the caller's GODEBUG, then the count's: later settings win")
	for _, want := range []string{"GOMAXPROCS=1", "GOGC=off", "GOMEMLIMIT=off", "BENCHKIT_WARMUP=off", "BENCHKIT_COUNT=off", "BENCHKIT_CHILD_TARGET=BenchmarkX"} {
		assert.Contains(t, env, want)
	}
	assert.Contains(t, processEnv(nil, "BenchmarkX", "/tmp/r.json", t.TempDir(), nil), "GODEBUG=asyncpreemptoff=1,memprofilerate=0")
	off := []string{"cpu.rdtscp=off", "cpu.sha=off"}
	assert.Contains(t, processEnv(nil, "BenchmarkX", "/tmp/r.json", t.TempDir(), off), "GODEBUG=cpu.rdtscp=off,cpu.sha=off,asyncpreemptoff=1,memprofilerate=0")
	t.Setenv("GODEBUG", "cpu.avx2=off")
	assert.Contains(t, processEnv(nil, "BenchmarkX", "/tmp/r.json", t.TempDir(), off), "GODEBUG=cpu.avx2=off,cpu.rdtscp=off,cpu.sha=off,asyncpreemptoff=1,memprofilerate=0",
		"this process's GODEBUG first")
	assert.Equal(t, []string{"cpu.rdtscp=off", "cpu.sha=off"}, off, "the caller's slice is not written")
}

func TestCPUOff(t *testing.T) {
	assert.Nil(t, cpuOff(nil), "no build information")
	arm := &debug.BuildInfo{GoVersion: "go1.26.8", Settings: []debug.BuildSetting{{Key: "GOARCH", Value: "arm64"}}}
	assert.Nil(t, cpuOff(arm), "no CPUID options off x86")
	old := &debug.BuildInfo{GoVersion: "go1.23.0", Settings: []debug.BuildSetting{{Key: "GOARCH", Value: "amd64"}, {Key: "GOAMD64", Value: "v1"}}}
	assert.Nil(t, cpuOff(old), "a release whose options are not known")
	if runtime.GOARCH == "amd64" {
		bi, ok := debug.ReadBuildInfo()
		require.True(t, ok)
		level := "v1"
		for _, s := range bi.Settings {
			if s.Key == "GOAMD64" {
				level = s.Value
			}
		}
		got := cpuOff(bi)
		assert.Equal(t, env.CPUOff(runtime.Version(), level), got, "this binary's release and level")
		t.Logf("GODEBUG for this binary here: %s", strings.Join(got, ","))
	}
}

func TestDeadline(t *testing.T) {
	c := &counter{lim: withDefaults(Limits{}), start: time.Now()}
	d, err := c.deadline(0, 0)
	require.NoError(t, err)
	assert.Equal(t, firstDeadline, d, "nothing is known of the first process")
	d, err = c.deadline(5e6, 0)
	require.NoError(t, err)
	assert.Equal(t, baseDeadline+4*time.Second, d, "four times the expected instructions at the slowest assumed rate")
	c.rate = 500e6
	d, err = c.deadline(1e9, 0)
	require.NoError(t, err)
	assert.Equal(t, baseDeadline+8*time.Second, d)
	d, err = c.deadline(1e9, 30*time.Second)
	require.NoError(t, err)
	assert.Equal(t, baseDeadline+2*time.Minute, d, "four times the expected wall time when it is longer")

	c.lim.Timeout = time.Second
	d, err = c.deadline(1e12, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, time.Second, d, "Limits.Timeout when set")

	c.start = time.Now().Add(-c.lim.Total - time.Second)
	_, err = c.deadline(1, 0)
	assert.Equal(t, ReasonDeadline, ReasonOf(err))
	assert.ErrorContains(t, err, "passed its limit")
}

func TestWallPerOp(t *testing.T) {
	first := Run{N: N1, Wall: 1300 * time.Millisecond}
	assert.Equal(t, opWall{perOp: 4500 * time.Microsecond}, firstWallPerOp(first, 4.5e6), "the native ns/op")
	assert.Equal(t, opWall{perOp: 650 * time.Millisecond}, firstWallPerOp(first, 0), "without it, the first process over its N1 ops: a bound")
	w1, bound := 1500*time.Millisecond, 30*time.Second
	assert.Equal(t, opWall{perOp: 40 * time.Millisecond, measured: true}, wallPerOp(8*time.Second, w1, 200, bound), "a difference beyond the first's wall time and a tenth of the bound")
	assert.Equal(t, opWall{perOp: 15 * time.Millisecond}, wallPerOp(690*time.Millisecond, w1, 46, bound),
		"a difference within what the load can make of the first's wall time estimates, not measures")
	assert.Equal(t, opWall{perOp: time.Millisecond}, wallPerOp(2*time.Second, w1, 2000, bound), "below a tenth of the bound: not measured")
	assert.Equal(t, opWall{perOp: wallNoise / 100}, wallPerOp(50*time.Millisecond, w1, 100, bound), "a difference in the noise bounds it")
	assert.Equal(t, opWall{perOp: wallNoise / 100}, wallPerOp(-time.Second, w1, 100, bound), "a negative one too")
	assert.Equal(t, opWall{}, wallPerOp(time.Second, w1, 0, bound))

	assert.Equal(t, 750, WallK(30*time.Second, 40*time.Millisecond))
	assert.Equal(t, 1, WallK(time.Second, time.Minute), "at least one op")
	assert.Equal(t, MaxK, WallK(time.Second, 0), "nothing known")
	assert.Equal(t, MaxK, WallK(time.Hour, time.Nanosecond))
}

func TestPlan(t *testing.T) {
	c := &counter{lim: withDefaults(Limits{})}
	k, capped, final := c.plan(1e5, 0, -1, opWall{perOp: 4500 * time.Microsecond})
	assert.Equal(t, 6666, k, "a native 4.5 ms/op fills the 30 s bound at 6666 ops, below the budget's 10000")
	assert.Contains(t, capped, "6666 ops fill the 30s a process's ops may take")
	assert.False(t, final, "an estimate not yet measured under valgrind may grow")

	k, capped, final = c.plan(58e3, 200, -1, opWall{perOp: 40 * time.Millisecond, measured: true})
	assert.Equal(t, 750, k)
	assert.Contains(t, capped, "at about 40ms an op under valgrind, 750 ops fill the 30s")
	assert.True(t, final, "a measured op time holds")

	k, capped, final = c.plan(4000, 2200, -1, opWall{perOp: wallNoise / 2200})
	assert.Equal(t, 220000, k, "the growth per step holds k, not the wall time of ops lost in the noise")
	assert.Empty(t, capped)
	assert.False(t, final)

	k, capped, final = c.plan(4000, 0, 1<<20, opWall{})
	assert.Equal(t, 1024, k)
	assert.Contains(t, capped, "heap limit")
	assert.True(t, final)
}

func TestErrorMessage(t *testing.T) {
	inner := errors.New("exit status 1")
	err := error(&Error{Reason: ReasonFailed, Benchmark: "BenchmarkX", Message: "it failed", Output: "panic: boom\n", Err: inner})
	assert.Equal(t, "count: BenchmarkX: it failed; its output:\npanic: boom\n", err.Error())
	assert.ErrorIs(t, err, inner)
	assert.Equal(t, ReasonFailed, ReasonOf(fmt.Errorf("wrapped: %w", err)))
	assert.Equal(t, Reason(""), ReasonOf(inner))
}

func TestValgrindPath(t *testing.T) {
	assert.Equal(t, "/proc/42/exe", valgrindPath("/proc/self/exe", 42), "valgrind's own /proc/self/exe is valgrind")
	assert.Equal(t, "/tmp/base.test", valgrindPath("/tmp/base.test", 42))
}

func TestLogExcerpt(t *testing.T) {
	log := `==6342== Cachegrind, a cache and branch-prediction profiler
==6342== Copyright (C) 2002-2017, and GNU GPL'd, by Nicholas Nethercote et al.
==6342== Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info
==6342== Command: /proc/6322/exe -test.run=^$
==6342== Parent PID: 6322
==6342== 
--6342-- warning: L3 cache found, using its data for the LL simulation.
--6342-- warning: simulated LL cache: line_size 64  assoc 1  total_size 268,435,456
==6342== 
==6342== Process terminating with default action of signal 4 (SIGILL)
==6342== I   refs:      5,121,452
`
	assert.Equal(t, "==6342== Process terminating with default action of signal 4 (SIGILL)\n", logExcerpt(log))
	assert.Equal(t, "garbage\n", logExcerpt("garbage\n"), "no banner: every line")
}

func TestReproduce(t *testing.T) {
	c := &counter{t: Target{Benchmark: "BenchmarkX/n=1"}, command: command("/proc/self/exe")}
	assert.Equal(t, "`go test -run='^$' -bench='^BenchmarkX$/^n=1$' -benchtime=2x`", c.reproduce(2))
	c.command = command("/tmp/base.test")
	assert.Equal(t, "`/tmp/base.test -test.run='^$' -test.bench='^BenchmarkX$/^n=1$' -test.benchtime=2x`", c.reproduce(2))
}

func TestCompare(t *testing.T) {
	base := Result{PerOp: 16_000, ResolutionPct: 0.04, HalfWidthPct: -1}
	same := Result{PerOp: 16_002, ResolutionPct: 0.04, HalfWidthPct: -1}
	c := Compare(base, same)
	assert.InDelta(t, 0.0125, c.DeltaPct, 1e-9)
	assert.Equal(t, MinTolerancePct, c.TolerancePct)
	assert.False(t, c.Changed, "0.0125% is noise")
	assert.False(t, c.SpreadBound)

	plus1 := Result{PerOp: 16_150, ResolutionPct: 0.04, HalfWidthPct: -1}
	c = Compare(base, plus1)
	assert.True(t, c.Changed)
	assert.InDelta(t, 0.9375, c.DeltaPct, 1e-9)

	coarse := Result{PerOp: 16_150, ResolutionPct: 0.6, HalfWidthPct: 0.3}
	c = Compare(Result{PerOp: 16_000, ResolutionPct: 0.5, HalfWidthPct: 0.2}, coarse)
	assert.InDelta(t, 1.1, c.TolerancePct, 1e-12, "the resolutions add up")
	assert.False(t, c.Changed)
	assert.False(t, c.SpreadBound, "more processes would not narrow the resolutions")

	seeded := Result{PerOp: 16_150, ResolutionPct: 0.04, HalfWidthPct: 0.7}
	c = Compare(Result{PerOp: 16_000, ResolutionPct: 0.04, HalfWidthPct: 0.5}, seeded)
	assert.InDelta(t, 1.2, c.TolerancePct, 1e-12, "the two intervals' half-widths add up")
	assert.False(t, c.Changed, "the intervals overlap")
	assert.True(t, c.SpreadBound)

	minus := Compare(plus1, base)
	assert.True(t, minus.Changed)
	assert.Less(t, minus.DeltaPct, 0.0)

	none := Compare(Result{}, base)
	assert.True(t, math.IsNaN(none.DeltaPct))
	assert.False(t, none.Changed, "no base count, no change")
}

// seededCounter stands in for Instructions: a count whose processes at
// N2 read perOp plus the next of the offsets, in percent, one per
// process, as a map's hash seed moves them.
type seededCounter struct {
	perOp   map[string]float64
	offsets []float64
	calls   []Limits
	fail    map[int]error // by call, from 0
}

func (s *seededCounter) count(t Target, lim Limits) (Result, error) {
	s.calls = append(s.calls, lim)
	if err := s.fail[len(s.calls)-1]; err != nil {
		return Result{}, err
	}
	var perOps []float64
	if lim.From != nil {
		perOps = slices.Clone(lim.From.PerOps)
	}
	for len(perOps) < max(lim.Repeats, DefaultRepeats) {
		off := s.offsets[0]
		s.offsets = append(s.offsets[1:], off)
		perOps = append(perOps, s.perOp[t.Binary]*(1+off/100))
	}
	const k, t1 = 100_000, int64(20_000_000)
	t2s := make([]int64, len(perOps))
	for i, p := range perOps {
		t2s[i] = t1 + int64(math.Round(p*k))
	}
	r, err := result(t1, t2s, k, "")
	r.Benchmark = t.Benchmark
	return r, err
}

func TestPair(t *testing.T) {
	base, plus1 := Target{Binary: "base", Benchmark: "BenchmarkX"}, Target{Binary: "plus1", Benchmark: "BenchmarkX"}

	// Code counted the same in every process decides with the default
	// processes.
	exact := &seededCounter{perOp: map[string]float64{"base": 16_000, "plus1": 16_160}, offsets: []float64{0, 0.01, -0.01}}
	p := Pair(exact.count, base, plus1, Limits{}, Limits{NsPerOp: 2000})
	require.NoError(t, p.BaseErr)
	require.NoError(t, p.NewErr)
	assert.True(t, p.Change.Changed)
	assert.InDelta(t, 1.0, p.Change.DeltaPct, 0.05)
	assert.Len(t, exact.calls, 2, "no process more")
	assert.Len(t, p.Base.PerOps, DefaultRepeats)
	assert.Equal(t, 2000.0, exact.calls[1].NsPerOp, "each side its own limits")

	// Identical code whose count moves ±0.6% from process to process
	// (the hash seed): the two processes' intervals are wide, so the pair
	// runs more, and never calls the 0.5% between the sides' first
	// processes a change.
	seeded := &seededCounter{perOp: map[string]float64{"base": 32_000, "plus1": 32_000}, offsets: []float64{-0.3, 0.3, 0.6, -0.6, 0.1, -0.1}}
	p = Pair(seeded.count, base, base, Limits{}, Limits{})
	assert.False(t, p.Change.Changed, "identical code: Δ %+.2f%%, tolerance %.2f%%", p.Change.DeltaPct, p.Change.TolerancePct)
	assert.Len(t, p.Base.PerOps, MaxRepeats, "the spread bounds the tolerance: up to MaxRepeats")
	assert.Len(t, p.New.PerOps, MaxRepeats)
	for _, lim := range seeded.calls[2:] {
		require.NotNil(t, lim.From, "a further process continues the count")
		assert.Equal(t, len(lim.From.PerOps)+1, lim.Repeats)
	}

	// +5% of seed-dependent work stands out of the spread.
	seeded = &seededCounter{perOp: map[string]float64{"base": 32_000, "plus1": 33_600}, offsets: []float64{-0.3, 0.3, 0.6, -0.6, 0.1, -0.1}}
	p = Pair(seeded.count, base, plus1, Limits{}, Limits{})
	assert.True(t, p.Change.Changed)
	assert.InDelta(t, 5.0, p.Change.DeltaPct, 0.7)

	// A side that fails ends the pair with its error, even a further
	// process of a count that worked.
	boom := errors.New("valgrind died")
	failing := &seededCounter{perOp: map[string]float64{"base": 32_000}, offsets: []float64{-0.6, 0.6}, fail: map[int]error{2: boom}}
	p = Pair(failing.count, base, base, Limits{}, Limits{})
	assert.ErrorIs(t, p.BaseErr, boom)
	assert.False(t, p.Change.Changed)
	assert.True(t, math.IsNaN(p.Change.DeltaPct))

	failing = &seededCounter{perOp: map[string]float64{"plus1": 16_000}, offsets: []float64{0}, fail: map[int]error{0: boom}}
	p = Pair(failing.count, base, plus1, Limits{}, Limits{})
	assert.ErrorIs(t, p.BaseErr, boom)
	assert.NoError(t, p.NewErr, "the new side is counted all the same")
	assert.Len(t, failing.calls, 2, "and no further process runs")
}

func TestValgrindArgs(t *testing.T) {
	assert.Equal(t, []string{"--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", "--log-file=/tmp/100%%/v.log"},
		valgrindArgs("/tmp/100%/v.log"), "valgrind expands %p and %q{...} in --log-file")
	assert.Equal(t, []string{"-test.run=^$", "-test.bench=^BenchmarkX$/^n=1$", "-test.count=1", "-test.cpu=1", "-test.benchmem=true", "-test.benchtime=1002x", "-test.short=true"},
		testArgs(Target{Benchmark: "BenchmarkX/n=1", Args: []string{"-test.short=true"}}, 1002))
}

func TestChildrenNote(t *testing.T) {
	run := func(n int, faults int64, cpu time.Duration) Run { return Run{N: n, ChildFaults: faults, ChildCPU: cpu} }
	assert.Empty(t, childrenNote([]Run{run(2, 0, 0), run(1002, 0, 0), run(1002, 0, 0)}, 2, 1002), "none started")
	assert.Empty(t, childrenNote([]Run{run(2, -1, 0), run(1002, 500, 0)}, 2, 1002), "a process that did not say: cannot tell")
	assert.Empty(t, childrenNote([]Run{run(2, 100, 0), run(1002, -1, 0)}, 2, 1002))
	assert.Empty(t, childrenNote([]Run{run(2, 100, 0)}, 2, 1002), "no process at N2")

	perOp := childrenNote([]Run{run(2, 1751, 49*time.Millisecond), run(52, 40000, time.Second), run(156, 135527, 4038*time.Millisecond), run(156, 135000, 4*time.Second)}, 2, 156)
	assert.Equal(t, "the benchmark starts processes as it runs (1751 minor page faults and 49ms of CPU at N = 2, 135000 and 4s at N = 156): "+
		"their instructions are not in the count", perOp, "the fewest at N2; the search's process at 52 is not one")
	assert.Contains(t, childrenNote([]Run{run(2, 0, 0), run(100002, 900, 0)}, 2, 100002), "starts processes as it runs", "none at N1, some at N2")
	assert.Contains(t, childrenNote([]Run{run(2, 1700, 0), run(3, 2550, 0)}, 2, 3), "starts processes as it runs", "one op more: half again")

	once := childrenNote([]Run{run(2, 876, 35*time.Millisecond), run(125002, 872, 24*time.Millisecond), run(125002, 880, 0)}, 2, 125002)
	assert.Contains(t, once, "the benchmark started processes (876 minor page faults and 35ms of CPU at N = 2, 872 and 24ms at N = 125002; not growing with N")
	assert.Contains(t, childrenNote([]Run{run(2, 1700, 0), run(3, 1800, 0)}, 2, 3), "not growing with N", "less than half of what one op more would add")
}

func TestWriteChildren(t *testing.T) {
	path := filepath.Join(t.TempDir(), "children.json")
	t.Setenv(EnvChildren, path)
	t.Setenv(child.EnvResult, "")
	require.NoError(t, WriteChildren())
	_, err := os.Stat(path)
	assert.True(t, os.IsNotExist(err), "not a child: nothing written")

	t.Setenv(child.EnvResult, filepath.Join(t.TempDir(), "result.json"))
	t.Setenv(child.EnvParent, strconv.Itoa(os.Getppid()))
	require.NoError(t, WriteChildren())
	c, ok := readChildren(path)
	if runtime.GOOS == "linux" || runtime.GOOS == "freebsd" {
		require.True(t, ok, "written in a child")
		assert.GreaterOrEqual(t, c.MinorFaults, int64(0))
	} else {
		assert.False(t, ok, "no getrusage here")
	}

	t.Setenv(EnvChildren, filepath.Join(t.TempDir(), "missing", "children.json"))
	err = WriteChildren()
	if ok {
		assert.ErrorContains(t, err, "benchkit: count: cannot write the resource use of the processes this one started")
	}

	_, ok = readChildren(filepath.Join(t.TempDir(), "none.json"))
	assert.False(t, ok, "a process that wrote nothing")
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"minor_faults":-3}`), 0o600))
	_, ok = readChildren(bad)
	assert.False(t, ok)
}
