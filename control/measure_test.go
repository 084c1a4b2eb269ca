package control

import (
	"github.com/benchkit/go-benchkit/control/verdict"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is a clock that only moves when a fake implementation runs,
// so the measuring layer can be tested without timing anything.
type fakeClock struct {
	t     time.Time
	rng   *rand.Rand
	noise float64 // relative per-batch noise
	calls []string
}

func newFakeClock(noise float64) *fakeClock {
	return &fakeClock{t: time.Unix(0, 0), rng: rand.New(rand.NewPCG(1, 2)), noise: noise}
}

func (c *fakeClock) now() time.Time { return c.t }

// impl returns an Impl whose batch of n calls advances the clock by
// n·cost·(1 ± noise), plus a fixed 100ns per batch for the clock reads.
func (c *fakeClock) impl(name string, cost time.Duration) Impl {
	run := func(n int) {
		c.calls = append(c.calls, name)
		f := 1 + c.noise*(2*c.rng.Float64()-1)
		c.t = c.t.Add(time.Duration(float64(n)*float64(cost)*f) + 100)
	}
	return Impl{name: name, run: run, empty: func(n int) { c.t = c.t.Add(time.Duration(n) * 2) }}
}

func fakeConfig(c *fakeClock) config {
	cfg := buildConfig(nil)
	cfg.now = c.now
	cfg.seed = 42
	return cfg
}

func TestMeasureFakeClock(t *testing.T) {
	c := newFakeClock(0.01)
	impls, err := validate(c.impl("base", 1000), []Impl{c.impl("cand", 1050)})
	require.NoError(t, err)
	budget := 200 * time.Millisecond
	ms := measure(impls, budget, 1<<30, fakeConfig(c))
	require.Empty(t, ms.stopped)
	require.Len(t, ms.ns, 3)
	n := len(ms.ns[0])
	assert.Greater(t, n, 100, "a 200ms budget of ~150µs rounds holds many rounds")
	for i := range ms.ns {
		assert.Len(t, ms.ns[i], n, "every implementation has one time per round")
	}
	assert.InDelta(t, DefaultBatchTime/time.Microsecond, float64(ms.iters)*1000/1000, 10, "batch ≈ 50µs of 1µs calls")
	assert.InDelta(t, 2, ms.overhead, 0.01, "the empty closure's cost per call")
	assert.LessOrEqual(t, ms.elapsed, budget, "stops before a round that would not fit")
	assert.Greater(t, ms.elapsed, budget*9/10, "and uses most of the budget")

	res := result(impls, ms, fakeConfig(c), budget)
	assert.Equal(t, verdict.Slower, res.Candidates[0].Verdict)
	assert.InDelta(t, 5, res.Candidates[0].DeltaPct, 0.3)
	assert.Equal(t, verdict.Same, res.Control.Verdict)
}

func TestMeasureOrderBalanced(t *testing.T) {
	c := newFakeClock(0)
	impls, err := validate(c.impl("a", 1000), []Impl{c.impl("b", 1000), c.impl("c", 1000)})
	require.NoError(t, err)
	impls[1].run = c.impl("control", 1000).run // tell the copy apart in c.calls
	ms := measure(impls, 100*time.Millisecond, 40, fakeConfig(c))
	require.Len(t, ms.ns[0], 40)
	// The calls after calibration and warm-up are the rounds: 4 per round.
	rounds := c.calls[len(c.calls)-40*4:]
	positions := map[string][]int{}
	var orders []string
	for r := range 40 {
		row := rounds[4*r : 4*r+4]
		seen := map[string]bool{}
		for p, name := range row {
			seen[name] = true
			positions[name] = append(positions[name], p)
		}
		assert.Len(t, seen, 4, "round %d runs every implementation once: %v", r, row)
		orders = append(orders, row[0]+row[1]+row[2]+row[3])
	}
	for name, ps := range positions {
		counts := make([]int, 4)
		for _, p := range ps {
			counts[p]++
		}
		assert.Equal(t, []int{10, 10, 10, 10}, counts, "%s takes each position once per block of 4 rounds", name)
	}
	slices.Sort(orders)
	assert.Greater(t, len(slices.Compact(orders)), 4, "orders vary between blocks")
}

func TestMeasureSlowFunction(t *testing.T) {
	c := newFakeClock(0)
	impls, err := validate(c.impl("base", 1000), []Impl{c.impl("glacial", 3*time.Second)})
	require.NoError(t, err)
	budget := time.Second
	ms := measure(impls, budget, 1<<30, fakeConfig(c))
	assert.Contains(t, ms.stopped, `one call of "glacial" took 3`)
	assert.Contains(t, ms.stopped, "more than the whole budget of 1s")
	assert.Contains(t, ms.stopped, "raise -benchtime")
	assert.LessOrEqual(t, ms.elapsed, budget+3*time.Second+time.Microsecond, "overrun by at most the one call")
	res := result(impls, ms, fakeConfig(c), budget)
	assert.Equal(t, verdict.Undecided, res.Candidates[0].Verdict)
	assert.Contains(t, res.Candidates[0].Reason, "measuring stopped")
}

func TestMeasureSlowBatchCapped(t *testing.T) {
	c := newFakeClock(0)
	// 1µs baseline → 50 calls per batch; the candidate costs 100µs a call,
	// so its batch would be 5ms = 100 batch times.
	impls, err := validate(c.impl("base", time.Microsecond), []Impl{c.impl("slow", 100*time.Microsecond)})
	require.NoError(t, err)
	ms := measure(impls, time.Second, 1<<30, fakeConfig(c))
	require.Empty(t, ms.stopped)
	assert.InDelta(t, 5, ms.iters, 1, "lowered so the slow batch is about 10 batch times (500µs)")
	require.NotEmpty(t, ms.warnings)
	assert.Contains(t, ms.warnings[0], "the implementations are 100× apart")
	assert.Contains(t, ms.warnings[0], "over 10 batch times, so the count is 5")
}

func TestMeasureNeverOverrunsByMoreThanABatch(t *testing.T) {
	for _, budget := range []time.Duration{time.Millisecond, 3 * time.Millisecond, 50 * time.Millisecond} {
		c := newFakeClock(0.5) // noisy: round-time predictions are off
		impls, err := validate(c.impl("base", 10*time.Microsecond), []Impl{c.impl("cand", 30*time.Microsecond)})
		require.NoError(t, err)
		ms := measure(impls, budget, 1<<30, fakeConfig(c))
		maxBatch := time.Duration(float64(ms.iters)*30*1.5)*time.Microsecond + 100
		assert.LessOrEqual(t, ms.elapsed, budget+maxBatch, "budget %v", budget)
	}
}

func TestMeasurePanicNamesImpl(t *testing.T) {
	c := newFakeClock(0)
	boom := Impl{name: "boom", run: func(int) { panic("kaput") }, empty: func(int) {}}
	impls, err := validate(c.impl("base", 1000), []Impl{boom})
	require.NoError(t, err)
	defer func() {
		r := recover()
		require.IsType(t, implPanic{}, r, "Compare's failOnPanic turns this into b.Fatal")
		msg := r.(implPanic).Error()
		assert.Contains(t, msg, `control: implementation "boom" panicked: kaput`)
		assert.Contains(t, msg, "original stack")
	}()
	measure(impls, time.Second, 10, fakeConfig(c))
}

func TestScheduleBlocks(t *testing.T) {
	// The blocks themselves are tested in internal/verdict.
	assert.Equal(t, roundOrders(3, 4, 9)[0], []int{0, 1, 2}, "Rounds' first round keeps the declared order")
	assert.Equal(t, roundOrders(3, 4, 9), roundOrders(3, 4, 9), "deterministic for a seed")
}

func TestMeasureZeroDurationBatches(t *testing.T) {
	c := newFakeClock(0)
	impls, err := validate(c.impl("base", 1000), []Impl{c.impl("cand", 1000)})
	require.NoError(t, err)
	// The candidate's clock reads 0 on every third call after warm-up.
	calls := 0
	impls[2].run = func(n int) {
		calls++
		if calls%3 != 0 {
			c.t = c.t.Add(time.Duration(n) * 1000)
		}
	}
	ms := measure(impls, 50*time.Millisecond, 1<<30, fakeConfig(c))
	require.NotEmpty(t, ms.warnings)
	assert.Contains(t, ms.warnings[len(ms.warnings)-1], "dropped: a batch of")
	for _, xs := range ms.ns {
		for _, x := range xs {
			assert.Greater(t, x, 0.0)
		}
	}
	res := result(impls, ms, fakeConfig(c), 50*time.Millisecond)
	assert.Greater(t, res.Rounds, 0, "the other rounds still count")
}

// TestMeasureBaselineIndependent is the fnv/xxhash case of a real suite:
// two implementations about 20× apart. The ratio must not depend on which
// one is the baseline: the fast one's batch is lengthened, and the fixed
// per-batch cost (100ns on the fake clock) subtracted.
func TestMeasureBaselineIndependent(t *testing.T) {
	var iters []int
	ratio := func(slow bool) float64 {
		c := newFakeClock(0)
		fnv, xx := c.impl("fnv", 1180), c.impl("xxhash", 55)
		base, cand := fnv, xx
		if !slow {
			base, cand = xx, fnv
		}
		impls, err := validate(base, []Impl{cand})
		require.NoError(t, err)
		ms := measure(impls, 300*time.Millisecond, 1<<30, fakeConfig(c))
		require.Empty(t, ms.stopped)
		assert.Equal(t, 100*time.Nanosecond, ms.fixed, "the fixed cost is measured")
		iters = append(iters, ms.iters)
		res := result(impls, ms, fakeConfig(c), 300*time.Millisecond)
		return 1 + res.Candidates[0].DeltaPct/100
	}
	fnvBase, xxBase := ratio(true), ratio(false)
	assert.InDelta(t, 55.0/1180, fnvBase, 1e-6*55/1180, "xxhash/fnv with fnv as the baseline")
	assert.InDelta(t, 1180.0/55, xxBase, 1e-6*1180/55, "fnv/xxhash with xxhash as the baseline")
	assert.InDelta(t, 1, fnvBase*xxBase, 1e-6, "the two ratios are each other's inverse")
	assert.InDelta(t, iters[0], iters[1], 1, "the same count per batch either way round: %v", iters)
}

func TestFitIters(t *testing.T) {
	bt := 50 * time.Microsecond
	// The baseline's batch is 50µs, a candidate's 2.5µs: lengthen to 20µs.
	w := warmup{round: 52500 * time.Nanosecond, slowest: 50 * time.Microsecond, fastest: 2500 * time.Nanosecond}
	n, round, warns := w.fitIters(42, bt, 0)
	assert.Equal(t, 336, n)
	assert.Equal(t, time.Duration(420000), round)
	assert.Empty(t, warns)
	// A candidate twice as slow as the baseline: the slowest batch, not
	// the baseline's, lasts the batch time.
	w = warmup{round: 150 * time.Microsecond, slowest: 100 * time.Microsecond, fastest: 50 * time.Microsecond}
	n, _, warns = w.fitIters(50, bt, 60)
	assert.Equal(t, 25, n)
	assert.Empty(t, warns)
	// 100× apart: raised only up to the cap on the slowest; the cap and
	// the still-short batch are said.
	// The warm-up's batch times include the 60ns fixed cost.
	w = warmup{round: 101*time.Microsecond + 120, slowest: 100*time.Microsecond + 60, fastest: time.Microsecond + 60}
	n, _, warns = w.fitIters(100, bt, 60*time.Nanosecond)
	assert.Equal(t, 500, n)
	require.Len(t, warns, 2)
	assert.Contains(t, warns[0], "100× apart: at the 2000 calls per batch the fastest needs for 20µs, the slowest's batch would take 2ms, over 10 batch times, so the count is 500")
	assert.Contains(t, warns[1], "the fastest implementation's batch lasts about 5.06µs, of which the clock reads and the call take 60ns")
	// Within bounds: unchanged.
	w = warmup{round: 100 * time.Microsecond, slowest: 50 * time.Microsecond, fastest: 50 * time.Microsecond}
	n, _, warns = w.fitIters(50, bt, 60)
	assert.Equal(t, 50, n)
	assert.Empty(t, warns)
	// A clock that read 0: keep the count.
	n, _, _ = warmup{}.fitIters(7, bt, 60)
	assert.Equal(t, 7, n)
}

// TestFitItersSwapped: the same two implementations, 20× apart, warmed up
// at the count each baseline calibrated (50µs of the baseline), get the
// same count whichever is the baseline.
func TestFitItersSwapped(t *testing.T) {
	bt := 50 * time.Microsecond
	slow, fast := 1130*time.Nanosecond, 62*time.Nanosecond
	at := func(n int) warmup {
		return warmup{round: time.Duration(n) * (slow + fast), slowest: time.Duration(n) * slow, fastest: time.Duration(n) * fast}
	}
	nSlow, nFast := int(bt/slow), int(bt/fast) // 44 and 806 calls
	a, _, _ := at(nSlow).fitIters(nSlow, bt, 0)
	b, _, _ := at(nFast).fitIters(nFast, bt, 0)
	assert.InDelta(t, a, b, 1, "counts %d (slow baseline) and %d (fast baseline)", a, b)
	assert.GreaterOrEqual(t, time.Duration(a)*fast, minBatch, "the fast batch is lengthened to 20µs")
}

// TestClampCount: a count past an int's range, NaN or below 1 clamps into
// [1, 1<<30] on every platform, 32-bit included.
func TestClampCount(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want int
	}{
		{0, 1}, {-5, 1}, {math.NaN(), 1}, {0.4, 1}, {7.9, 7}, {1 << 30, 1 << 30},
		{1 << 40, 1 << 30}, {math.Inf(1), 1 << 30}, {float64(math.MaxInt64), 1 << 30},
	} {
		assert.Equal(t, tc.want, clampCount(tc.x), "clampCount(%g)", tc.x)
	}
	assert.Equal(t, 1<<30, scale(1000, time.Nanosecond, time.Hour), "a batch of 1000 calls in 1 ns scaled to an hour")
}
