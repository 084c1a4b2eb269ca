package control

import (
	"flag"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{"alpha", ""},
		{"v1.2_fast", ""},
		{"x-y", ""},
		{"x-2a", ""},
		{"", "empty"},
		{"a b", "whitespace"},
		{"a\tb", "whitespace"},
		{"a/b", "'/'"},
		{"a#01", "'#'"},
		{"control", "reserved"},
		{"copy-2", "-<digits>"},
		{"v-10", "-<digits>"},
		{"a\x00b", "control character"},
		{"a\x1bb", "control character"},
		{"a\x7f", "control character"},
		{"new\u0085", "whitespace"},
	} {
		got := checkName(tc.name)
		if tc.want == "" {
			assert.Empty(t, got, "%q", tc.name)
		} else {
			assert.Contains(t, got, tc.want, "%q", tc.name)
		}
	}
}

func TestValidate(t *testing.T) {
	f := func() int { return 1 }
	ok := Func("a", f)
	tests := []struct {
		name  string
		base  Impl
		cands []Impl
		want  string
	}{
		{"nil func", ok, []Impl{Func[int]("b", nil)}, `candidate 1 ("b") has a nil function`},
		{"zero impl", Impl{}, nil, "the baseline is the zero Impl: build implementations with control.Func"},
		{"duplicate", ok, []Impl{Func("b", f), Func("a", f)}, `implementations 0 and 2 are both named "a"`},
		{"empty", ok, []Impl{Func("", f)}, `candidate 1 has the invalid name "": the name is empty`},
		{"whitespace", Func(" a", f), nil, `the baseline has the invalid name " a"`},
		{"digits suffix", ok, []Impl{Func("b-2", f)}, "GOMAXPROCS suffix"},
		{"reserved", ok, []Impl{Func("control", f)}, "reserved"},
		{"NUL", ok, []Impl{Func("a\x00b", f)}, `candidate 1 has the invalid name "a\x00b": the name contains the control character '\x00'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := validate(tt.base, tt.cands)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "control: "))
		})
	}
	got, err := validate(ok, []Impl{Func("b", f)})
	require.NoError(t, err)
	names := []string{got[0].Name(), got[1].Name(), got[2].Name()}
	assert.Equal(t, []string{"a", "control", "b"}, names, "the control copy follows the baseline")
}

// TestCheckUnits: a name whose metric unit is one of Compare's own
// (closure-ns/op) is rejected with the fix; ordinary names, and names that
// only resemble Compare's units, pass.
func TestCheckUnits(t *testing.T) {
	f := func() int { return 1 }
	tests := []struct {
		name  string
		base  Impl
		cands []Impl
		want  string // "" = accepted
	}{
		{"ordinary", Func("old", f), []Impl{Func("new", f)}, ""},
		{"rounds and ns", Func("rounds", f), []Impl{Func("ns", f), Func("B", f), Func("allocs", f)}, ""},
		{"candidate closure", Func("old", f), []Impl{Func("closure", f)}, `candidate 1 ("closure") reports its time as "closure-ns/op", the unit of Compare's own closure-call overhead: rename the implementation`},
		{"baseline closure", Func("closure", f), []Impl{Func("new", f)}, `the baseline ("closure") reports its time as "closure-ns/op"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			impls, err := validate(tt.base, tt.cands)
			require.NoError(t, err, "validate accepts the names; the units are checked after")
			err = checkUnits(impls)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "control: "))
		})
	}
}

// setBenchtime sets -test.benchtime for one test.
func setBenchtime(t *testing.T, v string) {
	t.Helper()
	f := flag.Lookup("test.benchtime")
	require.NotNil(t, f)
	old := f.Value.String()
	require.NoError(t, flag.Set("test.benchtime", v))
	t.Cleanup(func() { _ = flag.Set("test.benchtime", old) })
}

// TestCompareInProcess runs Compare through testing.Benchmark and checks
// the structure of what it reports: metrics present and finite, the
// registry record, a Result that matches the metrics. No timing is
// asserted.
func TestCompareInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark")
	}
	setBenchtime(t, "300ms") // b.N stays 1; 600ms survives a stall on a loaded machine
	registry.Default().Reset()
	t.Cleanup(registry.Default().Reset)
	xs := make([]uint64, 200)
	sum := func(n int) func() uint64 {
		return func() uint64 {
			var s uint64
			for _, x := range xs[:n] {
				s += x
			}
			return s
		}
	}
	var res verdict.Result
	br := testing.Benchmark(func(b *testing.B) {
		res = With(Seed(3)).Compare(b, Func("short", sum(100)), Func("long", sum(200)))
	})
	require.Equal(t, 1, br.N, "Compare runs its rounds in one b.Loop iteration")
	for _, unit := range []string{"ns/op", "short-ns/op", "long-ns/op", "long/short-%", "control/short-%", "closure-ns/op", "rounds"} {
		v, ok := br.Extra[unit]
		require.True(t, ok, "metric %s missing from %v", unit, br.Extra)
		assert.False(t, math.IsNaN(v) || math.IsInf(v, 0), "%s = %v", unit, v)
	}
	assert.Equal(t, float64(res.Rounds), br.Extra["rounds"])
	assert.InDelta(t, 100+res.Candidates[0].DeltaPct, br.Extra["long/short-%"], 1e-9)
	assert.InDelta(t, 100+res.Control.DeltaPct, br.Extra["control/short-%"], 1e-9)
	assert.Equal(t, res.BaselineNsPerOp, br.Extra["ns/op"])
	assert.Greater(t, res.Rounds, 0)
	assert.Equal(t, uint64(3), res.Seed)
	assert.InDelta(t, float64(600*time.Millisecond), res.BudgetNs, 1, "budget = benchtime × max(2, 1+1)")

	benches := registry.Default().Benchmarks()
	require.Len(t, benches, 1)
	require.Len(t, benches[0].Comparisons, 1)
	c := benches[0].Comparisons[0]
	assert.Equal(t, "short", c.Baseline)
	assert.Equal(t, "control", c.Control.Name)
	require.Len(t, c.Candidates, 1)
	assert.Equal(t, "long", c.Candidates[0].Name)
	assert.Equal(t, verdict.Verdict(res.Candidates[0].Verdict), c.Candidates[0].Verdict)
}

// TestCompareOneX: under -benchtime=1x Compare runs one round, reports an
// undecided verdict that says why, and does not fail.
func TestCompareOneX(t *testing.T) {
	setBenchtime(t, "1x")
	var res verdict.Result
	br := testing.Benchmark(func(b *testing.B) {
		res = Compare(b, Func("a", func() int { return 1 }), Func("b", func() int { return 2 }))
	})
	assert.Equal(t, 1, res.Rounds)
	assert.Equal(t, verdict.Undecided, res.Candidates[0].Verdict)
	assert.Contains(t, res.Candidates[0].Reason, "only 1 round:")
	assert.Equal(t, 1.0, br.Extra["rounds"])
}

// TestCompareSetBytes: with b.SetBytes, testing would divide the bytes by
// the whole comparison's time (b.N is 1) and print a tiny MB/s. Compare
// reports the baseline's throughput as MB/s, from its median ns/op, and
// each implementation's as <name>-MB/s. No timing is asserted: the
// metrics must agree with the Result's times.
func TestCompareSetBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark")
	}
	setBenchtime(t, "50x") // 50 rounds within 1s per implementation: no load can stop it before a round
	registry.Default().Reset()
	t.Cleanup(registry.Default().Reset)
	xs := make([]byte, 4096)
	sum := func(n int) func() int {
		return func() int {
			s := 0
			for _, x := range xs[:n] {
				s += int(x)
			}
			return s
		}
	}
	var res verdict.Result
	br := testing.Benchmark(func(b *testing.B) {
		b.SetBytes(2048)
		res = With(Seed(3)).Compare(b, Func("short", sum(2048)), Func("long", sum(4096)))
	})
	require.Positive(t, res.BaselineNsPerOp)
	want := 2048 / res.BaselineNsPerOp * 1e3 // bytes/ns → MB/s
	assert.InEpsilon(t, want, br.Extra["MB/s"], 1e-9, "MB/s is the baseline's throughput")
	assert.InEpsilon(t, want, br.Extra["short-MB/s"], 1e-9)
	assert.InEpsilon(t, 2048/res.Candidates[0].NsPerOp*1e3, br.Extra["long-MB/s"], 1e-9)
	assert.Contains(t, br.String(), "MB/s")
	assert.InEpsilon(t, want, mbPerSec(t, br.String()), 0.01, "go test's line shows the baseline's throughput, not bytes over the whole comparison")
}

// mbPerSec returns the MB/s value printed on a benchmark result line.
func mbPerSec(t *testing.T, line string) float64 {
	t.Helper()
	f := strings.Fields(line)
	for i := 1; i < len(f); i++ {
		if f[i] == "MB/s" {
			v, err := strconv.ParseFloat(f[i-1], 64)
			require.NoError(t, err)
			return v
		}
	}
	require.FailNow(t, "no MB/s", line)
	return 0
}

// TestFinishOverheadAboveTime: a closure overhead no smaller than the
// baseline's time gets its own warning, not a percentage over
// 100 and a correction formula that no longer means anything.
func TestFinishOverheadAboveTime(t *testing.T) {
	res := finish(verdict.Result{Baseline: "tiny", BaselineNsPerOp: 2}, measurement{overhead: 3}, time.Second)
	require.Len(t, res.Warnings, 1)
	assert.Contains(t, res.Warnings[0], "the closure call alone measured 3 ns, no less than tiny's 2 ns/op")
	res = finish(verdict.Result{Baseline: "small", BaselineNsPerOp: 10}, measurement{overhead: 3}, time.Second)
	require.Len(t, res.Warnings, 1)
	assert.Contains(t, res.Warnings[0], "the closure call costs 3 ns, 30% of small's 10 ns/op")
}

// TestImplementationPanicFails: an implementation's panic fails the
// benchmark through b.Fatal on its own goroutine (testing.Benchmark then
// returns a zero result) instead of a re-raised panic, which testing can
// lose; any other panic is re-raised as it was.
func TestImplementationPanicFails(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark")
	}
	setBenchtime(t, "20ms")
	var r testing.BenchmarkResult
	assert.NotPanics(t, func() {
		r = testing.Benchmark(func(b *testing.B) {
			With(Forks(1)).Compare(b, Func("a", func() int { return 1 }), Func("boom", func() int {
				panic("boom")
			}))
		})
	})
	assert.Zero(t, r.N, "the benchmark failed")

	assert.PanicsWithValue(t, "other", func() {
		func() {
			defer failOnPanic(nil) // b is not touched for a foreign panic
			panic("other")
		}()
	})
	p := implPanic{"control: implementation \"x\" panicked: y"}
	assert.Equal(t, p.msg, p.Error(), "an escaped implPanic prints its message")
}

func TestFewerForks(t *testing.T) {
	ms := time.Millisecond
	assert.Equal(t, 4, fewerForks(1600*ms, 226*ms), "shares of 400ms hold 1.5 needs")
	assert.Equal(t, 2, fewerForks(1600*ms, 530*ms))
	assert.Equal(t, 1, fewerForks(600*ms, 233*ms), "no two shares of 1.5 needs: one process")
	assert.Equal(t, 1, fewerForks(time.Second, 2*time.Second), "a need beyond the budget")
}
