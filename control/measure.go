package control

import (
	"fmt"
	"math/rand/v2"
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
	// allocs and bytes per operation of the baseline, from its warm-up
	// batch; -1 when not measured.
	allocsPerOp, bytesPerOp float64
	// stopped says why measuring ended before the budget, or "".
	stopped  string
	warnings []string
	elapsed  time.Duration
}

// schedule hands out round orders in balanced blocks: each block of m
// rounds is a cyclic Latin square over a fresh random permutation, with its
// rows in random order, so every implementation takes every position once
// per block and the neighbours change from block to block.
type schedule struct {
	rng   *rand.Rand
	m     int
	block [][]int
}

func newSchedule(m int, seed uint64) *schedule {
	return &schedule{rng: rand.New(rand.NewPCG(seed, seed^0xda942042e4dd58b5)), m: m}
}

func (s *schedule) next() []int {
	if len(s.block) == 0 {
		p := s.rng.Perm(s.m)
		s.block = make([][]int, s.m)
		for j := range s.block {
			row := make([]int, s.m)
			for k := range row {
				row[k] = p[(k+j)%s.m]
			}
			s.block[j] = row
		}
		s.rng.Shuffle(len(s.block), func(a, b int) { s.block[a], s.block[b] = s.block[b], s.block[a] })
	}
	o := s.block[0]
	s.block = s.block[1:]
	return o
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
	now := cfg.now
	start := now()
	deadline := start.Add(budget)
	ms = measurement{allocsPerOp: -1, bytesPerOp: -1}
	defer func() { ms.elapsed = now().Sub(start) }()
	fail := func(format string, args ...any) measurement {
		ms.stopped = fmt.Sprintf(format, args...)
		return ms
	}

	// One call of each implementation: none may exceed the budget alone.
	for _, im := range impls {
		if d := timeBatch(now, im, 1); d > budget {
			return fail("one call of %q took %s, more than the whole budget of %s: raise -benchtime or give it a smaller input", im.name, textfmt.Dur(d), textfmt.Dur(budget))
		}
	}

	// Calibrate on the baseline: ×10 until a batch takes a tenth of the
	// target, then scale; check once more at the scaled count.
	n := 1
	for {
		d := timeBatch(now, impls[0], n)
		if !now().Before(deadline) {
			return fail("calibrating %q used the whole budget of %s (%d calls took %s): raise -benchtime", impls[0].name, textfmt.Dur(budget), n, textfmt.Dur(d))
		}
		if d >= cfg.batchTime/10 || n > 1<<26 {
			n = scale(n, d, cfg.batchTime)
			if d2 := timeBatch(now, impls[0], n); d2 > 0 {
				n = scale(n, d2, cfg.batchTime)
			}
			break
		}
		n *= 10
	}
	ms.iters = n

	// Closure-call overhead: the median of 5 batches of a closure returning
	// the zero value, with a count large enough (≥ n, batch ≥ 20µs) that
	// the clock reads do not dominate.
	ne := n
	for ne < 1<<30 {
		if d := timeBatch(now, Impl{name: "empty", run: impls[0].empty}, ne); d >= 20*time.Microsecond || d > cfg.batchTime {
			break
		}
		ne *= 4
	}
	var ov []float64
	for range 5 {
		t0 := now()
		impls[0].empty(ne)
		ov = append(ov, float64(now().Sub(t0))/float64(ne))
	}
	ms.overhead, _ = stats.Median(ov)

	// Warm-up round, discarded; it also measures the baseline's allocations
	// and predicts the round time.
	runtime.GC()
	var round, slowest time.Duration
	for i, im := range impls {
		if !now().Before(deadline) {
			return fail("the warm-up round did not fit in the budget of %s (%d iterations per batch): raise -benchtime", textfmt.Dur(budget), n)
		}
		var m0, m1 runtime.MemStats
		if i == 0 {
			runtime.ReadMemStats(&m0)
		}
		d := timeBatch(now, im, n)
		if i == 0 {
			runtime.ReadMemStats(&m1)
			ms.allocsPerOp = float64(m1.Mallocs-m0.Mallocs) / float64(n)
			ms.bytesPerOp = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n)
		}
		if d > budget {
			return fail("one batch of %q (%d calls) took %s, more than the whole budget of %s: raise -benchtime or give it a smaller input", im.name, n, textfmt.Dur(d), textfmt.Dur(budget))
		}
		round += d
		slowest = max(slowest, d)
	}
	// Keep the slowest implementation's batch under 10 batch times: a
	// candidate 100× slower than the baseline would otherwise make every
	// round 100 batch times long.
	if limit := 10 * cfg.batchTime; slowest > limit && n > 1 {
		n = max(1, int(float64(n)*float64(limit)/float64(slowest)))
		round = time.Duration(float64(round) * float64(n) / float64(ms.iters))
		ms.warnings = append(ms.warnings, fmt.Sprintf("the slowest batch took %s, over 10 batch times: the count per batch was lowered from %d to %d", textfmt.Dur(slowest), ms.iters, n))
		ms.iters = n
	}

	ms.ns = make([][]float64, len(impls))
	sched := newSchedule(len(impls), cfg.seed)
	times := make([]time.Duration, len(impls))
	zero := 0
	for r := 0; r < maxRounds; r++ {
		if now().Add(round).After(deadline) {
			break
		}
		t0 := now()
		complete := true
		for _, i := range sched.next() {
			if !now().Before(deadline) {
				complete = false
				break
			}
			times[i] = timeBatch(now, impls[i], n)
		}
		if !complete {
			break
		}
		round = now().Sub(t0)
		if slices.Min(times) <= 0 {
			zero++ // a clock too coarse for the batch: no ratio
			continue
		}
		for i, d := range times {
			ms.ns[i] = append(ms.ns[i], float64(d)/float64(n))
		}
	}
	if zero > 0 {
		ms.warnings = append(ms.warnings, fmt.Sprintf("%s dropped: a batch of %d calls read 0ns on this clock; raise BatchTime", textfmt.Plural(zero, "round"), n))
	}
	return ms
}

// scale returns the count that makes a batch of n calls taking d last
// target, at least 1.
func scale(n int, d, target time.Duration) int {
	if d <= 0 {
		return n * 10
	}
	s := int(float64(n) * float64(target) / float64(d))
	return max(1, min(s, 1<<30))
}
