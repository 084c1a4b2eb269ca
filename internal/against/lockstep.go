package against

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/registry"
	vd "github.com/benchkit/go-benchkit/internal/verdict"
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
// triple, and how long a run is expected to take.
type sizing struct {
	n, rounds int
	run       time.Duration
}

// sizeFor sizes the runs of a benchmark that takes nsPerOp ns an op,
// under bt: N from runTarget (the user's N under -benchtime=Nx, with the
// least number of rounds), rounds from runShare of bt.
func (p Plan) sizeFor(nsPerOp float64) sizing {
	ns := max(nsPerOp, 1)
	if p.bt.N > 0 {
		return sizing{n: p.bt.N, rounds: minTripleRounds, run: time.Duration(ns * float64(p.bt.N))}
	}
	n := max(1, int(math.Round(float64(runTarget)/ns)))
	run := time.Duration(ns * float64(n))
	rounds := int(float64(p.bt.D) * runShare / float64(max(run, time.Microsecond)))
	return sizing{n: n, rounds: min(max(rounds, minTripleRounds), maxTripleRounds), run: run}
}

// triple is one round's worth of samples of each side, per round: the
// time per op and the allocations and bytes per op.
type triple struct {
	ns, allocs, bytes [sides][]float64
}

// lockstep measures one benchmark in p.rounds fresh triples of live
// processes (base, new, base again), one run at a time in balanced
// random order, and records it; tripleDone is called with the triples
// done after each. A process that fails, hangs or speaks
// garbage ends the benchmark with its output: left out when it is the
// base's, a failure of the run when it is this binary's.
func (st *state) lockstep(lf leaf, dir string, fs *flag.FlagSet, tripleDone func(t int)) {
	sz := st.p.sizeFor(lf.nsPerOp)
	var ts []triple
	for t := 0; t < st.p.rounds; t++ {
		tr, err := st.runTriple(lf, sz, t, dir, fs)
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
			break
		}
		ts = append(ts, tr)
		tripleDone(t + 1)
	}
	if len(ts) == 0 {
		return
	}
	st.addLockstep(lf, sz, ts)
}

func pluralTriples(n int) string {
	if n == 1 {
		return "1 triple"
	}
	return strconv.Itoa(n) + " triples"
}

// runTriple starts the three processes of triple t and drives them
// through warmRounds + sz.rounds rounds.
func (st *state) runTriple(lf leaf, sz sizing, t int, dir string, fs *flag.FlagSet) (triple, error) {
	var procs [sides]*child.Live
	defer func() {
		for _, l := range procs {
			if l != nil {
				l.Stop()
			}
		}
	}()
	for s := range sides {
		l, err := st.startLive(s, lf, sz, dir, fs)
		if err != nil {
			return triple{}, st.lockstepFailed(s, t, lf, err)
		}
		procs[s] = l
	}
	var tr triple
	sched := vd.NewSchedule(sides, st.p.seed+uint64(t))
	for r := 0; r < warmRounds+sz.rounds; r++ {
		steps, s, err := lockstepRound(procs, sched, sz.run, r == 0)
		if err != nil {
			return triple{}, st.lockstepFailed(s, t, lf, err)
		}
		if r >= warmRounds {
			tr.add(steps)
		}
	}
	return tr, nil
}

// lockstepRound runs one run of each process, one at a time in the
// schedule's next order, and returns their steps by side; on failure,
// the side that failed.
func lockstepRound(procs [sides]*child.Live, sched *vd.Schedule, run time.Duration, first bool) ([sides]child.Step, int, error) {
	var steps [sides]child.Step
	for _, s := range sched.Next() {
		step, err := drive(procs[s], run, first)
		if err != nil {
			return steps, s, err
		}
		steps[s] = step
	}
	return steps, 0, nil
}

// add appends one round's steps, by side, to the triple: ns/op, and
// allocs/op and B/op truncated as go test prints them (so that a run's
// one-off allocation does not make "0, varies").
func (tr *triple) add(steps [sides]child.Step) {
	for s, step := range steps {
		n := float64(step.N)
		tr.ns[s] = append(tr.ns[s], float64(step.TimedNs)/n)
		if step.Allocs >= 0 {
			tr.allocs[s] = append(tr.allocs[s], math.Trunc(float64(step.Allocs)/n))
			tr.bytes[s] = append(tr.bytes[s], math.Trunc(float64(step.Bytes)/n))
		}
	}
}

// startLive starts side s's process for lf: exactly lf's benchmark, runs
// of sz.n iterations, enough -count repeats for every round.
func (st *state) startLive(s int, lf leaf, sz sizing, dir string, fs *flag.FlagSet) (*child.Live, error) {
	path := st.p.base.Path
	if s == sideNew {
		path = st.p.newExe
	}
	marker := filepath.Join(dir, fmt.Sprintf("lockstep-%s.json", sideNames[s]))
	runs := warmRounds + sz.rounds + 2
	args := child.Args(fs, lf.full, strconv.Itoa(sz.n)+"x", lf.procs)
	for i, a := range args {
		if a == "-test.count=1" {
			args[i] = "-test.count=" + strconv.Itoa(runs)
		}
	}
	args = append(args, "-test.benchmem=true")
	env := append(append(child.Env(lf.full, marker), child.ChildEnv(dir)...), "BENCHKIT_AGAINST=")
	timeout := time.Duration(runs)*lockstepDeadline(sz.run, false) + lockstepDeadline(sz.run, true)
	return child.Start(child.Spec{Path: path, Args: withoutBenchkitFlags(args), Env: env, Timeout: timeout})
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
// its deadline.
func drive(l *child.Live, run time.Duration, first bool) (child.Step, error) {
	for {
		rep, err := l.Go(lockstepDeadline(run, first))
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
	f := registry.AgainstFailure{Side: sideNames[s], Round: t + 1, Benchmarks: []string{lf.full},
		Message: "lockstep: " + msg, Output: child.Tail(res, 40)}
	st.failed["Benchmark"+topLevel(lf.name)] = true
	st.failures = append(st.failures, f)
	return errors.New(f.Message)
}

// addLockstep records a benchmark measured in triples: its sides'
// samples round by round, triple after triple, and the rounds per triple.
func (st *state) addLockstep(lf leaf, sz sizing, ts []triple) {
	var sd [sides]registry.Side
	groups := make([]int, len(ts))
	for t, tr := range ts {
		groups[t] = len(tr.ns[sideBase])
		for s := range sides {
			sd[s].NsPerOp = append(sd[s].NsPerOp, tr.ns[s]...)
			sd[s].AllocsPerOp = append(sd[s].AllocsPerOp, tr.allocs[s]...)
			sd[s].BytesPerOp = append(sd[s].BytesPerOp, tr.bytes[s]...)
			for range tr.ns[s] {
				sd[s].Iters = append(sd[s].Iters, sz.n)
			}
		}
	}
	st.locked = append(st.locked, lockedBench{name: lf.name, sides: sd, groups: groups, n: sz.n})
}

// lockedBench is a benchmark measured in lockstep.
type lockedBench struct {
	name   string
	sides  [sides]registry.Side
	groups []int
	n      int
}
