package against

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"time"

	vd "github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// Lockstep sizing. A run is N iterations, N chosen once per benchmark
// from the base's time per op in discovery so that a run lasts about
// runTarget; each process of a triple spends runShare of -benchtime in
// runs, so that with testing's own cost per run (two calls, each after a
// forced collection) and the processes' start the comparison costs what
// -count=10 of each binary costs. warmRounds rounds of every triple are
// discarded (the first runs of a fresh process are cold), and a triple
// has at least minTripleRounds and at most maxTripleRounds rounds.
// The sizes were chosen by measurement (docs/measurements.md, "Lockstep
// sizing").
const (
	runTarget       = 3 * time.Millisecond
	runShare        = 0.5
	warmRounds      = 2
	minTripleRounds = 7
	maxTripleRounds = 2000
)

// sizing is one benchmark's lockstep plan: N iterations a run, rounds a
// triple, how long a run is expected to take, and the time per op it was
// sized from.
type sizing struct {
	n, rounds int
	run       time.Duration
	nsPerOp   float64
}

// runSize is the runs of one triple: N iterations each, expected to take
// run, and whether each begins at a random phase of the collector's cycle
// (gcPhase: child.EnvGCPhase).
type runSize struct {
	n       int
	run     time.Duration
	gcPhase bool
}

// roundCost is a round's expected time: one run of each process.
func (sz sizing) roundCost() time.Duration { return sides * sz.run }

// cost is the expected time of triples triples, warm-up rounds included
// (the processes' start is not).
func (sz sizing) cost(triples int) time.Duration {
	return time.Duration(triples*(warmRounds+sz.rounds)) * sz.roundCost()
}

// sizeFor sizes the runs of a benchmark that takes nsPerOp ns an op,
// under bt: N from runTarget (the user's N under -benchtime=Nx, with the
// least number of rounds), rounds from runShare of bt.
func (p Plan) sizeFor(nsPerOp float64) sizing {
	ns := max(nsPerOp, 1)
	if p.bt.N > 0 {
		return sizing{n: p.bt.N, rounds: minTripleRounds, run: time.Duration(ns * float64(p.bt.N)), nsPerOp: ns}
	}
	n := max(1, int(math.Round(float64(runTarget)/ns)))
	run := time.Duration(ns * float64(n))
	rounds := int(float64(p.bt.D) * runShare / float64(max(run, time.Microsecond)))
	return sizing{n: n, rounds: min(max(rounds, minTripleRounds), maxTripleRounds), run: run, nsPerOp: ns}
}

// triple is one round's worth of samples of each side, per round: the
// time per op and the allocations and bytes per op; and the CPU time the
// processes used while they waited for their turn, against the runs'
// wall time.
type triple struct {
	ns, allocs, bytes [sides][]float64
	idle              idleCPU
	// warm is the rounds discarded at the start, warmNs their ns/op by
	// side; wall is the triple's whole wall time (the processes' start
	// and end included), roundsWall that of its rounds alone.
	warm             int
	warmNs           [sides][]float64
	wall, roundsWall time.Duration
	// gc is what the collector did in each side's measured runs; n is
	// the iterations of every run; gcPhase says the runs began at a
	// random phase of the collector's cycle.
	gc      [sides]gcRuns
	n       int
	gcPhase bool
	// waited is what its measured rounds waited for a CPU (roundNs).
	waited runWait
}

// runWait adds up, over measured rounds, the benchmark threads' waits
// for a CPU that were taken out of the runs' times and the timed time
// they were taken from (ns, all sides), and the rounds taken whole
// because a side could not say how long it waited.
type runWait struct {
	wait, timed   float64
	rounds, whole int
}

// merge adds o to w.
func (w *runWait) merge(o runWait) {
	w.wait, w.timed, w.rounds, w.whole = w.wait+o.wait, w.timed+o.timed, w.rounds+o.rounds, w.whole+o.whole
}

// Pct is the share of the rounds' timed time that was taken out as a
// wait for a CPU, in percent; -1 when no round's wait was known.
func (w runWait) Pct() float64 {
	if w.rounds == w.whole || w.timed <= 0 {
		return -1
	}
	return 100 * w.wait / w.timed
}

// roundNs returns one round's ns/op by side. Where every side reported
// how long its benchmark thread waited for a CPU during its run, each
// time is the timed time less that wait: a run that waited while another
// program held the CPU measured the host, not the code (the thread's own
// run-queue wait, so a collector or other goroutines of the benchmark
// that kept it on-CPU are still in). Where a side could not say (another
// platform, a base built before the field, a goroutine that changed
// threads), the round's times stay whole, so that the sides stay alike.
func roundNs(steps [sides]child.Step) (ns [sides]float64, w runWait) {
	w.rounds = 1
	taken := true
	for _, st := range steps {
		if st.WaitNs < 0 || st.WaitNs >= st.TimedNs {
			taken = false
		}
	}
	if !taken {
		w.whole = 1
	}
	for s, st := range steps {
		t := st.TimedNs
		if taken {
			t -= st.WaitNs
			w.wait += float64(st.WaitNs)
			w.timed += float64(st.TimedNs)
		}
		ns[s] = float64(t) / float64(st.N)
	}
	return ns, w
}

// idleCPU adds up, over a triple's runs, the CPU time the two processes
// that were not running used while the third ran (they should be blocked
// on the parent's pipe: a benchmark that leaves goroutines running makes
// them compete with the run for the CPUs), and the runs' wall time. ok is
// false where a process's CPU time cannot be read (outside Linux).
type idleCPU struct {
	cpu, wall time.Duration
	ok        bool
}

// cpuOf reads the CPU time of each process; ok is false when one cannot
// be read.
func cpuOf(procs [sides]*child.Live) (t [sides]time.Duration, ok bool) {
	for s, l := range procs {
		d, okS := env.ProcessCPU(l.Pid())
		if !okS {
			return t, false
		}
		t[s] = d
	}
	return t, true
}

// add counts one run of side s, which took wall, between the CPU times
// before and after of every process.
func (ic *idleCPU) add(s int, before, after [sides]time.Duration, wall time.Duration) {
	ic.ok = true
	ic.wall += wall
	for o := range sides {
		if o != s {
			ic.cpu += after[o] - before[o]
		}
	}
}

// Pct is the waiting processes' CPU time as a percentage of the runs'
// wall time, -1 when unknown.
func (ic idleCPU) Pct() float64 {
	if !ic.ok || ic.wall <= 0 {
		return -1
	}
	return 100 * float64(ic.cpu) / float64(ic.wall)
}

// lockstep measures one benchmark, sized sz, in fresh triples of live
// processes (base, new, base again), one run at a time in balanced random
// order, as its design shapes and stops them (design.go), and records it;
// roundDone is called after every round with the triple (from 0), the
// wall time spent on the benchmark so far and its design. A process that fails, hangs or
// speaks garbage ends the benchmark with its output: left out when it is
// the base's, a failure of the run when it is this binary's.
func (st *state) lockstep(lf leaf, sz sizing, dir string, fs *flag.FlagSet, roundDone func(t int, spent time.Duration, d *design)) {
	d := st.p.newDesign(sz)
	var ts []triple
	start := time.Now()
	for t := 0; ; t++ {
		warm, runs, rs := d.shape()
		tr, err := st.runTriple(lf, rs, warm, runs, t, dir, fs, func() { roundDone(t, time.Since(start), d) })
		if st.stopped != nil {
			return
		}
		var sk errSkipped
		switch {
		case errors.As(err, &sk) && t == 0:
			st.warnings = append(st.warnings, fmt.Sprintf("benchkit: %s: %v in a lockstep process; not compared", lf.name, err))
		case errors.As(err, &sk):
			st.warnings = append(st.warnings, fmt.Sprintf("benchkit: %s: %v in a lockstep process; compared over the %s before it", lf.name, err, pluralTriples(t)))
		case err != nil && t > 0:
			st.warnings = append(st.warnings, fmt.Sprintf("benchkit: %s: compared over the %s before a process failed", lf.name, pluralTriples(t)))
		}
		if err != nil {
			d.stop, d.stopCode = "a process ended it", StopFailed
			break
		}
		ts = append(ts, tr)
		if d.next(ts, time.Since(start), func(rate float64) vd.Verdict {
			return lockedOf(collect(lf, sz, ts, d), st.look(), rate).NewEst.Verdict
		}) {
			break
		}
	}
	if len(ts) == 0 {
		return
	}
	if d.rate == 0 {
		d.rate = d.spend.Final()
	}
	st.locked = append(st.locked, collect(lf, sz, ts, d))
}

// look is what an interim analysis needs of the result: the rule's ε and
// the time gate.
func (st *state) look() Result {
	return Result{Negligible: vd.DefaultNegligible, GatePct: st.p.Gate}
}

func pluralTriples(n int) string {
	if n == 1 {
		return "1 triple"
	}
	return strconv.Itoa(n) + " triples"
}

// runTriple starts the three processes of triple t and drives them
// through warm + runs rounds, the first warm discarded, calling roundDone
// after each.
func (st *state) runTriple(lf leaf, rs runSize, warm, runs, t int, dir string, fs *flag.FlagSet, roundDone func()) (tr triple, err error) {
	began := time.Now()
	tr.warm, tr.n, tr.gcPhase = warm, rs.n, rs.gcPhase
	defer func() { tr.wall = time.Since(began) }() // after the processes ended
	var procs [sides]*child.Live
	defer func() {
		for _, l := range procs {
			if l != nil {
				l.Stop()
			}
		}
	}()
	for s := range sides {
		l, err := st.startLive(s, lf, rs, warm+runs, dir, fs)
		if err != nil {
			return triple{}, st.lockstepFailed(s, t, lf, err)
		}
		procs[s] = l
	}
	sched := stats.NewSchedule(sides, st.p.seed+uint64(t))
	for r := 0; r < warm+runs; r++ {
		idle := &tr.idle
		if r < warm {
			idle = nil // the processes' start-up is not waiting
		}
		roundStart := time.Now()
		steps, s, err := lockstepRound(procs, sched, rs, r == 0, idle)
		if err != nil {
			return triple{}, st.lockstepFailed(s, t, lf, err)
		}
		tr.roundsWall += time.Since(roundStart)
		if r >= warm {
			tr.add(steps)
		} else {
			ns, _ := roundNs(steps)
			for side := range steps {
				tr.warmNs[side] = append(tr.warmNs[side], ns[side])
			}
		}
		roundDone()
	}
	return tr, nil
}

// lockstepRound runs one run of each process, one at a time in the
// schedule's next order, and returns their steps by side; on failure,
// the side that failed. Where the processes' CPU time can be read, it
// adds what the waiting ones used during each run to idle (nil: not
// counted).
func lockstepRound(procs [sides]*child.Live, sched *stats.Schedule, rs runSize, first bool, idle *idleCPU) ([sides]child.Step, int, error) {
	var steps [sides]child.Step
	var before [sides]time.Duration
	ok := idle != nil
	if ok {
		before, ok = cpuOf(procs)
	}
	for _, s := range sched.Next() {
		start := time.Now()
		step, err := drive(procs[s], rs, first)
		if err != nil {
			return steps, s, err
		}
		wall := time.Since(start)
		steps[s] = step
		if !ok {
			continue
		}
		after, okA := cpuOf(procs)
		if ok = okA; ok {
			idle.add(s, before, after, wall)
			before = after
		}
	}
	return steps, 0, nil
}

// add appends one round's steps, by side, to the triple: ns/op, and
// allocs/op and B/op truncated as go test prints them (so that a run's
// one-off allocation does not make "0, varies").
func (tr *triple) add(steps [sides]child.Step) {
	ns, w := roundNs(steps)
	tr.waited.merge(w)
	for s, step := range steps {
		n := float64(step.N)
		tr.ns[s] = append(tr.ns[s], ns[s])
		tr.gc[s].add(step)
		if step.Allocs >= 0 {
			tr.allocs[s] = append(tr.allocs[s], math.Trunc(float64(step.Allocs)/n))
			tr.bytes[s] = append(tr.bytes[s], math.Trunc(float64(step.Bytes)/n))
		}
	}
}

// startLive starts side s's process for lf: exactly lf's benchmark, runs
// of rs.n iterations, enough -count repeats for rounds rounds, each run at
// a random phase of the collector's cycle when rs.gcPhase.
func (st *state) startLive(s int, lf leaf, rs runSize, rounds int, dir string, fs *flag.FlagSet) (*child.Live, error) {
	path, protocol := st.exe(s), st.baseProtocol
	if s == sideNew {
		protocol = child.Protocol
	}
	if path == "" {
		return nil, st.stopped
	}
	marker := filepath.Join(dir, fmt.Sprintf("lockstep-%s.json", sideNames[s]))
	runs := rounds + 2
	args := child.Args(fs, lf.full, strconv.Itoa(rs.n)+"x", lf.procs)
	for i, a := range args {
		if a == "-test.count=1" {
			args[i] = "-test.count=" + strconv.Itoa(runs)
		}
	}
	args = append(args, "-test.benchmem=true")
	env := append(append(child.Env(lf.full, marker), child.ChildEnv(dir)...), "BENCHKIT_AGAINST=")
	if rs.gcPhase {
		env = append(env, child.EnvGCPhase+"=1")
	}
	timeout := time.Duration(runs)*lockstepDeadline(rs.run, false) + lockstepDeadline(rs.run, true)
	return child.Start(child.Spec{Path: path, Shown: st.shown(s), Args: withoutBenchkitFlags(args), Env: env, Dir: st.dir(s), Timeout: timeout, Protocol: protocol})
}

// withoutBenchkitFlags drops benchkit's own flags, which another build of
// the package need not define (child.Args keeps the user's others).
func withoutBenchkitFlags(args []string) []string {
	out := args[:0:0]
	for _, a := range args {
		if len(a) > len("-benchkit.") && a[:len("-benchkit.")] == "-benchkit." {
			continue
		}
		out = append(out, a)
	}
	return out
}

// drive runs the process's next benchmark run: steps until the final one
// (a b.N-style benchmark reports its N=1 ramp step first), each within
// its deadline. The final step must be the run of rs.n iterations the
// process was started for.
func drive(l *child.Live, rs runSize, first bool) (child.Step, error) {
	for {
		rep, err := l.Go(lockstepDeadline(rs.run, first))
		if err != nil {
			return child.Step{}, err
		}
		switch rep.Kind {
		case "skip":
			return child.Step{}, errSkipped{rep.Reason}
		case "fail":
			return child.Step{}, fmt.Errorf("the benchmark failed: %s", rep.Reason)
		}
		if rep.Step.Final {
			if rep.Step.N != rs.n {
				return child.Step{}, l.Fail(fmt.Errorf("reported a run of %d iterations where it was started for runs of %d", rep.Step.N, rs.n))
			}
			return rep.Step, nil
		}
		first = false
	}
}

// errSkipped is a benchmark that skipped in a lockstep process.
type errSkipped struct{ reason string }

func (e errSkipped) Error() string { return "the benchmark skipped: " + e.reason }

// lockstepFailed records what went wrong with side s's process in
// triple t and returns it: a failure of that process (with its output)
// for a crash, a hang or garbage, a warning for a skip.
func (st *state) lockstepFailed(s, t int, lf leaf, err error) error {
	var sk errSkipped
	if errors.As(err, &sk) {
		return err
	}
	res, msg := child.Result{}, failureMessage(err)
	var ce *child.Error
	if errors.As(err, &ce) {
		res, msg = ce.Result, ce.What()
	}
	if st.interrupted(res) {
		return err
	}
	f := Failure{Side: sideNames[s], Round: t + 1, Benchmarks: []string{lf.full},
		Message: "lockstep: " + msg, Output: child.Tail(res, 40)}
	st.failed["Benchmark"+benchname.TopLevel(lf.name)] = true
	st.failures = append(st.failures, f)
	return errors.New(f.Message)
}

// collect gathers a benchmark measured in triples: its sides' samples
// round by round, triple after triple, the rounds per triple, the
// waiting processes' CPU, and how its design ran.
func collect(lf leaf, sz sizing, ts []triple, d *design) lockedBench {
	all := ts
	ts, gcParts, gcWhy := withCollector(ts)
	var sd [sides]Side
	groups := make([]int, len(ts))
	idle := idleCPU{ok: true}
	var waited runWait
	for t, tr := range ts {
		idle.cpu, idle.wall, idle.ok = idle.cpu+tr.idle.cpu, idle.wall+tr.idle.wall, idle.ok && tr.idle.ok
		waited.merge(tr.waited)
		groups[t] = len(tr.ns[sideBase])
		for s := range sides {
			sd[s].NsPerOp = append(sd[s].NsPerOp, tr.ns[s]...)
			sd[s].AllocsPerOp = append(sd[s].AllocsPerOp, tr.allocs[s]...)
			sd[s].BytesPerOp = append(sd[s].BytesPerOp, tr.bytes[s]...)
			for range tr.ns[s] {
				sd[s].Iters = append(sd[s].Iters, tr.n)
			}
		}
	}
	lb := lockedBench{name: lf.name, sides: sd, groups: groups, n: sz.n, idle: idle, waited: waited,
		design: d.describe(all) + waitNote(waited), rate: d.rate, stop: d.stopCode, between: -1, within: -1, gc: gcParts, gcWhy: gcWhy}
	if d.compsOK {
		lb.between, lb.within = d.perProcess()
	}
	return lb
}

// waitNote is what a lockstep row's design adds about the waits for a
// CPU taken out of its runs: nothing below 1% of their time.
func waitNote(w runWait) string {
	if p := w.Pct(); p >= 1 {
		return fmt.Sprintf("; its runs waited %.2g%% of their time for a CPU, taken out", p)
	}
	return ""
}

// lockedBench is a benchmark measured in lockstep.
type lockedBench struct {
	name   string
	sides  [sides]Side
	groups []int
	n      int
	idle   idleCPU
	waited runWait
	// design says how its triples were shaped and why they stopped; rate
	// is the family-wise false-alarm rate of its analysis.
	design string
	rate   float64
	// stop is Bench.Stop; between and within the per-process variance
	// components in percent, -1 unknown.
	stop            string
	between, within float64
	// gc are the parts of its cost when its runs were measured with the
	// collector in (gc.go); gcWhy what the row says of the collector.
	gc    *GCParts
	gcWhy string
}

// IdleCPUWarnPct is the waiting processes' CPU time, in percent of the
// runs' wall time, above which a lockstep row says the processes
// competed for the CPUs.
const IdleCPUWarnPct = 10

// idleWarning returns the warning for a benchmark whose waiting
// processes used more than IdleCPUWarnPct of the runs' time, or "".
func idleWarning(name string, pct float64) string {
	if pct <= IdleCPUWarnPct {
		return ""
	}
	return fmt.Sprintf("benchkit: %s: while one process of a triple ran, the two waiting ones used the CPUs for %.0f%% of the runs' time (goroutines the benchmark left running, or a collection still under way when a run ended): the three processes competed for the CPUs, which lockstep assumes they do not, so its interval is wider or its estimate off; stop the benchmark's goroutines when it returns",
		name, pct)
}
