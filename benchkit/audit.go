package benchkit

import (
	"fmt"
	"math"
	"time"

	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// step is what Track saw of one call of the benchmark function: one runN
// of testing, so one ramp step of a b.N-style benchmark, or the whole
// measurement of a b.Loop-style one.
type step struct {
	N     int
	Timed time.Duration // b.Elapsed() at the end of the step
	Wall  time.Duration // wall time from Track's call to the step's end
	Wait  time.Duration // run-queue wait of the process's threads, 0 if unknown
	// Toggles counts the stop-the-world pauses other than GC during the
	// step: each StopTimer, StartTimer and ResetTimer with the timer on
	// reads runtime.MemStats, which stops the world once. -1 if unknown.
	Toggles int64
	// Paused is the total duration of those pauses, 0 if unknown: under
	// load, stopping the world can wait tens of µs for a descheduled thread.
	Paused time.Duration
	// Uncertain says no run-queue wait could be measured for this window
	// (outside Linux). Wait is then 0 and the timer audit concludes at most
	// timerSuspect.
	Uncertain bool
	// Tail is the wall time from the end of the timer's last timed stretch
	// to the end of the step (TailKnown false where testing's timer start
	// cannot be read, as on Windows). A timer stopped and never restarted
	// leaves the whole loop in the tail; a benchmark whose timer runs to
	// the end (b.ResetTimer after an untimed setup, per-iteration
	// Stop/Start) leaves only testing's own StopTimer there.
	Tail      time.Duration
	TailKnown bool
	// CPU is the process's CPU time during the step, all threads
	// together, CPUKnown false where it cannot be read (outside Linux).
	// Unlike the wall time it does not grow with the machine's load, and
	// unlike one thread's it does not depend on which threads the
	// benchmark's goroutine ran on.
	CPU      time.Duration
	CPUKnown bool
	// ThreadWait is, in a lockstep child, the benchmark thread's
	// run-queue wait during the step, -1 if unknown (another platform,
	// or the goroutine changed threads); the timer audit does not read
	// it. Elsewhere -1.
	ThreadWait time.Duration
}

// idle is the part of the step's wall time that was neither timed nor
// explained by the machine: the thread's run-queue wait and the
// stop-the-world pauses are both subtracted. They can overlap (a pause
// lasts longer while its thread waits for a CPU), so this is the smallest
// estimate of the time the benchmark's own code ran untimed.
func (s step) idle() time.Duration { return max(0, s.Wall-s.Timed-s.Wait-s.Paused) }

// idleHi is the largest estimate: only the larger of the two is
// subtracted, as if they overlapped completely.
func (s step) idleHi() time.Duration { return max(0, s.Wall-s.Timed-max(s.Wait, s.Paused)) }

// tails returns the step's tail net of the thread's wait and of the
// stop-the-world pauses (lo), and net of only the larger of the two (hi).
func (s step) tails() (lo, hi time.Duration) {
	return max(0, s.Tail-s.Wait-s.Paused), max(0, s.Tail-max(s.Wait, s.Paused))
}

// lastChance reports whether a suspect final step is evidence enough to
// fail: with -benchtime=Nx there is no later step to confirm it, so it
// needs a known tail and ≥ 100 µs of untimed time after the last timed
// stretch even on the generous estimate.
func (s step) lastChance() bool {
	_, hi := s.tails()
	return s.TailKnown && hi >= stoppedSureIdle && s.idleHi() >= stoppedSureIdle && s.dominant()
}

// dominant reports whether the untimed time that neither the thread's wait
// nor the stop-the-world pauses explain (step.idle) is at least half of
// the time the thread did not spend waiting for a CPU, as it is when the
// loop body runs with the timer stopped. A stall
// of a few hundred µs that the counters only partly explain (a
// stop-the-world pause waiting for other threads to stop, on a loaded
// machine under -race) leaves most of the wall time explained, and is
// only suspect: the next step decides.
func (s step) dominant() bool { return 2*s.idle() >= s.Wall-s.Wait }

// idleCPU is the process's CPU time beyond the timed time: at least the
// CPU the benchmark's own code spent untimed when it runs on one thread,
// however long it waited for a CPU (the timed time, wall clock, is at
// least the CPU one thread spends inside it). 0 when unknown.
func (s step) idleCPU() time.Duration {
	if !s.CPUKnown {
		return 0
	}
	return max(0, s.CPU-s.Timed)
}

// untimed is the part of the step's wall time that was not timed.
func (s step) untimed() time.Duration { return max(0, s.Wall-s.Timed) }

// Thresholds of the timer audit; see stoppedTimer and heavyToggling.
const (
	// stoppedMinGrowth is the least b.N growth between ramp steps at which
	// a timed time that does not follow b.N is meaningful.
	stoppedMinGrowth = 10
	// stoppedPerOpDrop: timed ns/op must fall by more than this factor
	// between the steps (it stays about constant in any benchmark whose
	// timer runs around the work, cold first step aside).
	stoppedPerOpDrop = 10
	// stoppedMinIdle and stoppedIdleRatio: the untimed wall time must be at
	// least this long (stoppedSureIdle for a conclusion without doubt) and
	// this many times the timed time, so the ramp's own bookkeeping (two
	// stop-the-world pauses, 10–40 µs in all under load) never qualifies.
	stoppedMinIdle   = 50 * time.Microsecond
	stoppedSureIdle  = 100 * time.Microsecond
	stoppedIdleRatio = 10
	// stoppedIdleGrowth: the untimed time must have grown with b.N, to at
	// least this many times the previous step's (it is the loop body
	// running untimed); a fixed overhead that happened to be large once
	// does not grow.
	stoppedIdleGrowth = 3
	// togglingMinIdle and togglingIdleRatio: heavy toggling is reported
	// when the timer was off at least this long and for more than 90% of
	// the non-waiting wall time, with at least togglingMinToggles toggles.
	togglingMinIdle    = 10 * time.Millisecond
	togglingIdleRatio  = 9
	togglingMinToggles = 16
	// setupMinOverhead: the LoopWithSetup warning needs the stop/start pairs to
	// cost at least this much wall time in total.
	setupMinOverhead = 10 * time.Millisecond
)

// timerVerdict is the timer audit's conclusion about one ramp step.
type timerVerdict int

const (
	timerOK      timerVerdict = iota
	timerSuspect              // stopped, unless the machine's load explains the untimed time
	timerStopped
)

// stoppedTimer judges cur, the ramp step that followed prev in the same
// b.N-style benchmark. A timer stopped and never started again shows as:
// b.N grew at least 10×; the timed time did not grow with it (timed ns/op
// fell more than 10×); the timer was not toggled once per iteration (fewer
// stop-the-world pauses than N/2, which sets it apart from legitimate
// per-iteration StopTimer/StartTimer, whose timed time grows with b.N);
// the untimed time is ≥ 10× the timed time and ≥ 3× the previous step's,
// because the loop body ran untimed; and, where testing's timer start can
// be read, at least half of it came after the last timed stretch (an
// untimed setup before b.ResetTimer comes before it).
//
// The untimed time is judged three ways: net of both the thread's
// run-queue wait and the stop-the-world pauses (step.idle), which must be
// ≥ 100 µs for timerStopped; as the process's CPU time beyond the timed
// time (step.idleCPU), which must be ≥ 100 µs and at least half its CPU
// time for timerStopped, whatever the load (a thread that waits for a CPU
// is not charged CPU); and net of only the larger of wait and pauses
// (step.idleHi), which must be ≥ 50 µs for timerSuspect: the load could
// explain it. A step
// whose wait is unknown is at most suspect, and so is one where the
// unexplained untimed time is less than half the wall time (step.dominant). Track fails the benchmark on
// timerStopped, on a second timerSuspect in a row, and on a timerSuspect
// final step that meets step.lastChance.
func stoppedTimer(prev, cur step) timerVerdict {
	if prev.N <= 0 || cur.N < stoppedMinGrowth*prev.N {
		return timerOK
	}
	growth := float64(cur.N) / float64(prev.N)
	if float64(cur.Timed)*stoppedPerOpDrop > float64(prev.Timed)*growth {
		return timerOK
	}
	if cur.Toggles >= 0 && cur.Toggles >= int64(cur.N)/2 {
		return timerOK
	}
	grew := func(idle, before, least, tail time.Duration) bool {
		if cur.TailKnown && (tail < least || 2*tail < idle) {
			return false // the timer ran until the end: untimed setup, not a stopped timer
		}
		return idle >= least && idle >= stoppedIdleRatio*cur.Timed && idle >= stoppedIdleGrowth*before
	}
	tailLo, tailHi := cur.tails()
	switch {
	case grew(cur.idle(), prev.idleHi(), stoppedSureIdle, tailLo) && !cur.Uncertain && cur.dominant():
		return timerStopped
	case cur.CPUKnown && grew(cur.idleCPU(), prevUntimedCPU(prev), stoppedSureIdle, cur.Tail) && 2*cur.idleCPU() >= cur.CPU:
		return timerStopped
	case grew(cur.idleHi(), prev.idle(), stoppedMinIdle, tailHi):
		return timerSuspect
	}
	return timerOK
}

// prevUntimedCPU is the previous step's untimed time to compare the CPU
// evidence with: its CPU beyond the timed time, or where that is unknown
// its largest wall-clock estimate.
func prevUntimedCPU(prev step) time.Duration {
	if prev.CPUKnown {
		return prev.idleCPU()
	}
	return prev.idleHi()
}

// stoppedAloneIdle is the untimed time, unexplained by waits and pauses,
// above which one step is evidence enough: no cold start or missed stall
// lasts 10 ms, while a stopped timer around a body of 100 µs or more
// reaches it at b.N = 100.
const stoppedAloneIdle = 10 * time.Millisecond

// stoppedAlone reports whether cur, judged timerStopped after prev, is
// evidence enough on its own: the timed time did not grow (at most 2×;
// a stopped timer's timed part is only what ran before StopTimer) and the
// unexplained untimed time reached stoppedAloneIdle.
func stoppedAlone(prev, cur step) bool {
	return cur.Timed <= 2*prev.Timed && cur.idle() >= stoppedAloneIdle
}

// stoppedMessage returns the headline (the benchmark's failure) and the
// detail (the report); late says the step before showed it too.
func stoppedMessage(name string, prev, cur step, late bool) (head, detail string) {
	head = fmt.Sprintf("benchkit: %s: the timer is stopped and never started again: b.N grew from %d to %d, the timed time from %s to %s. "+
		"Fix: call b.StartTimer()", name, prev.N, cur.N, textfmt.Dur(prev.Timed), textfmt.Dur(cur.Timed))
	return head, stoppedDetail(name, prev, cur, late)
}

func stoppedDetail(name string, prev, cur step, late bool) string {
	note := ""
	if late {
		note = fmt.Sprintf(" (b.N = %d showed it too)", prev.N)
	}
	grew := "an unknown factor"
	if prev.Timed > 0 {
		grew = fmt.Sprintf("×%.2g", float64(cur.Timed)/float64(prev.Timed))
	}
	return fmt.Sprintf("benchkit: %s: the timer is stopped and never started again: "+
		"b.N grew from %d to %d but the timed time by %s (%s, then %s) while the wall time did (%s untimed of %s)%s; "+
		"testing would keep ramping b.N to 1e9 and report about 0 ns/op. "+
		"Fix: call b.StartTimer() after the untimed part (or use benchkit.LoopWithSetup for per-iteration setup)",
		name, prev.N, cur.N, grew, textfmt.Dur(prev.Timed), textfmt.Dur(cur.Timed), textfmt.Dur(cur.idleHi()), textfmt.Dur(cur.Wall), note)
}

// heavyToggling reports whether a final step spent most of its wall time
// with the timer stopped because the timer was toggled many times: the
// untimed time is ≥ 10 ms and more than 9× the timed time (timed fraction
// of the wall time below 10%), with ≥ 16 stop-the-world pauses.
func heavyToggling(s step) bool {
	idle := s.untimed()
	return s.Toggles >= togglingMinToggles && idle >= togglingMinIdle && idle > togglingIdleRatio*s.Timed
}

// togglingMessage returns the headline (logged) and the detail (report).
func togglingMessage(name string, s step) (head, detail string) {
	head = fmt.Sprintf("benchkit: %s: the timer was off for %.0f%% of %s wall time (%d stop-the-world pauses). "+
		"Fix: inputs made before the loop, or benchkit.LoopWithSetup", name,
		100*float64(s.untimed())/float64(max(s.Wall, 1)), textfmt.Dur(s.Wall), s.Toggles)
	return head, togglingDetail(name, s)
}

func togglingDetail(name string, s step) string {
	return fmt.Sprintf("benchkit: %s: the timer was stopped for %s of the run's %s wall time (timed %s, %.1f%%), "+
		"with %d stop-the-world pauses: each StopTimer/StartTimer pair costs about 10 µs (two runtime.ReadMemStats), "+
		"and testing grows b.N until the timed time reaches -benchtime, so the wall time balloons. "+
		"Fix: prepare inputs in bulk before the loop, or use benchkit.LoopWithSetup, which reports the pairs' cost, and a fixed -benchtime=Nx",
		name, textfmt.Dur(s.untimed()), textfmt.Dur(s.Wall), textfmt.Dur(s.Timed),
		100*float64(s.Timed)/float64(max(s.Wall, 1)), s.Toggles)
}

// floorFactor: a run at most this many times the calibrated cost of an
// empty loop iteration is flagged as probably eliminated. An empty
// `for b.Loop() {}` costs about 1.6× an empty counted loop, a kept
// one-multiply body about 4× (go-ground §6.2–6.3).
const floorFactor = 2.5

// onCPUFactor: a run whose time only comes within floorFactor of the
// floor once the thread's run-queue wait is taken out must come within
// this many times the floor. The wait is an estimate (the scheduler's
// delays on the threads the goroutine ran on) that over-subtracts under
// contention, which can bring a correct body of a few instructions (about
// 2.8× the floor alone) under floorFactor; this stricter bound keeps it
// unflagged, while an eliminated `for b.Loop() {}` body (about 1.6× the
// floor) stays flagged unless the correction leaves more than a quarter
// of its wait in.
const onCPUFactor = 2.0

// eliminated reports whether a run is at or near the empty-loop floor (in
// ns): its ns/op within floorFactor of it, or its on-CPU ns/op (ns/op
// without the thread's run-queue wait; equal to nsPerOp when no wait was
// measured) within onCPUFactor. An unknown floor (0) never flags.
func eliminated(nsPerOp, onCPU, floor float64) bool {
	return floor > 0 && (nearFloor(nsPerOp, floor) || onCPU <= onCPUFactor*floor)
}

// nearFloor reports whether testing's ns/op alone is within floorFactor
// of the floor (in ns), with no help from the wait correction.
func nearFloor(nsPerOp, floor float64) bool {
	return nsPerOp <= floorFactor*floor
}

// eliminatedMessage returns the headline (logged) and the detail
// (report): nsPerOp is testing's, onCPU the same without the thread's
// run-queue wait.
func eliminatedMessage(name string, nsPerOp, onCPU, floor float64) (head, detail string) {
	at, factor := fmt.Sprintf("%.3g ns/op", nsPerOp), floorFactor
	long := at
	if !nearFloor(nsPerOp, floor) { // only the on-CPU time came close enough
		at, factor = fmt.Sprintf("%s (%.3g on CPU)", at, onCPU), onCPUFactor
		long = fmt.Sprintf("%s (%.3g ns/op on CPU, without the time the thread waited for one)", long, onCPU)
	}
	head = fmt.Sprintf("benchkit: %s: %s is within %.1f× of an empty loop iteration (%.3g ns): the work was probably eliminated. "+
		"Fix: sink.Keep, sink.Opaque", name, at, factor, floor)
	return head, eliminatedDetail(name, long, factor, floor)
}

func eliminatedDetail(name, at string, factor, floor float64) string {
	return fmt.Sprintf("benchkit: %s: %s is within %.1f× of an empty loop iteration on this machine (%.3g ns): "+
		"the work was probably eliminated by the compiler (dead code or constant folding), or it is a few instructions "+
		"that timing cannot tell from an empty loop (the assembly can: go test -gcflags=-S). "+
		"Fix: keep the result with sink.Keep(result) or write the loop as `for b.Loop() { ... }`; "+
		"pass constant inputs through sink.Opaque; check with go test -gcflags=-m",
		name, at, factor, floor)
}

// allocsShort reports whether allocsPerOp rounds to fewer than expect.
func allocsShort(allocsPerOp float64, expect int) bool {
	return expect > 0 && allocsPerOp+0.5 < float64(expect)
}

// allocsMessage returns the headline (logged) and the detail (report).
func allocsMessage(name string, allocsPerOp float64, n, expect int) (head, detail string) {
	head = fmt.Sprintf("benchkit: %s: %.2f allocs/op, but ExpectAllocs(%d) declared at least %d: the allocating work probably did not run. "+
		"Fix: sink.Keep(result)", name, allocsPerOp, expect, expect)
	return head, allocsDetail(name, allocsPerOp, n, expect)
}

func allocsDetail(name string, allocsPerOp float64, n, expect int) string {
	total := int64(math.Round(allocsPerOp * float64(n)))
	return fmt.Sprintf("benchkit: %s: %.2f allocs/op (%d allocations in %d iterations), but ExpectAllocs(%d) declared at least %d: "+
		"the allocating work probably did not run (its result was discarded and the call removed) "+
		"or no longer escapes to the heap. "+
		"Fix: keep the result with sink.Keep(result) or use `for b.Loop() { ... }`; check with go test -gcflags=-m",
		name, allocsPerOp, total, n, expect, expect)
}

// setupCostly reports whether LoopWithSetup's stop/start pairs cost more wall
// time than the measured work, and at least 10 ms in total.
func setupCostly(pairs time.Duration, work time.Duration) bool {
	return pairs >= setupMinOverhead && pairs > work
}

// setupMessage returns the headline (logged) and the detail (report).
func setupMessage(name string, iters int, pairs, setup, work time.Duration) (head, detail string) {
	head = fmt.Sprintf("benchkit: %s: %d StopTimer/StartTimer pairs cost %s of wall time against %s of measured work. "+
		"Fix: a pool of inputs, or -benchtime=Nx", name, iters, textfmt.Dur(pairs), textfmt.Dur(work))
	return head, setupDetail(name, iters, pairs, setup, work)
}

func setupDetail(name string, iters int, pairs, setup, work time.Duration) string {
	per := time.Duration(0)
	if iters > 0 {
		per = pairs / time.Duration(iters)
	}
	return fmt.Sprintf("benchkit: %s: %d StopTimer/StartTimer pairs cost %s of wall time (%s each, two stop-the-world ReadMemStats) "+
		"against %s of measured work (plus %s of setup): the run took %.1f× the wall time of its work. "+
		"Fix: if the setup is cheap, prepare a pool of inputs before the loop and cycle through it; "+
		"otherwise bound the run with -benchtime=Nx",
		name, iters, textfmt.Dur(pairs), textfmt.Dur(per), textfmt.Dur(work), textfmt.Dur(setup),
		float64(pairs+setup+work)/float64(max(work, 1)))
}

// maxN is testing's cap on b.N (maxBenchPredictIters).
const maxN = 1_000_000_000

// final reports whether a step with b.N = n and timed time timed is the
// measured run that testing prints, rather than a ramp step it discards.
// It mirrors testing's launch loop: with -benchtime=Nx the run with N = n
// (or the first run when n is 1); with a duration d, a run whose timed
// time reached d or whose N reached the 1e9 cap. A b.Loop-style benchmark
// runs once and always meets one of these conditions.
func final(bt testflag.Benchtime, n int, timed time.Duration) bool {
	if bt.N > 0 {
		return n == bt.N || bt.N == 1
	}
	return timed >= bt.D || n >= maxN
}
