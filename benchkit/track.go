package benchkit

import (
	"flag"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/settings"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/session"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/testingb"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Units of the metrics Track and Loop report on the benchmark's line.
// benchstat keeps them as they are (no "ns" or "MB" token to rescale) and
// prints values below 1 with a milli prefix: 530.0m cv% is 0.53%.
const (
	unitCV      = "cv%"      // CV of ns/op across this benchmark's repeats so far
	unitWait    = "wait%"    // run-queue wait over wall time
	unitBatchCV = "batchcv%" // CV of Loop's batch times within one run
)

// calibrateBelow: the empty-loop floor is measured only for runs faster
// than this, so a process whose benchmarks are all slower never pays for it.
const calibrateBelow = 10.0 // ns/op

// state is what Track keeps about one *testing.B between Track's call and
// the last ramp step, in states. A new -count repeat or -cpu value gets a
// new *testing.B, hence a new state.
type state struct {
	b *testing.B
	// procs is the -cpu value testing prints for b's run, and key the
	// registry key: b.Name() (nameOf), plus "-P" when procs P != 1
	// (procsOf).
	procs int
	key   string

	mu      sync.Mutex
	cfg     config
	active  bool // between the step's first Track/Loop/LoopWithSetup and its cleanup
	tracked bool // Track itself was called in this step

	// start of the current step
	wall0 time.Time
	cont0 env.Contention
	stw0  int64 // stop-the-world pauses so far, -1 unknown
	stwT0 time.Duration
	mem0  uint64 // runtime.MemStats.Mallocs, only when testingb cannot read netAllocs
	memB0 uint64
	th0   threadSample
	cpu0  time.Duration // the process's CPU time, when cpuOK
	cpuOK bool
	// noWait is set in a lockstep child, whose parent reads only the
	// timed time and the counts: the run-queue probes (a few hundred µs
	// of /proc reads a step) are skipped, and the wait is unknown.
	noWait bool
	// gc0 is the collector's state at the step's start, in a lockstep
	// child: after the collection testing forces before every run.
	gc0 env.GC
	// lw0 is the benchmark thread's run-queue wait at the step's start,
	// in a lockstep child (the one probe it reads).
	lw0 threadWait

	// previous step of the same b (b.N-style ramp)
	prev     step
	havePrev bool
	suspect  bool // the timer audit found prev suspect

	// set by Loop and LoopWithSetup during the current step
	within   float64 // batch CV in percent, -1 none
	timeline []float64
	setup    *setupStats
}

// setupStats is what LoopWithSetup measured of its stop/start pairs.
type setupStats struct {
	iters int
	wall  time.Duration // wall time of the whole loop
	setup time.Duration // time spent in the setup function
}

var states sync.Map // *testing.B → *state

// Track audits and records the benchmark b: it records the run under the
// name go test prints, for [Main]'s report, checks it (see the package
// doc), and adds cv% (the CV of ns/op over this benchmark's -count repeats
// so far, from the second on) and wait% (the time its threads waited for
// a CPU, over wall time; Linux) to its line, never NaN or Inf, leaving
// ns/op alone; -benchkit.metrics=off (or BENCHKIT_METRICS=off, with or
// without Main) leaves them off the line.
//
// Call Track once, at the top of the benchmark function, before any
// b.StopTimer; it works with `for b.Loop()` and `for range b.N` bodies, in
// sub-benchmarks, and with -count, -cpu lists and -benchtime=Nx. It panics
// if b is nil. A second call in one run (Loop and LoopWithSetup call it) is
// ignored and flagged as misuse. A benchmark that skips or fails records
// nothing. One that calls b.Run is not measured itself: Track there
// records nothing and raises misuse (call it in the functions given to
// b.Run). In a RunParallel benchmark call Track before b.RunParallel:
// inside the body it is ignored, with a misuse flag.
func Track(b *testing.B, opts ...Option) {
	if b == nil {
		panic("benchkit: Track called with a nil *testing.B; pass the benchmark's own b: func BenchmarkX(b *testing.B) { benchkit.Track(b); ... }")
	}
	if inParallelBody(1) {
		b.Helper()
		parallelMisuse(b, "Track", false)
		return
	}
	restart := pause(b)
	b.Helper() // after pause: Helper costs µs the benchmark must not pay
	track(b, opts, "Track", restart)
}

// pause stops b's timer if it is running (or if that is unknown) and
// reports whether track must start it again, so that a b.N-style
// benchmark, whose timer runs when Track is called, is charged for none of
// Track's work.
func pause(b *testing.B) (restart bool) {
	on, known := testingb.TimerOn(b)
	restart = on || !known
	if restart {
		b.StopTimer()
	}
	return restart
}

// track starts the step's audit for b, or joins the one already started
// in this step. by names the caller for the misuse message.
// The timer was paused by pause, which said whether to restart it.
func track(b *testing.B, opts []Option, by string, restart bool) *state {
	// Messages logged from the cleanup are attributed to the line where
	// b.Cleanup was called, through the helpers: the user's Track call.
	b.Helper()
	logInternals(b) // says once if this Go release moved testing.B's fields
	st := join(b, opts, by)
	if st != nil {
		b.Cleanup(st.end)
		if l := child.Lockstep(); l != nil {
			l.Begin() // a lockstep child's first run waits for the parent's go
			st.noWait = true
			if h := env.ReadGC(); h.HeapGoal >= 0 && h.HeapLive >= 0 {
				child.GCPhase(h.HeapGoal - h.HeapLive)
			}
			st.gc0 = env.ReadGC() // after the phase's garbage: its collections are not the run's
		}
		if !st.noWait {
			st.cont0 = env.ReadContention()
		}
		st.stw0, st.stwT0 = readSTW()
		if _, _, ok := testingb.Allocs(b); !ok {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			st.mem0, st.memB0 = ms.Mallocs, ms.TotalAlloc
		}
		if !st.noWait {
			st.th0 = readThread()
			st.cpu0, st.cpuOK = readProcessCPU()
		} else {
			st.lw0 = readThreadWait()
		}
		// The step's window starts here, before StartTimer: its
		// stop-the-world pause, and any wait for a CPU during it, are then
		// inside the window like the counters that see them.
		st.wall0 = time.Now()
	}
	if restart {
		b.StartTimer()
	}
	if st == nil {
		v, _ := states.Load(b)
		return v.(*state)
	}
	return st
}

// join returns b's state with a new step started, or nil when a step is
// already running (Track was called before in this run of the benchmark
// function, or Loop or LoopWithSetup after Track): Loop and LoopWithSetup then add their
// options to it, and a second Track is flagged as misuse.
func join(b *testing.B, opts []Option, by string) *state {
	v, ok := states.Load(b)
	if !ok {
		procs := procsOf(b)
		v, _ = states.LoadOrStore(b, &state{b: b, procs: procs, key: benchname.Printed(nameOf(b), procs)})
	}
	st := v.(*state)
	st.mu.Lock()
	if st.active {
		dup := by == "Track"
		if !dup {
			st.cfg.add(opts)
		}
		st.mu.Unlock()
		if dup {
			b.Helper()
			st.raise(registry.Flag{Kind: registry.FlagMisuse, Message: trackTwiceMessage(nameOf(b))})
		}
		return nil
	}
	st.active = true
	st.tracked = by == "Track"
	st.cfg = newConfig(opts)
	st.within, st.timeline, st.setup = -1, nil, nil
	st.mu.Unlock()
	return st
}

// procsOf returns the GOMAXPROCS value testing prints in b's name (the
// "-P" suffix), so that the runs of a -cpu list are filed apart, under the
// names go test prints (testingb.Procs: testing calls a benchmark's
// function once before it sets the first -cpu value, golang/go#49980).
func procsOf(b *testing.B) int { return testingb.Procs(b) }

// readSTW returns the number of non-GC stop-the-world pauses so far in the
// process (each runtime.ReadMemStats is one) and their total duration,
// estimated from the histogram's bucket midpoints; n is -1 if unavailable.
func readSTW() (n int64, total time.Duration) {
	s := []metrics.Sample{{Name: "/sched/pauses/total/other:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return -1, 0
	}
	h := s[0].Value.Float64Histogram()
	sec := 0.0
	for i, c := range h.Counts {
		if c == 0 {
			continue
		}
		n += int64(c)
		lo, hi := h.Buckets[i], h.Buckets[i+1]
		mid := (lo + hi) / 2
		switch {
		case math.IsInf(lo, -1):
			mid = hi
		case math.IsInf(hi, 1):
			mid = lo
		}
		sec += float64(c) * mid
	}
	return n, time.Duration(sec * 1e9)
}

// stepEnd is how a call of the benchmark function ended, for a lockstep
// parent.
type stepEnd int

const (
	stepRamp   stepEnd = iota // a ramp step testing discards
	stepFinal                 // the run testing prints
	stepParent                // b called b.Run: not measured itself
	stepSkip
	stepFail
)

// end runs as b.Cleanup after each call of the benchmark function. In a
// lockstep child it then reports the step to the parent and waits for
// the next go.
func (st *state) end() {
	st.b.Helper()
	how, cur := st.endStep()
	if l := child.Lockstep(); l != nil {
		lockstepReport(l, st.b, how, cur, st.gc0, env.ReadGC())
	}
}

// lockstepReport tells the lockstep parent how the step ended, with what
// the collector did between gc0 and gc1, and waits; a ramp step is not
// reported, so that each run costs the parent one exchange.
func lockstepReport(l *child.Link, b *testing.B, how stepEnd, cur step, gc0, gc1 env.GC) {
	switch how {
	case stepParent:
		return // the sub-benchmarks report their own steps
	case stepRamp:
		return // testing's N=1 call before the run: it goes straight on
	case stepSkip:
		l.Skip(testingb.Output(b))
	case stepFail:
		l.Fail(testingb.Output(b))
	default:
		allocs, bytes := int64(-1), int64(-1)
		if a, by, ok := testingb.Allocs(b); ok {
			allocs, bytes = int64(a), int64(by)
		}
		s := child.Step{N: cur.N, TimedNs: int64(cur.Timed), Allocs: allocs, Bytes: bytes, Final: how == stepFinal,
			GCCycles: -1, GCCPUNs: -1, HeapGoal: gc0.HeapGoal, HeapLive: gc0.HeapLive, WaitNs: int64(cur.ThreadWait)}
		if gc0.Cycles >= 0 && gc1.Cycles >= 0 {
			s.GCCycles = gc1.Cycles - gc0.Cycles
		}
		if gc0.CPUNs >= 0 && gc1.CPUNs >= 0 {
			s.GCCPUNs = gc1.CPUNs - gc0.CPUNs
		}
		l.Step(s)
	}
}

// endStep ends one call of the benchmark function: it reads the counters,
// runs the timer audit, and records and checks the run testing prints.
func (st *state) endStep() (stepEnd, step) {
	b := st.b
	b.Helper()
	cur, cont, th := st.measure(time.Now())

	st.mu.Lock()
	st.active = false
	st.mu.Unlock()

	forget := func() { states.Delete(b) }
	if b.Skipped() {
		forget()
		return stepSkip, cur
	}
	if has, ok := testingb.HasSub(b); ok && has {
		forget()
		if st.tracked {
			st.parentTracked()
		}
		return stepParent, cur
	}
	isFinal := final(testflag.Read(), b.N, cur.Timed)
	if st.auditTimer(cur, isFinal) {
		forget()
		return stepFail, cur
	}
	if b.Failed() || b.N <= 0 {
		forget()
		return stepFail, cur
	}
	if !isFinal {
		return stepRamp, cur
	}
	forget()
	st.record(cur, cont, th)
	if b.Failed() {
		return stepFail, cur // a flag failed it
	}
	return stepFinal, cur
}

// measure reads the step that ends at now from the counters started at its
// beginning: timed and wall time, the timer's toggles and tail, the
// process's CPU time and the benchmark thread's wait. It also returns the
// process's contention and the thread's counters over the step, which
// record reports for the final step.
func (st *state) measure(now time.Time) (step, env.Contention, threadDelta) {
	b := st.b
	wall := now.Sub(st.wall0)
	timed := b.Elapsed()
	var cont env.Contention
	var th threadDelta
	var cpu time.Duration
	cpuOK := false
	if !st.noWait {
		cont, th = env.ReadContention().Sub(st.cont0), readThread().sub(st.th0)
		if c, ok := readProcessCPU(); ok && st.cpuOK {
			cpu, cpuOK = max(0, c-st.cpu0), true
		}
	}
	toggles, paused := int64(-1), time.Duration(0)
	if stw, stwT := readSTW(); stw >= 0 && st.stw0 >= 0 {
		toggles, paused = stw-st.stw0, max(0, stwT-st.stwT0)
	}
	cur := step{N: b.N, Timed: timed, Wall: wall, Toggles: toggles, Paused: paused, CPU: cpu, CPUKnown: cpuOK}
	if start, ok := testingb.TimerStart(b); ok {
		if end, ok := testingb.Monotonic(now); ok {
			// timed is the time since the timer's last start (or reset)
			// plus earlier stretches, so start+timed is at or after the end
			// of the last timed stretch: the tail is never overestimated.
			cur.Tail, cur.TailKnown = max(0, time.Duration(end-start)-timed), true
		}
	}
	cur.Wait, cur.Uncertain = stepWait(th, cont, wall)
	cur.ThreadWait = -1
	if st.noWait {
		if w, ok := readThreadWait().since(st.lw0); ok {
			cur.ThreadWait = timedShare(w, timed, wall)
		}
	}
	return cur, cont, th
}

// timedShare is the part of a wait over a step of wall time wall that
// fell in its timed time timed, at least: a wait lengthens whichever
// stretch it falls in, so the untimed stretches (wall − timed) can hold
// at most that much of it, and the rest, W − (wall − timed), was timed.
// The bound takes the untimed stretches' own work as nil, so it leaves
// in at most that work's length of wait (tens of µs); it is never more
// than the wait or than timed.
func timedShare(wait, timed, wall time.Duration) time.Duration {
	if timed <= 0 || wait <= 0 {
		return 0
	}
	return min(max(0, wait-max(0, wall-timed)), timed)
}

// stepWait is the benchmark thread's wait for a CPU during a step of wall
// time wall, and whether it is unknown (then the wait is 0).
func stepWait(th threadDelta, cont env.Contention, wall time.Duration) (wait time.Duration, unknown bool) {
	switch {
	case th.waitOK && th.wait <= wall:
		// The thread's wait, or, if the goroutine changed threads (likely
		// in a step of more than a few ms), both threads' waits together.
		return th.wait, false
	case cont.WaitKnown:
		// A wait counter moved by more than the wall time (a wait that
		// began earlier, booked late): the process's wait, all threads
		// together, bounds the benchmark thread's from above.
		return min(cont.RunQueueWait, wall), false
	default:
		return 0, true
	}
}

// auditTimer judges whether the timer was stopped over the step cur,
// which is the run testing prints when isFinal, and fails the benchmark
// with the evidence when it was; it reports whether it failed it.
// One step is not enough: a cold first iteration and a stall the counters
// miss can look like a stopped timer once. A step fails when the one
// before it was suspect too, when it alone is overwhelming (stoppedAlone),
// or when it is the last (-benchtime=Nx has only two) with strong evidence.
func (st *state) auditTimer(cur step, isFinal bool) bool {
	b := st.b
	b.Helper()
	v := timerOK
	if st.havePrev {
		v = stoppedTimer(st.prev, cur)
	}
	if v != timerOK && (st.suspect || v == timerStopped && stoppedAlone(st.prev, cur) || isFinal && cur.lastChance()) {
		head, detail := stoppedMessage(nameOf(b), st.prev, cur, st.suspect)
		registry.Default().AddFlag(st.key, registry.Flag{Kind: registry.FlagTimerStopped, Message: head, Detail: detail, Failed: true})
		b.Error(head)
		return true
	}
	st.prev, st.havePrev, st.suspect = cur, true, v != timerOK
	return false
}

// record adds the final step to the registry, reports the metrics and
// raises the flags.
func (st *state) record(s step, cont env.Contention, th threadDelta) {
	b := st.b
	b.Helper()
	n := float64(s.N)
	run := registry.Run{
		Procs:               st.procs,
		N:                   s.N,
		NsPerOp:             float64(s.Timed) / n,
		AllocsPerOp:         -1,
		BytesPerOp:          -1,
		Wall:                s.Wall,
		TimedFraction:       -1,
		WaitFraction:        -1,
		InvoluntarySwitches: -1,
		WithinCV:            st.within,
	}
	if allocs, bytes, ok := testingb.Allocs(b); ok {
		run.AllocsPerOp, run.BytesPerOp = float64(allocs)/n, float64(bytes)/n
	} else if st.mem0 > 0 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		run.AllocsPerOp = float64(ms.Mallocs-st.mem0) / n
		run.BytesPerOp = float64(ms.TotalAlloc-st.memB0) / n
	}
	if s.Wall > 0 {
		run.TimedFraction = min(1, float64(s.Timed)/float64(s.Wall))
		if cont.WaitKnown {
			run.WaitFraction = float64(cont.RunQueueWait) / float64(s.Wall)
		}
	}
	if cont.SwitchesKnown {
		run.InvoluntarySwitches = cont.InvoluntarySwitches
	}

	if now := testingb.Stale(st.procs); now != 0 {
		run.StaleProcs = now
		b.Log(staleProcsMessage(nameOf(b), st.procs, now))
	}
	if err := child.AppendTracked(child.Tracked{Name: st.key, N: run.N, NsPerOp: run.NsPerOp}); err != nil {
		b.Logf("benchkit: cannot tell the parent process about this run: %v", err)
	}
	reg := registry.Default()
	reg.AddRun(st.key, run)
	if len(st.timeline) > 0 {
		reg.SetTimeline(st.key, st.timeline)
	}
	if cv, ok := stats.CV(reg.NsPerOp(st.key)); ok {
		reportMetric(b, cv, unitCV)
	}
	if run.WaitFraction >= 0 {
		reportMetric(b, 100*run.WaitFraction, unitWait)
	}
	if st.within >= 0 {
		reportMetric(b, st.within, unitBatchCV)
	}
	st.check(run, s, th)
	noteLongRun(b)
}

// check raises the flags of the recorded final step s, whose run is run:
// eliminated work, fewer allocations than declared, setup cost (LoopWithSetup) or
// heavy timer toggling (otherwise).
func (st *state) check(run registry.Run, s step, th threadDelta) {
	st.b.Helper()
	name := nameOf(st.b)
	// Compare the floor with the time the work would have taken without
	// waiting for a CPU: on a loaded machine an empty loop's ns/op is
	// inflated by the time its thread sat in the run queue.
	if ns := run.NsPerOp * th.onCPU(s.Wall); ns < calibrateBelow {
		if floor := emptyLoopFloor(); eliminated(run.NsPerOp, ns, floor) {
			head, detail := eliminatedMessage(name, run.NsPerOp, ns, floor)
			st.raise(registry.Flag{Kind: registry.FlagEliminated, Message: head, Detail: detail})
		}
	}
	if run.AllocsPerOp >= 0 && allocsShort(run.AllocsPerOp, st.cfg.expectAllocs) {
		head, detail := allocsMessage(name, run.AllocsPerOp, s.N, st.cfg.expectAllocs)
		st.raise(registry.Flag{Kind: registry.FlagAllocs, Message: head, Detail: detail})
	}
	if su := st.setup; su != nil {
		pairs := max(0, su.wall-su.setup-s.Timed)
		if setupCostly(pairs, s.Timed) {
			head, detail := setupMessage(name, su.iters, pairs, su.setup, s.Timed)
			st.raise(registry.Flag{Kind: registry.FlagSetupCost, Message: head, Detail: detail})
		}
	} else if heavyToggling(s) {
		head, detail := togglingMessage(name, s)
		st.raise(registry.Flag{Kind: registry.FlagTimerToggling, Message: head, Detail: detail})
	}
}

// raise records f for the report and logs its headline, or fails the
// benchmark with it under FailOnFlags or strict mode. A kind the
// benchmark allowed ([Allow]) is recorded with the reason and neither
// logged nor failing. A warning is logged the first time the benchmark
// raises its kind in the process, not under every -count repeat: the
// report counts the runs that raised it. A failure is given every time,
// since each failed run needs its reason.
func (st *state) raise(f registry.Flag) {
	st.b.Helper()
	st.mu.Lock()
	f.Allowed = st.cfg.allowed[f.Kind]
	fail := f.Allowed == "" && (st.cfg.failOnFlags || session.Strict())
	st.mu.Unlock()
	f.Failed = fail
	n := registry.Default().AddFlag(st.key, f)
	switch {
	case fail:
		st.b.Error(f.Message)
	case f.Allowed == "" && n <= 1:
		st.b.Log(f.Message)
	}
}

// reportMetric reports v unless it is NaN or ±Inf, or the extra metrics
// are off (-benchkit.metrics=off, BENCHKIT_METRICS=off).
func reportMetric(b *testing.B, v float64, unit string) {
	if math.IsNaN(v) || math.IsInf(v, 0) || !metricsOn() {
		return
	}
	b.ReportMetric(v, unit)
}

// staleProcsMessage says that testing measured the run at GOMAXPROCS now
// while it prints it under procs (golang/go#49980).
func staleProcsMessage(name string, procs, now int) string {
	return fmt.Sprintf("benchkit: %s: testing measured this first run at GOMAXPROCS=%d, not %d (golang/go#49980). "+
		"Fix: -count≥2, ignoring the first run", benchname.Printed(name, procs), now, procs)
}

// parentsWarned holds the names of parent benchmarks already told that
// Track in a benchmark that calls b.Run records nothing: once per name.
var parentsWarned sync.Map // string → struct{}

// parentTracked says, once per benchmark name, that Track was called in a
// benchmark that called b.Run: testing measures only
// the sub-benchmarks, and nothing in testing lets Track reach them, so
// nothing is recorded for it. The flag reaches Main's report; the log
// line shows under go test -v (testing prints a parent's log only then).
func (st *state) parentTracked() {
	st.b.Helper()
	name := nameOf(st.b)
	if _, dup := parentsWarned.LoadOrStore(name, struct{}{}); dup {
		return
	}
	st.key = name // testing prints a parent's name without a -P suffix
	st.raise(registry.Flag{Kind: registry.FlagMisuse, Message: parentMessage(name), Parent: true})
}

// nameOf returns b.Name(), or, for the unnamed B of testing.Benchmark
// (called from a Test or TestMain), "testing.Benchmark(p.TestX.func1)",
// so that its record is not a row named "-2" (testingb.Name).
func nameOf(b *testing.B) string { return testingb.Name(b) }

// trackTwiceMessage is the headline for a second Track in one run.
func trackTwiceMessage(name string) string {
	return fmt.Sprintf("benchkit: %s: Track called twice in one run (Loop and LoopWithSetup call it); the extra call is ignored. "+
		"Fix: call only one, once", name)
}

// parentMessage is the headline for Track in a benchmark that calls b.Run.
func parentMessage(name string) string {
	return fmt.Sprintf("benchkit: %s calls b.Run, so testing measures only its sub-benchmarks and Track here records nothing. "+
		"Fix: Track in each b.Run function", name)
}

var internalsLogged sync.Once

// logInternals logs testingb.Note on b once per process, when this Go
// release lacks any of the testing.B fields benchkit reads.
func logInternals(b *testing.B) {
	if msg := testingb.Note(); msg != "" {
		internalsLogged.Do(func() { b.Log(msg) })
	}
}

// metricsOn reports whether Track and Loop add their metrics (cv%, wait%,
// batchcv%) to the benchmark's line: -benchkit.metrics, else
// BENCHKIT_METRICS, else on (see testflag.Metrics).
func metricsOn() bool { return settings.Metrics(os.Getenv, flag.CommandLine) }

// Once per process, when the run's benchmarks so far say that the whole
// run will be long, Track says so under the benchmark that found it out:
// after at least longRunAfter of benchmarks, when the projection from the
// top-level benchmarks done so far exceeds longRunAt.
const (
	longRunAfter = 30 * time.Second
	longRunAt    = 10 * time.Minute
)

var longRun struct {
	sync.Mutex
	done map[string]bool // top-level benchmarks seen
	said bool
}

// noteLongRun logs the projection of the run's length on b, when it is
// long, once per process.
func noteLongRun(b *testing.B) {
	b.Helper()
	start, total, ok := session.Selected()
	if !ok {
		return
	}
	longRun.Lock()
	if longRun.done == nil {
		longRun.done = map[string]bool{}
	}
	top, _, _ := strings.Cut(b.Name(), "/")
	longRun.done[top] = true
	done, elapsed := len(longRun.done), time.Since(start)
	est, long := longRunEstimate(elapsed, done, total)
	tell := long && !longRun.said
	longRun.said = longRun.said || tell
	longRun.Unlock()
	if tell {
		b.Logf("benchkit: %d of the %d selected benchmarks took %s, so the whole run will take about %s (go test sets no deadline of its own under -bench). "+
			"Fix: select fewer with -bench, or a shorter -benchtime", done, total, textfmt.Dur(elapsed), textfmt.Dur(est))
	}
}

// longRunEstimate projects a run's length from the elapsed time of its
// first done of total top-level benchmarks, and says whether it is long:
// at least longRunAfter has passed, benchmarks remain, and the projection
// exceeds longRunAt.
func longRunEstimate(elapsed time.Duration, done, total int) (est time.Duration, long bool) {
	if done < 1 || done >= total {
		return elapsed, false
	}
	est = elapsed * time.Duration(total) / time.Duration(done)
	return est, elapsed >= longRunAfter && est > longRunAt
}
