package warmup

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Defaults used by [Run] when the corresponding option is not given.
const (
	// DefaultStreak is the number of batches whose times must agree ([Stable]).
	DefaultStreak = 5
	// DefaultTolerance is their largest allowed spread, a fraction ([Stable]).
	DefaultTolerance = 0.05
	// DefaultLimit is the wall-time budget of one Run ([Limit]).
	DefaultLimit = time.Second
	// DefaultBatchTime is the target duration of one batch ([BatchTime]).
	DefaultBatchTime = 2 * time.Millisecond
)

// Result describes one warm-up. Its fields never hold NaN or ±Inf.
type Result struct {
	// Duration is the wall time Run spent, calibration included.
	Duration time.Duration
	// Batches is the number of timed batches, each of the same work.
	Batches int
	// Converged reports whether the last k batches agreed within the
	// tolerance ([Stable]) before the limit passed (and after [MinTime]).
	Converged bool
	// FirstToLast is the first batch's time over the last's: >1 when the
	// machine sped up during the warm-up, <1 when it slowed down, 1 when
	// fewer than two batches ran.
	FirstToLast float64
	// Spread is (max−min)/min of the last k batch times (of all, when
	// fewer ran), as a fraction; 0 when fewer than two ran. Converged is
	// Spread <= tolerance with k batches present.
	Spread float64
	// Warnings are errors whose messages start with "warmup:" and name
	// the numbers and the fix: not converged within the limit, the limit
	// ending during calibration.
	Warnings []error
	// Streak and Tolerance are the rule Run applied ([Stable]).
	Streak    int
	Tolerance float64
}

// String returns one line for a report, for example
//
//	warm-up 412ms, 41 batches, stable (5 within 2%), first batch 1.31× slower than last
//
// It never has the "word: text" shape that benchfmt reads as a
// configuration line. Warnings are not included; print them separately.
func (r Result) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "warm-up %s, ", roundDuration(r.Duration))
	switch r.Batches {
	case 0:
		sb.WriteString("no batches")
	case 1:
		sb.WriteString("1 batch")
	default:
		fmt.Fprintf(&sb, "%d batches", r.Batches)
	}
	tol := percent(r.Tolerance)
	switch {
	case r.Converged:
		fmt.Fprintf(&sb, ", stable (%d within %s)", r.Streak, tol)
	case r.Batches == 0:
		sb.WriteString(", not stable (the limit passed while calibrating)")
	case r.Batches < r.Streak:
		fmt.Fprintf(&sb, ", not stable (only %d of the %d batches needed)", r.Batches, r.Streak)
	default:
		fmt.Fprintf(&sb, ", not stable (last %d spread %s, want ≤ %s)", r.Streak, percent(r.Spread), tol)
	}
	if r.Batches >= 2 {
		switch {
		case math.Abs(r.FirstToLast-1) < 0.005:
			sb.WriteString(", first batch as fast as last")
		case r.FirstToLast > 1:
			fmt.Fprintf(&sb, ", first batch %.2f× slower than last", r.FirstToLast)
		default:
			fmt.Fprintf(&sb, ", first batch %.2f× faster than last", 1/r.FirstToLast)
		}
	}
	return sb.String()
}

// percent formats a fraction as a percentage with up to three significant
// digits: 0.02 → "2%", 0.025 → "2.5%".
func percent(f float64) string {
	return strconv.FormatFloat(f*100, 'g', 3, 64) + "%"
}

// roundDuration keeps three or so significant digits of d.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(time.Millisecond)
	case d >= time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d
}

// Option configures [Run]. Options are made by [Stable], [Limit],
// [MinTime] and [BatchTime]; the interface is sealed.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	streak    int
	tolerance float64
	limit     time.Duration
	minTime   time.Duration
	batch     time.Duration
	src       source // nil: the real machine
}

// Stable sets the convergence rule: Run stops as soon as the times of the
// last k consecutive batches satisfy (max − min) / min ≤ tolerance, where
// tolerance is a fraction (0.05 is 5%). The default is
// Stable([DefaultStreak], [DefaultTolerance]). Stable panics if k < 1 or
// tolerance is not a positive finite number.
func Stable(k int, tolerance float64) Option {
	if k < 1 {
		panic(fmt.Sprintf("warmup: Stable(%d, %v): k must be at least 1 batch; use Stable(%d, %v) for the default", k, tolerance, DefaultStreak, DefaultTolerance))
	}
	if !(tolerance > 0) || math.IsInf(tolerance, 0) {
		panic(fmt.Sprintf("warmup: Stable(%d, %v): tolerance must be a positive finite fraction (0.05 is 5%%); use Stable(%d, %v) for the default", k, tolerance, k, DefaultTolerance))
	}
	return optionFunc(func(c *config) { c.streak, c.tolerance = k, tolerance })
}

// Limit sets the wall-time budget of Run, calibration included; Run returns
// after the first batch that ends at or past it, converged or not. The
// default is [DefaultLimit]. Limit panics if d <= 0.
func Limit(d time.Duration) Option {
	if d <= 0 {
		panic(fmt.Sprintf("warmup: Limit(%v): the limit must be positive; use Limit(%v) for the default", d, DefaultLimit))
	}
	return optionFunc(func(c *config) { c.limit = d })
}

// MinTime sets a floor on the warm-up: Run stops at the first batch after
// d whose streak is stable (or at the limit), even when the batch times
// settled earlier, as Google Benchmark's MinWarmUpTime does. Use it where
// a slow ramp (a laptop's clock, a thermal governor) takes longer than the
// stability rule notices, for example MinTime(time.Second). If d exceeds
// the limit, the limit is raised to d. The default is 0: no floor. MinTime
// panics if d < 0.
func MinTime(d time.Duration) Option {
	if d < 0 {
		panic(fmt.Sprintf("warmup: MinTime(%v): the minimum must not be negative; use MinTime(0) for no minimum", d))
	}
	return optionFunc(func(c *config) { c.minTime = d })
}

// BatchTime sets the target duration of one batch. Shorter batches
// converge sooner but are more sensitive to scheduler noise; batches much
// shorter than 100µs are dominated by the clock. The default is
// [DefaultBatchTime]. BatchTime panics if d <= 0.
func BatchTime(d time.Duration) Option {
	if d <= 0 {
		panic(fmt.Sprintf("warmup: BatchTime(%v): the batch time must be positive; use BatchTime(%v) for the default", d, DefaultBatchTime))
	}
	return optionFunc(func(c *config) { c.batch = d })
}

func newConfig(opts []Option) config {
	c := config{
		streak:    DefaultStreak,
		tolerance: DefaultTolerance,
		limit:     DefaultLimit,
		batch:     DefaultBatchTime,
	}
	for _, o := range opts {
		if o == nil {
			panic("warmup: nil Option passed to Run")
		}
		o.apply(&c)
	}
	c.limit = max(c.limit, c.minTime)
	return c
}

// Run warms the machine up: it runs a fixed, deterministic, CPU-bound
// workload that allocates nothing per batch, in batches of equal work,
// each about [BatchTime] long after a calibration, until the times of the
// last k batches agree within the tolerance of [Stable], or until [Limit]
// passes. It starts no batch after the limit, but one it started before
// can overrun it (by tens of milliseconds on a busy machine). Not
// converging is not an error: it is reported in [Result.Converged] and
// [Result.Warnings]. Run is safe to call from several goroutines, although
// warming up concurrently defeats the purpose. It panics on a nil Option.
func Run(opts ...Option) Result {
	c := newConfig(opts)
	src := c.src
	if src == nil {
		src = newMachine()
	}
	return c.run(src)
}

// source is the seam between the stability logic and the machine: the real
// one times the workload on the monotonic clock; tests inject synthetic
// batch times.
type source interface {
	// elapsed is the wall time since the warm-up started.
	elapsed() time.Duration
	// calibrate returns the number of workload units that take about
	// target, giving up (with its best guess) once elapsed passes limit.
	calibrate(target, limit time.Duration) int
	// batch runs units workload units and returns how long they took.
	batch(units int) time.Duration
}

func (c config) run(src source) Result {
	r := Result{FirstToLast: 1, Streak: c.streak, Tolerance: c.tolerance}
	units := src.calibrate(c.batch, c.limit)
	last := make([]time.Duration, 0, c.streak) // ring of the last k batch times
	var first, latest time.Duration
	for src.elapsed() < c.limit {
		d := max(src.batch(units), 1) // a zero time would make ratios infinite
		r.Batches++
		if r.Batches == 1 {
			first = d
		}
		latest = d
		if len(last) == c.streak {
			copy(last, last[1:])
			last = last[:c.streak-1]
		}
		last = append(last, d)
		if len(last) == c.streak && spread(last) <= c.tolerance && src.elapsed() >= c.minTime {
			r.Converged = true
			break
		}
	}
	r.Duration = src.elapsed()
	if r.Batches >= 2 {
		r.FirstToLast = float64(first) / float64(latest)
		r.Spread = spread(last)
	}
	switch {
	case r.Batches == 0:
		r.Warnings = append(r.Warnings, fmt.Errorf(
			"warmup: the limit of %v passed while calibrating the batch size, before any timed batch (batch target %v); raise it with warmup.Limit or lower warmup.BatchTime",
			c.limit, c.batch))
	case r.Batches < c.streak:
		r.Warnings = append(r.Warnings, fmt.Errorf(
			"warmup: only %d batches of the %d needed for a stability check fit in the limit of %v; raise it with warmup.Limit(%v) or lower warmup.BatchTime",
			r.Batches, c.streak, c.limit, 2*c.limit))
	case !r.Converged:
		r.Warnings = append(r.Warnings, fmt.Errorf(
			"warmup: batch times did not settle within %v: after %d batches the last %d still spread %s (allowed %s); the machine is probably busy or changing speed: run on a quieter machine, or loosen the rule with warmup.Stable(%d, %v) or warmup.Limit(%v)",
			c.limit, r.Batches, c.streak, percent(r.Spread), percent(c.tolerance), c.streak, 2*c.tolerance, 2*c.limit))
	}
	return r
}

// spread is (max−min)/min of ds, which are all positive.
func spread(ds []time.Duration) float64 {
	if len(ds) < 2 {
		return 0
	}
	lo, hi := ds[0], ds[0]
	for _, d := range ds[1:] {
		lo, hi = min(lo, d), max(hi, d)
	}
	return float64(hi-lo) / float64(lo)
}

// machine is the real source: the workload on the monotonic clock.
type machine struct {
	start time.Time
	data  []uint64
	acc   uint64
}

func newMachine() *machine {
	return &machine{start: time.Now(), data: newData()}
}

func (m *machine) elapsed() time.Duration { return time.Since(m.start) }

func (m *machine) batch(units int) time.Duration {
	t0 := time.Now()
	acc := m.acc
	for range units {
		acc += unit(m.data)
	}
	d := time.Since(t0)
	m.acc = acc
	runtime.KeepAlive(acc)
	return d
}

// calibrate doubles the unit count from 1 until a batch takes at least
// half the target, times that count once more and keeps the faster of the
// two (a preempted timing would make batches too short), and scales the
// count to the target.
func (m *machine) calibrate(target, limit time.Duration) int {
	n := 1
	for {
		d := m.batch(n)
		if d >= target/2 || m.elapsed() >= limit || n >= 1<<30 {
			if m.elapsed() < limit {
				d = min(d, m.batch(n))
			}
			if d <= 0 {
				return n
			}
			return max(1, int(float64(n)*float64(target)/float64(d)+0.5))
		}
		n *= 2
	}
}

// unitLen is the length of the workload's slice: 1024 uint64s, 8 KiB, which
// fits in any L1 data cache.
const unitLen = 1024

// newData returns the workload's input: a deterministic xorshift sequence
// (so no constant can be folded into the loop).
func newData() []uint64 {
	data := make([]uint64, unitLen)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range data {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		data[i] = x
	}
	return data
}

// unit is one unit of warm-up work: a dependent multiply–xor chain over
// data (about 1–3µs on current x86 and arm64 cores). It is not inlined, and
// its result is always used, so the compiler cannot remove it.
//
//go:noinline
func unit(data []uint64) uint64 {
	h := uint64(0xCBF29CE484222325)
	for _, v := range data {
		h = (h ^ v) * 0x100000001B3
		h ^= h >> 29
	}
	return h
}
