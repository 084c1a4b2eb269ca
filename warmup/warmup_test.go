package warmup_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/warmup"
)

const ms = time.Millisecond

func TestRunConvergesAfterJBatches(t *testing.T) {
	// Three slow, settling batches, then a streak of 5 within 2%.
	times := []time.Duration{13 * ms, 12 * ms, 11 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms}
	r := warmup.Run(warmup.Stable(5, 0.02), warmup.Limit(time.Second), warmup.FakeBatches(0, times...))
	assert.True(t, r.Converged)
	assert.Equal(t, 8, r.Batches, "converges at the 5th batch of 10ms, the 8th in all")
	assert.Equal(t, 86*ms, r.Duration)
	assert.InDelta(t, 1.3, r.FirstToLast, 1e-12)
	assert.Equal(t, 0.0, r.Spread)
	assert.Empty(t, r.Warnings)
	assert.Equal(t, "warm-up 86ms, 8 batches, stable (5 within 2%), first batch 1.30× slower than last", r.String())
}

func TestRunToleranceIsMaxMinOverMin(t *testing.T) {
	// 100 and 102 spread exactly 2%: within Stable(2, 0.02); 103 is not.
	r := warmup.Run(warmup.Stable(2, 0.02), warmup.FakeBatches(0, 100*ms, 103*ms, 102*ms))
	assert.True(t, r.Converged)
	assert.Equal(t, 3, r.Batches, "103 vs 100 spread 3%%, 102 vs 103 spread 0.98%%")
	assert.InDelta(t, 1.0/102, r.Spread, 1e-12)
}

func TestRunNeverConverges(t *testing.T) {
	// Alternating 10ms and 12ms batches spread 20% for ever; the limit of
	// 220ms is reached after 20 batches of 11ms on average.
	r := warmup.Run(warmup.Stable(3, 0.05), warmup.Limit(220*ms),
		warmup.FakeBatches(0, alternate(20, 10*ms, 12*ms)...))
	assert.False(t, r.Converged)
	assert.Equal(t, 20, r.Batches)
	assert.Equal(t, 220*ms, r.Duration)
	assert.InDelta(t, 0.2, r.Spread, 1e-12)
	assert.InDelta(t, 10.0/12, r.FirstToLast, 1e-12)
	require.Len(t, r.Warnings, 1)
	msg := r.Warnings[0].Error()
	assert.True(t, strings.HasPrefix(msg, "warmup: batch times did not settle within 220ms"), msg)
	for _, want := range []string{"20 batches", "last 3", "spread 20%", "allowed 5%", "warmup.Stable(3, 0.1)", "warmup.Limit(440ms)"} {
		assert.Contains(t, msg, want)
	}
	assert.Equal(t, "warm-up 220ms, 20 batches, not stable (last 3 spread 20%, want ≤ 5%), first batch 1.20× faster than last", r.String())
}

func TestRunLimitCountsBatchesUnderFakeClock(t *testing.T) {
	// Batches of 7ms and 8ms in turn after 10ms of calibration, limit
	// 100ms: the clock reads 10, 17, 25, …, 92, 100ms after each batch.
	r := warmup.Run(warmup.Stable(5, 0.01), warmup.Limit(100*ms),
		warmup.FakeBatches(10*ms, alternate(100, 7*ms, 8*ms)...))
	assert.False(t, r.Converged)
	// 10 + 7+8+7+8+7+8+7+8+7+8+7+8 = 100 after 12 batches: the loop stops.
	assert.Equal(t, 12, r.Batches)
	assert.Equal(t, 100*ms, r.Duration)
}

func TestRunLimitDuringCalibration(t *testing.T) {
	r := warmup.Run(warmup.Limit(5*ms), warmup.FakeBatches(6*ms, ms))
	assert.False(t, r.Converged)
	assert.Zero(t, r.Batches)
	assert.Equal(t, 1.0, r.FirstToLast)
	assert.Equal(t, 0.0, r.Spread)
	require.Len(t, r.Warnings, 1)
	assert.Contains(t, r.Warnings[0].Error(), "warmup: the limit of 5ms passed while calibrating")
	assert.Equal(t, "warm-up 6ms, no batches, not stable (the limit passed while calibrating)", r.String())
}

func TestRunFewerBatchesThanStreak(t *testing.T) {
	r := warmup.Run(warmup.Stable(5, 0.05), warmup.Limit(30*ms), warmup.FakeBatches(0, 10*ms))
	assert.False(t, r.Converged)
	assert.Equal(t, 3, r.Batches)
	require.Len(t, r.Warnings, 1)
	assert.Contains(t, r.Warnings[0].Error(), "warmup: only 3 batches of the 5 needed")
	assert.Equal(t, "warm-up 30ms, 3 batches, not stable (only 3 of the 5 batches needed), first batch as fast as last", r.String())
}

func TestRunStreakOfOneConvergesAtOnce(t *testing.T) {
	r := warmup.Run(warmup.Stable(1, 0.01), warmup.FakeBatches(0, 10*ms, 20*ms))
	assert.True(t, r.Converged)
	assert.Equal(t, 1, r.Batches)
	assert.Equal(t, 1.0, r.FirstToLast)
	assert.Equal(t, "warm-up 10ms, 1 batch, stable (1 within 1%)", r.String(), "no first-to-last clause with one batch")
}

func TestRunZeroBatchTimesStayFinite(t *testing.T) {
	// A clock too coarse to see a batch must not produce Inf or NaN.
	r := warmup.Run(warmup.Stable(3, 0.05), warmup.Limit(ms), warmup.FakeBatches(0, 0, 0, 0, 5*ms))
	for _, f := range []float64{r.FirstToLast, r.Spread} {
		assert.False(t, math.IsNaN(f) || math.IsInf(f, 0), "%v", f)
	}
	assert.True(t, r.Converged)
}

func TestOptionValidationPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func()
		want string
	}{
		{"k zero", func() { warmup.Stable(0, 0.05) }, "warmup: Stable(0, 0.05): k must be at least 1 batch"},
		{"k negative", func() { warmup.Stable(-2, 0.05) }, "warmup: Stable(-2, 0.05): k must be at least 1 batch"},
		{"tolerance zero", func() { warmup.Stable(5, 0) }, "warmup: Stable(5, 0): tolerance must be a positive finite fraction"},
		{"tolerance negative", func() { warmup.Stable(5, -0.1) }, "warmup: Stable(5, -0.1): tolerance must be a positive finite fraction"},
		{"tolerance NaN", func() { warmup.Stable(5, math.NaN()) }, "warmup: Stable(5, NaN): tolerance must be a positive finite fraction"},
		{"tolerance Inf", func() { warmup.Stable(5, math.Inf(1)) }, "warmup: Stable(5, +Inf): tolerance must be a positive finite fraction"},
		{"limit zero", func() { warmup.Limit(0) }, "warmup: Limit(0s): the limit must be positive"},
		{"limit negative", func() { warmup.Limit(-time.Second) }, "warmup: Limit(-1s): the limit must be positive"},
		{"batch zero", func() { warmup.BatchTime(0) }, "warmup: BatchTime(0s): the batch time must be positive"},
		{"min negative", func() { warmup.MinTime(-ms) }, "warmup: MinTime(-1ms): the minimum must not be negative"},
		{"nil option", func() { warmup.Run(nil) }, "warmup: nil Option passed to Run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				require.NotNil(t, r, "no panic")
				msg, ok := r.(string)
				require.True(t, ok, "panic value %T, want string", r)
				assert.True(t, strings.HasPrefix(msg, tt.want), "got %q, want prefix %q", msg, tt.want)
			}()
			tt.f()
		})
	}
}

func TestRunRealMachineShape(t *testing.T) {
	// The real machine, with a tiny budget: assert only structure.
	r := warmup.Run(warmup.Limit(20*ms), warmup.BatchTime(ms))
	assert.Positive(t, r.Duration)
	assert.False(t, math.IsNaN(r.FirstToLast) || math.IsInf(r.FirstToLast, 0))
	assert.Positive(t, r.FirstToLast)
	if !r.Converged {
		assert.NotEmpty(t, r.Warnings)
	}
	assert.True(t, strings.HasPrefix(r.String(), "warm-up "))
}

func TestWorkloadIsDeterministicAndAllocationFree(t *testing.T) {
	data := warmup.NewData()
	assert.Len(t, data, 1024)
	a, b := warmup.Workload(data), warmup.Workload(warmup.NewData())
	assert.Equal(t, a, b)
	assert.NotZero(t, a)
	allocs := testing.AllocsPerRun(100, func() { warmup.Workload(data) })
	assert.Zero(t, allocs)
}

func TestCalibrationReachesTarget(t *testing.T) {
	// The unit count is at least one unit, whatever the clock reads. How
	// it grows with the target depends on the machine's speed and load,
	// so it is not asserted.
	for _, target := range []time.Duration{time.Nanosecond, 5 * ms} {
		assert.GreaterOrEqual(t, warmup.Machine(target, time.Second), 1, "target %v", target)
	}
}

func alternate(n int, a, b time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = a
		if i%2 == 1 {
			out[i] = b
		}
	}
	return out
}

func TestRunMinTimeKeepsGoingAfterStable(t *testing.T) {
	// Constant batches are stable after 3, but MinTime(100ms) holds Run
	// until the clock reads 100ms: 10 batches of 10ms.
	r := warmup.Run(warmup.Stable(3, 0.05), warmup.MinTime(100*ms), warmup.FakeBatches(0, 10*ms))
	assert.True(t, r.Converged)
	assert.Equal(t, 10, r.Batches)
	assert.Equal(t, 100*ms, r.Duration)
}

func TestRunMinTimeAboveLimitRaisesLimit(t *testing.T) {
	// Unstable for ever: the limit of 50ms is raised to the minimum of 80ms.
	r := warmup.Run(warmup.Stable(2, 0.01), warmup.Limit(50*ms), warmup.MinTime(80*ms),
		warmup.FakeBatches(0, alternate(100, 10*ms, 20*ms)...))
	assert.False(t, r.Converged)
	assert.Equal(t, 90*ms, r.Duration, "10+20+10+20+10 = 70 < 80, one more batch of 20")
	assert.Equal(t, 6, r.Batches)
	require.Len(t, r.Warnings, 1)
	assert.Contains(t, r.Warnings[0].Error(), "did not settle within 80ms")
}
