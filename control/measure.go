package control

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// measurement is what the measuring layer saw: per implementation (in the
// order base, control, candidates) the time per operation in each round.
type measurement struct {
	ns       [][]float64
	iters    int
	overhead float64 // ns/op of the empty closure at the same iteration count
	// fixed is the per-batch cost outside the calls (the two clock reads
	// and the batch function's own call), subtracted from every batch.
	fixed time.Duration
	// allocs and bytes per operation of the baseline, from its warm-up
	// batch; -1 when not measured.
	allocsPerOp, bytesPerOp float64
	// probeNs is one call of each implementation, in ns, from the probe
	// before calibration (nil when not reached).
	probeNs []float64
	// stopped says why measuring ended before the budget, or "".
	stopped  string
	warnings []string
	elapsed  time.Duration
}

// timeBatch runs one batch and returns its duration. A panic in the
// implementation is re-raised with its name.
func timeBatch(now func() time.Time, im Impl, n int) time.Duration {
	defer rethrow(im.name)
	t0 := now()
	im.run(n)
	return now().Sub(t0)
}

// measure calibrates one iteration count from the baseline, runs a
// discarded warm-up round and then rounds in balanced random order until
// the next round would not fit in the budget or maxRounds are done. It
// never starts a batch after the deadline, so it overruns the budget by at
// most one batch.
func measure(impls []Impl, budget time.Duration, maxRounds int, cfg config) (ms measurement) {
	start := cfg.now()
	m := meter{now: cfg.now, impls: impls, budget: budget, deadline: start.Add(budget), batchTime: cfg.batchTime}
	ms = measurement{allocsPerOp: -1, bytesPerOp: -1}
	defer func() { ms.elapsed = cfg.now().Sub(start) }()

	if ms.probeNs, ms.stopped = m.probe(); ms.stopped != "" {
		return ms
	}
	m.maxIters = slowestCap(ms.probeNs, m.batchTime)
	if ms.iters, ms.stopped = m.calibrate(); ms.stopped != "" {
		return ms
	}
	ms.overhead = m.closureOverhead(ms.iters)
	m.fixed = m.batchCost()
	ms.fixed = m.fixed
	w, n, round, warnings, stopped := m.size(ms.iters)
	ms.allocsPerOp, ms.bytesPerOp, ms.stopped = w.allocsPerOp, w.bytesPerOp, stopped
	if stopped != "" {
		return ms
	}
	ms.warnings = append(ms.warnings, warnings...)
	ms.iters = n
	var zero int
	ms.ns, zero = m.rounds(n, round, maxRounds, cfg.seed)
	if zero > 0 {
		ms.warnings = append(ms.warnings, fmt.Sprintf("%s dropped: a batch of %d calls read no longer than the clock's own cost on this clock; raise BatchTime", textfmt.Plural(zero, "round"), n))
	}
	if got := len(ms.ns[0]); got < minRounds && maxRounds >= minRounds && zero == 0 {
		ms.stopped = fmt.Sprintf("only %s fit in the budget of %s (a round of every implementation takes about %s): raise -benchtime",
			textfmt.Plural(got, "round"), textfmt.Dur(budget), textfmt.Dur(round))
	}
	return ms
}

// meter holds what every phase of [measure] shares: the clock, the
// implementations (baseline first), the budget and its deadline, and the
// target baseline batch time.
type meter struct {
	now       func() time.Time
	impls     []Impl
	budget    time.Duration
	deadline  time.Time
	batchTime time.Duration
	fixed     time.Duration // per-batch cost outside the calls, from batchCost
	// maxIters caps the count calibrated on the baseline, so that the
	// slowest implementation's first batch stays near maxBatches batch
	// times (slowestCap); 0 is no cap.
	maxIters int
}

// slowestCap returns the largest count at which one batch of the slowest
// implementation, by its probed call (in ns), lasts maxBatches batch
// times, at least 1; 0 without a probe. The probe is one cold call, so
// the cap errs low, and the warm-up refits the count from real batches.
func slowestCap(probeNs []float64, batchTime time.Duration) int {
	if len(probeNs) == 0 {
		return 0
	}
	slowest := slices.Max(probeNs)
	if !(slowest > 0) {
		return 0
	}
	return clampCount(float64(maxBatches*batchTime) / slowest)
}

// probe times one call of each implementation, in ns, and returns why
// measuring must stop when one alone exceeds the budget, or "".
func (m meter) probe() (ns []float64, stopped string) {
	for _, im := range m.impls {
		d := timeBatch(m.now, im, 1)
		ns = append(ns, float64(d))
		if d > m.budget {
			return ns, fmt.Sprintf("one call of %q took %s, more than the whole budget of %s: raise -benchtime or give it a smaller input", im.name, textfmt.Dur(d), textfmt.Dur(m.budget))
		}
	}
	return ns, ""
}

// minRounds is the least number of rounds a process must measure for its
// estimate to mean anything (the sign test's 7 at 97.5%).
const minRounds = 7

// need returns how long a process needs to measure at all: the probe,
// the warm-up and minRounds rounds at the count per batch calibrated (1
// when calibration did not finish), each round one batch of every
// implementation, estimated from the probe. 0 when nothing was probed.
func (ms measurement) need() time.Duration {
	var round float64
	for _, ns := range ms.probeNs {
		round += ns
	}
	return time.Duration(round * float64(max(ms.iters, 1)) * float64(warmPasses+minRounds+1))
}

// calibrate returns the iteration count whose baseline batch lasts about
// batchTime: ×10 until a batch takes a tenth of it, then scale; check once
// more at the scaled count. It returns 0 and why when the deadline passes
// first.
func (m meter) calibrate() (n int, stopped string) {
	base := m.impls[0]
	n = 1
	for {
		d := timeBatch(m.now, base, n)
		if !m.now().Before(m.deadline) {
			return 0, fmt.Sprintf("calibrating %q used the whole budget of %s (%d calls took %s): raise -benchtime", base.name, textfmt.Dur(m.budget), n, textfmt.Dur(d))
		}
		if d >= m.batchTime/10 || n > 1<<26 || m.capped(n) {
			n = m.capCount(scale(n, d, m.batchTime))
			if d2 := timeBatch(m.now, base, n); d2 > 0 {
				n = m.capCount(scale(n, d2, m.batchTime))
			}
			return n, ""
		}
		n = m.capCount(n * 10)
	}
}

// capped reports whether n has reached maxIters.
func (m meter) capped(n int) bool { return m.maxIters > 0 && n >= m.maxIters }

// capCount returns n, or maxIters when n is larger.
func (m meter) capCount(n int) int {
	if m.maxIters > 0 {
		return min(n, m.maxIters)
	}
	return n
}

// closureOverhead returns the closure-call overhead in ns per call: the
// median of 5 batches of a closure returning the zero value, with a count
// large enough (≥ n, batch ≥ 20µs) that the clock reads do not dominate.
func (m meter) closureOverhead(n int) float64 {
	empty := Impl{name: "empty", run: m.impls[0].empty}
	ne := n
	for ne < 1<<30 {
		if d := timeBatch(m.now, empty, ne); d >= 20*time.Microsecond || d > m.batchTime {
			break
		}
		ne *= 4
	}
	var ov []float64
	for range 5 {
		t0 := m.now()
		m.impls[0].empty(ne)
		ov = append(ov, float64(m.now().Sub(t0))/float64(ne))
	}
	med, _ := stats.Median(ov)
	return med
}

// batchCost returns the cost of a batch of zero calls of the baseline:
// the two clock reads around it and the batch function's own call and
// return, the median of 9 tries. Every batch pays it once whatever its
// length, so rounds subtracts it; without that, a short batch (a fast
// candidate under a shared count) reads slower per call than a long one,
// and a ratio depends on which implementation is the baseline.
func (m meter) batchCost() time.Duration {
	var ds []float64
	for range 9 {
		ds = append(ds, float64(timeBatch(m.now, m.impls[0], 0)))
	}
	med, _ := stats.Median(ds)
	return time.Duration(med)
}

// warmup is what the discarded warm-up round saw: the sum and the maximum
// of its batch times, and the baseline's allocations and bytes per
// operation (-1 when not measured).
type warmup struct {
	round, slowest, fastest time.Duration
	allocsPerOp, bytesPerOp float64
}

// size runs the warm-up at the calibrated count n and fits the count per
// batch to it (fitIters). When the fit moved the count by more than a
// factor of resize, it warms up once more at the fitted count and fits
// again from there: a batch far shorter than the target (the fast
// implementation's, at a count calibrated on a slow baseline) times its
// calls less precisely, and the count would otherwise depend on which
// implementation is the baseline (10% on fnv against fold).
func (m meter) size(n int) (w warmup, fit int, round time.Duration, warnings []string, stopped string) {
	if w, stopped = m.warmUp(n, warmPasses); stopped != "" {
		return w, n, 0, nil, stopped
	}
	fit, round, warnings = w.fitIters(n, m.batchTime, m.fixed)
	if ratio := float64(fit) / float64(n); ratio > resize || ratio < 1/resize {
		n = fit
		if w, stopped = m.warmUp(n, warmPasses); stopped != "" {
			return w, n, 0, nil, stopped
		}
		fit, round, warnings = w.fitIters(n, m.batchTime, m.fixed)
	}
	return w, fit, round, warnings, ""
}

const (
	// resize is the factor by which fitIters must move the count for
	// [size] to warm up again at the new count.
	resize = 1.25
	// warmPasses is the number of rounds in one warm-up: the first pays
	// for a cold start, and the fastest of three batches sizes an
	// implementation even when another process took one or two.
	warmPasses = 3
)

// warmUp runs passes discarded rounds of n-call batches in the declared
// order. The first pays for a cold start (in a fresh fork, the first calls
// of every implementation fault in pages and grow the heap, and can take
// ten times longer); the last measures the baseline's allocations. Each
// implementation's fastest batch sizes the batches (fitIters), so that a
// batch another process interrupted does not shrink the count. It returns
// why measuring must stop, or "", when the deadline passes before a batch
// or one batch exceeds the whole budget; the allocations are kept either
// way.
func (m meter) warmUp(n, passes int) (w warmup, stopped string) {
	w = warmup{allocsPerOp: -1, bytesPerOp: -1}
	best := make([]time.Duration, len(m.impls))
	for pass := range passes {
		runtime.GC()
		for i, im := range m.impls {
			d, stopped := m.warmBatch(&w, im, i == 0 && pass == passes-1, n)
			if stopped != "" {
				return w, stopped
			}
			if pass == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	for _, d := range best {
		w.round += d
	}
	w.slowest, w.fastest = slices.Max(best), slices.Min(best)
	return w, ""
}

// warmBatch times one warm-up batch of im, measuring its allocations into
// w when allocs is true, and returns why measuring must stop, or "".
func (m meter) warmBatch(w *warmup, im Impl, allocs bool, n int) (time.Duration, string) {
	if !m.now().Before(m.deadline) {
		return 0, fmt.Sprintf("the warm-up round did not fit in the budget of %s (%d iterations per batch): raise -benchtime", textfmt.Dur(m.budget), n)
	}
	var m0, m1 runtime.MemStats
	if allocs {
		runtime.ReadMemStats(&m0)
	}
	d := timeBatch(m.now, im, n)
	if allocs {
		runtime.ReadMemStats(&m1)
		w.allocsPerOp = float64(m1.Mallocs-m0.Mallocs) / float64(n)
		w.bytesPerOp = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n)
	}
	if d > m.budget {
		return d, fmt.Sprintf("one batch of %q (%d calls) took %s, more than the whole budget of %s: raise -benchtime or give it a smaller input", im.name, n, textfmt.Dur(d), textfmt.Dur(m.budget))
	}
	return d, ""
}

// Limits on one batch, relative to the target batch time t: the slowest
// implementation's batch stays under maxBatches·t, and the fastest one's
// above min(minBatch, t) where possible.
const (
	maxBatches = 10
	minBatch   = 20 * time.Microsecond
	// maxFixedShare: a batch whose fixed cost (clock reads, call) is more
	// than this share of it is too short to trust, subtraction or not.
	maxFixedShare = 0.01
)

// fitIters returns the count per batch, the predicted round time at that
// count, and warnings, from the warm-up round's batches at count n. The
// count is a function of the set of implementations, never of which one
// is the baseline: the slowest implementation's batch is sized to
// batchTime, raised where the fastest one's would last less than
// min(minBatch, batchTime), and capped where the slowest one's would
// exceed maxBatches·batchTime; the cap wins. (Sizing on the baseline made
// fnv against a 20× faster fold run 300-call batches one way round and
// 450-call batches the other, and the longer slow batches read 5% slower
// per call on a shared machine: fnv/fold was 18.0 one way and 19.3 the
// other.) The cap binding, and a fastest batch whose fixed cost is still
// more than maxFixedShare of it, are warned about.
func (w warmup) fitIters(n int, batchTime, fixed time.Duration) (int, time.Duration, []string) {
	if w.slowest <= 0 || w.fastest <= 0 {
		return n, w.round, nil // a clock too coarse to size anything: keep n
	}
	// Per-call times without the batch's fixed cost, in ns.
	slow := float64(max(w.slowest-fixed, 1)) / float64(n)
	fast := float64(max(w.fastest-fixed, 1)) / float64(n)
	at := func(d time.Duration) int { // the count whose slowest batch lasts d
		return clampCount(float64(d) / slow)
	}
	var warnings []string
	fit := at(batchTime)
	if floor := min(minBatch, batchTime); fast*float64(fit) < float64(floor) {
		fit = max(fit, clampCount(math.Ceil(float64(floor)/fast)))
	}
	if limit := maxBatches * batchTime; fit > at(limit) {
		warnings = append(warnings, fmt.Sprintf("the implementations are %.0f× apart: at the %d calls per batch the fastest needs for %s, the slowest's batch would take %s, over %d batch times, so the count is %d",
			slow/fast, fit, textfmt.Dur(min(minBatch, batchTime)),
			textfmt.Dur(time.Duration(slow*float64(fit))), maxBatches, at(limit)))
		fit = at(limit)
	}
	round := time.Duration(float64(w.round) * float64(fit) / float64(n))
	if d := time.Duration(fast*float64(fit)) + fixed; float64(fixed) > maxFixedShare*float64(d) {
		warnings = append(warnings, fmt.Sprintf("the fastest implementation's batch lasts about %s, of which the clock reads and the call take %s (%.0f%%): its time per call is uncertain by about that much; compare implementations closer in cost, or raise BatchTime",
			textfmt.Dur(d), textfmt.Dur(fixed), 100*float64(fixed)/float64(d)))
	}
	return fit, round, warnings
}

// rounds runs rounds of n-call batches, in balanced random order from
// seed, until maxRounds are done or the next round would end after the
// deadline; a round's length is predicted as round (from the warm-up) for
// the first and as the previous round's after. A round the deadline cuts
// short is dropped and ends measuring. It returns each implementation's
// ns/op per kept round, and the number of rounds dropped because a batch
// read 0 on the clock.
func (m meter) rounds(n int, round time.Duration, maxRounds int, seed uint64) (ns [][]float64, zero int) {
	ns = make([][]float64, len(m.impls))
	sched := stats.NewSchedule(len(m.impls), seed)
	times := make([]time.Duration, len(m.impls))
	for r := 0; r < maxRounds; r++ {
		if m.now().Add(round).After(m.deadline) {
			break
		}
		t0 := m.now()
		for _, i := range sched.Next() {
			if !m.now().Before(m.deadline) {
				return ns, zero
			}
			times[i] = timeBatch(m.now, m.impls[i], n)
		}
		round = m.now().Sub(t0)
		if slices.Min(times) <= m.fixed {
			zero++ // a clock too coarse for the batch: no ratio
			continue
		}
		for i, d := range times {
			ns[i] = append(ns[i], float64(d-m.fixed)/float64(n))
		}
	}
	return ns, zero
}

// scale returns the count that makes a batch of n calls taking d last
// target, at least 1.
func scale(n int, d, target time.Duration) int {
	if d <= 0 {
		return n * 10
	}
	return clampCount(float64(n) * float64(target) / float64(d))
}

// clampCount converts a call count to an int in [1, 1<<30], clamping in
// float64 first: a float beyond the int's range (2³¹ on 32-bit
// platforms) converts to an arbitrary value, not to the nearest int.
func clampCount(x float64) int {
	if !(x >= 1) {
		return 1
	}
	return int(min(x, 1<<30))
}
