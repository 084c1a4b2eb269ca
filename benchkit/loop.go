package benchkit

import (
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

// Batch timing of Loop: a batch is k iterations, timed with one
// time.Since (about 37 ns); k doubles until a batch lasts at least
// batchTarget. Batches go into batchSlots fixed slots; when they are full,
// neighbouring slots are merged pairwise and k doubles, so every slot holds
// the same number of iterations and memory does not depend on b.N.
const (
	batchTarget = 10 * time.Microsecond
	batchSlots  = 256
)

// batcher accumulates batch durations in fixed slots. Its zero value is
// ready: the first lap starts the clock.
type batcher struct {
	k       int // iterations per batch, 0 before the first lap
	base    time.Time
	last    time.Duration
	warm    bool // a batch of k iterations has lasted batchTarget
	used    int
	slots   [batchSlots]float64 // durations in ns of batches of k iterations
	batches int64               // batches recorded, merged or not
}

// lap ends a batch (or, on the first call, starts the clock) and returns
// the number of iterations in the next batch.
//
//go:noinline
func (t *batcher) lap() int {
	if t.k == 0 {
		t.base, t.k = time.Now(), 1
		return 1
	}
	now := time.Since(t.base)
	t.add(now - t.last)
	t.last = now
	return t.k
}

// add records a batch of t.k iterations that took d: while warming, it
// only doubles k; when the slots are full, it merges them pairwise and
// doubles k.
func (t *batcher) add(d time.Duration) {
	if !t.warm {
		if d < batchTarget {
			t.k *= 2
			return
		}
		t.warm = true
	}
	t.slots[t.used] = float64(d)
	t.used++
	t.batches++
	if t.used == batchSlots {
		for i := range batchSlots / 2 {
			t.slots[i] = t.slots[2*i] + t.slots[2*i+1]
		}
		t.used = batchSlots / 2
		t.k *= 2
	}
}

// perIter returns the slots as ns per iteration, oldest first.
func (t *batcher) perIter() []float64 {
	out := make([]float64, t.used)
	for i := range out {
		out[i] = t.slots[i] / float64(t.k)
	}
	return out
}

// Loop runs `for b.Loop() { f() }` for the benchmark b, keeping f's
// result alive, and times batches of iterations so that one run (-count=1)
// has a spread. It calls [Track] (joining it if Track was already called)
// and adds batchcv%, the CV of the run's batches, to the line and the
// batch timeline to the report. Each iteration pays an indirect call of f:
// for nanosecond-scale bodies use Track with a plain `for b.Loop()`. Only
// f's result is kept alive: a closure that returns an unrelated constant
// may be optimised down to it.
//
// Loop panics if b is nil and fails the benchmark if f is nil, if b.Loop
// already ran in this call of the benchmark function (a second Loop or
// LoopWithSetup), or inside a RunParallel body, where b.Loop cannot run.
func Loop[T any](b *testing.B, f func() T, opts ...Option) {
	if b == nil {
		panic("benchkit: Loop called with a nil *testing.B; pass the benchmark's own b: benchkit.Loop(b, func() T { ... })")
	}
	b.Helper()
	if !loopCheck(b, "Loop") {
		return
	}
	if f == nil {
		b.Fatal("benchkit: Loop called with a nil f; pass the function to measure, returning its result: benchkit.Loop(b, func() T { return work() })")
	}
	st := track(b, opts, "Loop", pause(b))
	var t batcher
	left := 1
	for b.Loop() {
		f()
		if left--; left == 0 {
			left = t.lap()
		}
	}
	st.timeline = t.perIter()
	if cv, ok := stats.CV(st.timeline); ok {
		st.within = cv
	}
}

// LoopWithSetup runs `for b.Loop()` with a per-iteration setup that is not
// timed: each iteration stops the timer, calls setup, starts the timer and
// calls f with setup's result, and keeps f's result alive. It calls [Track]
// and checks everything Track does. The timer pairs cost wall time that
// -benchtime does not count: when they cost more than the work it raises
// setup-cost, and when the run is headed past 100 × -benchtime (at least 2
// minutes, at most 5; never under -benchtime=Nx) it fails the benchmark at
// once. The fix for both is a pool of inputs made before the loop, or
// -benchtime=Nx (docs/troubleshooting.md).
//
// LoopWithSetup panics if b is nil and fails the benchmark as Loop does,
// and when setup or f is nil.
func LoopWithSetup[In, Out any](b *testing.B, setup func() In, f func(In) Out, opts ...Option) {
	if b == nil {
		panic("benchkit: LoopWithSetup called with a nil *testing.B; pass the benchmark's own b: benchkit.LoopWithSetup(b, setup, f)")
	}
	b.Helper()
	if !loopCheck(b, "LoopWithSetup") {
		return
	}
	if setup == nil || f == nil {
		b.Fatal("benchkit: LoopWithSetup called with a nil setup or f; pass both: benchkit.LoopWithSetup(b, func() In { return input() }, func(in In) Out { return work(in) })")
	}
	st := track(b, opts, "LoopWithSetup", pause(b))
	su := &setupStats{}
	guard := newSetupGuard(testflag.Read())
	var start time.Time
	for b.Loop() {
		if su.iters == 0 {
			start = time.Now()
		}
		b.StopTimer()
		t0 := time.Now()
		if guard.due(su.iters) {
			st.checkSetupRunaway(guard, su, t0.Sub(start))
		}
		in := setup()
		su.setup += time.Since(t0)
		b.StartTimer()
		f(in)
		su.iters++
	}
	if su.iters > 0 {
		su.wall = time.Since(start)
	}
	st.setup = su
}
