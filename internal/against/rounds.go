package against

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// The three processes of a round, in the order of a round's record.
const (
	sideBase = iota
	sideNew
	sideControl
	sides
)

var sideNames = [sides]string{"base", "new", "control"}

// measurement is one benchmark's result line in one process.
type measurement struct {
	ns, allocs, bytes float64 // allocs and bytes -1 when not printed
	iters             int     // the line's b.N
}

// procOutput is what one process measured, and how it ended.
type procOutput struct {
	results map[string]measurement // by name as printed, without "Benchmark"
	failure *Failure
	elapsed time.Duration
}

// state is the run in progress: the samples per benchmark, the
// names each binary printed, the failures, and what later rounds skip.
type state struct {
	p        Plan
	order    []string // benchmark names in the order first complete
	sides    map[string]*[sides]Side
	seen     [sides]map[string]bool
	failed   map[string]bool // top-level functions that failed somewhere
	failures []Failure
	slowest  time.Duration
	warnings []string
	// locked are the benchmarks measured in lockstep; lockedTops the
	// top-level functions all of whose benchmarks were, which the rounds
	// then skip; roundsWhy says why a benchmark could not run in lockstep.
	locked     []lockedBench
	lockedTops map[string]bool
	roundsWhy  map[string]string
	progress   func(Progress)
	// baseProtocol is the lockstep protocol the base speaks (discovery).
	baseProtocol int
	// stopped, once set, ends the run: nothing measured is reported.
	stopped *Stopped
}

// Stopped is why [Measure] stopped before its end. Nothing it measured
// may be reported: a verdict from part of a run, or from processes of
// two builds, would say something the run did not measure.
type Stopped struct {
	// Signal is the interrupting signal (SIGINT, SIGTERM, SIGHUP) that
	// ended the run, nil when a binary changed on disk.
	Signal os.Signal
	// Why says what happened, with the fix where there is one.
	Why string
}

func (e *Stopped) Error() string { return e.Why }

// exe returns the path side s's next process executes, or "" when the
// run must stop (the binary changed on disk; st.stopped says so).
func (st *state) exe(s int) string {
	if st.stopped != nil {
		return ""
	}
	exe := st.p.baseExe
	if s == sideNew {
		exe = st.p.newExe
	}
	p, err := exe()
	if err != nil {
		st.stopped = &Stopped{Why: fmt.Sprintf("benchkit: -benchkit.against stopped: %v; nothing is reported, since its processes would mix two builds. Rerun once the binaries are left alone (build the base to a path of its own)", err)}
		return ""
	}
	return p
}

// dir is the working directory of side s's processes: for a base built
// from a revision, its package's directory in the base's files (so that
// it reads its own testdata); "" (the current directory) otherwise.
func (st *state) dir(s int) string {
	if s == sideNew {
		return ""
	}
	return st.p.baseDir
}

// shown is the path messages name for side s's binary: the one the user
// gave, or this binary's.
func (st *state) shown(s int) string {
	if s == sideNew {
		return st.p.new.Path
	}
	return st.p.base.Path
}

// interrupted reports whether the process that gave res ended because
// the run was interrupted (child.InterruptedBy), and if so stops the run.
func (st *state) interrupted(res child.Result) bool {
	sig := child.InterruptedBy(res)
	if sig == nil {
		return st.stopped != nil
	}
	if st.stopped == nil {
		st.stopped = &Stopped{Signal: sig, Why: fmt.Sprintf("benchkit: -benchkit.against was interrupted (%v): nothing is reported, since part of a run is never a verdict", sig)}
	}
	return true
}

// Progress is how far a phase of Measure is. In lockstep (Unit
// "triple"), Bench is the benchmark being measured, the Index-th of
// Benches, in its Done-th triple of Total (0 when its design decides how
// many as it goes); in the rounds of processes
// (Unit "round"), Done rounds of Total are over. Work and Planned are the
// expected cost of what is done and of the whole phase (in lockstep,
// each benchmark's runs at the time per op discovery measured; in rounds,
// one unit a round), and Elapsed the time since the phase began: at this
// pace, what is left takes Elapsed·(Planned−Work)/Work.
type Progress struct {
	Unit           string
	Bench          string
	Index, Benches int
	Done, Total    int
	Work, Planned  time.Duration
	Elapsed        time.Duration
}

// Left is the time the phase needs to finish at the pace so far; 0 when
// nothing is done yet.
func (p Progress) Left() time.Duration {
	if p.Work <= 0 || p.Planned <= p.Work {
		return 0
	}
	return time.Duration(float64(p.Elapsed) * float64(p.Planned-p.Work) / float64(p.Work))
}

func (st *state) report(pr Progress) {
	if st.progress != nil {
		st.progress(pr)
	}
}

// Measure compares the benchmarks the plan selects: in lockstep, each
// benchmark that both binaries can run that way (they call
// benchkit.Track or Loop, and the base's benchkit speaks the protocol),
// in p.Rounds fresh triples of live processes; the others in p.Rounds
// rounds of whole processes (base, this binary, base again) in balanced
// random order. Each benchmark's row says which. dir, made with
// child.TempDir, holds the processes' marker files and their own
// temporary files. progress, when not nil, is called after every round of
// a triple and every round of processes but the last: between
// processes' runs, where printing corrupts no benchmark line. It returns a *[Stopped] and
// nothing else when the run was interrupted or a binary changed on disk.
func Measure(p Plan, dir string, fs *flag.FlagSet, stderr io.Writer, progress func(Progress)) (Result, error) {
	st := &state{p: p, sides: map[string]*[sides]Side{}, failed: map[string]bool{},
		lockedTops: map[string]bool{}, roundsWhy: map[string]string{}, progress: progress}
	for i := range st.seen {
		st.seen[i] = map[string]bool{}
	}
	if p.basePin == nil {
		a := st.newOnly(dir, fs)
		if st.stopped != nil {
			return Result{}, st.stopped
		}
		return a, nil
	}
	if p.Pairing != ModeRounds {
		st.measureLockstep(dir, fs)
	}
	if st.stopped == nil && st.needRounds() {
		st.measureRounds(dir, fs, stderr)
	}
	if st.stopped != nil {
		return Result{}, st.stopped
	}
	a := st.result()
	st.countAll(&a, fs, stderr)
	if st.stopped != nil {
		return Result{}, st.stopped
	}
	return a, nil
}

// measureLockstep discovers which benchmarks can run in lockstep and
// measures them so.
func (st *state) measureLockstep(dir string, fs *flag.FlagSet) {
	lock, why := st.discover(dir, fs)
	st.roundsWhy = why
	if len(lock) > 0 && runtime.GOOS == "windows" {
		for _, lf := range lock {
			st.roundsWhy[lf.name] = child.ErrNoPipe.Error()
		}
		return
	}
	sizes := make([]sizing, len(lock))
	var planned, before time.Duration
	for i, lf := range lock {
		sizes[i] = st.p.sizeFor(lf.nsPerOp)
		planned += st.p.newDesign(sizes[i]).planned(sizes[i])
	}
	start := time.Now()
	for i, lf := range lock {
		if st.stopped != nil {
			return
		}
		sz := sizes[i]
		mine := st.p.newDesign(sz).planned(sz)
		total := 0
		if st.p.roundsSet || st.p.bt.N > 0 {
			total = st.p.Rounds
		}
		st.lockstep(lf, sz, dir, fs, func(t int, spent time.Duration) {
			st.report(Progress{Unit: "triple", Bench: lf.name, Index: i + 1, Benches: len(lock), Done: t + 1, Total: total,
				Work: before + min(spent, mine), Planned: planned, Elapsed: time.Since(start)})
		})
		before += mine
	}
	st.lockedTops = fullyLocked(st.locked, st.seen)
}

// fullyLocked returns the top-level functions every printed benchmark of
// which (in either binary) was measured in lockstep.
func fullyLocked(locked []lockedBench, seen [sides]map[string]bool) map[string]bool {
	done := map[string]bool{}
	for _, lb := range locked {
		done[lb.name] = true
	}
	tops := map[string]bool{}
	for _, lb := range locked {
		tops[benchname.TopLevel(lb.name)] = true
	}
	for s := range seen {
		for name := range seen[s] {
			if !done[name] {
				delete(tops, benchname.TopLevel(name))
			}
		}
	}
	return tops
}

// needRounds reports whether any benchmark is left for the rounds: with
// lockstep pairing, those discovery found that are neither measured in
// lockstep nor failed; with rounds pairing, all.
func (st *state) needRounds() bool {
	if st.p.Pairing == ModeRounds {
		return true
	}
	for s := range st.seen {
		for name := range st.seen[s] {
			if !st.lockedTops[benchname.TopLevel(name)] && !st.failed["Benchmark"+benchname.TopLevel(name)] {
				return true
			}
		}
	}
	return false
}

// measureRounds runs p.Rounds rounds of three processes (base, this
// binary, base again) in balanced random order, and records the
// benchmarks that every process of a round measured. It stops early when
// a process fails in a way that names no benchmark (it would fail again).
func (st *state) measureRounds(dir string, fs *flag.FlagSet, stderr io.Writer) {
	sched := stats.NewSchedule(sides, st.p.seed)
	start := time.Now()
	for r := 1; r <= st.p.Rounds; r++ {
		var round [sides]procOutput
		stop := false
		for _, s := range sched.Next() {
			round[s] = st.runProcess(s, r, fs, dir)
			if f := round[s].failure; f != nil {
				stop = stop || len(f.Benchmarks) == 0
			}
		}
		if st.stopped != nil {
			return
		}
		st.add(round)
		if stop {
			st.warnings = append(st.warnings, fmt.Sprintf("benchkit: stopped after round %d of %d: a process failed without naming a benchmark (see the failures), and would fail again", r, st.p.Rounds))
			break
		}
		if r == 1 {
			st.warnTimeout(stderr, time.Since(start))
		}
		if r < st.p.Rounds {
			st.report(Progress{Unit: "round", Done: r, Total: st.p.Rounds, Work: time.Duration(r), Planned: time.Duration(st.p.Rounds), Elapsed: time.Since(start)})
		}
	}
}

// repeated reports whether f is the base binary's second failure of the
// same benchmarks in the same round (its base and control processes run
// the same code): it would repeat the first one's output.
func (st *state) repeated(f Failure) bool {
	if f.Side == sideNames[sideNew] {
		return false
	}
	return slices.ContainsFunc(st.failures, func(g Failure) bool {
		return g.Round == f.Round && g.Side != sideNames[sideNew] && slices.Equal(g.Benchmarks, f.Benchmarks)
	})
}

// runProcess runs side s's binary for round r and parses its output.
func (st *state) runProcess(s, r int, fs *flag.FlagSet, dir string) procOutput {
	path := st.exe(s)
	if path == "" {
		return procOutput{}
	}
	timeout := st.p.timeout
	if st.slowest > 0 {
		timeout = min(timeout, child.Deadline(st.slowest))
	}
	marker := filepath.Join(dir, fmt.Sprintf("round%d-%s.json", r, sideNames[s]))
	sel := selection{bench: st.p.pattern, skip: st.skipFor(s), procs: cpus()}
	env := append(append(child.Env("", marker), child.ChildEnv(dir)...), "BENCHKIT_AGAINST=")
	spec := child.Spec{Path: path, Shown: st.shown(s), Args: child.RunArgs(fs, sel.bench, st.p.share, sel.skip), Env: env, Dir: st.dir(s), Timeout: timeout}
	res, err := child.Run(spec)
	if err != nil && st.interrupted(res) {
		return procOutput{}
	}
	st.slowest = max(st.slowest, res.Elapsed)
	parsed := parseOutput(res.Stdout, sel)
	out := procOutput{results: parsed.results, elapsed: res.Elapsed}
	for name := range out.results {
		st.seen[s][name] = true
	}
	st.reject(s, r, parsed.bad, res)
	if err != nil {
		out.failure = st.processFailed(s, r, err, res)
	}
	return out
}

// add appends the round's measurements of every benchmark that all three
// processes measured and that never failed.
func (st *state) add(round [sides]procOutput) {
	names := make([]string, 0, len(round[sideBase].results))
	for name := range round[sideBase].results {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if st.failed["Benchmark"+benchname.TopLevel(name)] || st.isLocked(name) {
			continue
		}
		var ms [sides]measurement
		complete := true
		for s := range sides {
			m, ok := round[s].results[name]
			ms[s], complete = m, complete && ok
		}
		if !complete {
			continue
		}
		sd := st.sides[name]
		if sd == nil {
			sd = new([sides]Side)
			st.sides[name] = sd
			st.order = append(st.order, name)
		}
		for s := range sides {
			sd[s].NsPerOp = append(sd[s].NsPerOp, ms[s].ns)
			sd[s].Iters = append(sd[s].Iters, ms[s].iters)
			if ms[s].allocs >= 0 {
				sd[s].AllocsPerOp = append(sd[s].AllocsPerOp, ms[s].allocs)
				sd[s].BytesPerOp = append(sd[s].BytesPerOp, ms[s].bytes)
			}
		}
	}
}

// skipFor returns the -test.skip pattern of side s's processes: the
// user's, or one that leaves out the top-level benchmarks that failed and
// those the other binary does not have; "" for none.
func (st *state) skipFor(s int) string {
	if st.p.skip != "" {
		return st.p.skip
	}
	var names []string
	for name := range st.failed {
		names = append(names, regexp.QuoteMeta(name))
	}
	for top := range st.lockedTops {
		names = append(names, regexp.QuoteMeta("Benchmark"+top))
	}
	if len(st.seen[sideNew]) > 0 && len(st.seen[sideBase]) > 0 {
		other := sideNew
		if s == sideNew {
			other = sideBase
		}
		for _, top := range onlyTop(st.seen[s], st.seen[other]) {
			names = append(names, regexp.QuoteMeta("Benchmark"+top))
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return "^(" + strings.Join(slices.Compact(names), "|") + ")$"
}

// onlyTop returns the top-level benchmark functions (without
// "Benchmark") of which mine has results and other none.
func onlyTop(mine, other map[string]bool) []string {
	tops := map[string]bool{}
	for name := range other {
		tops[benchname.TopLevel(name)] = true
	}
	var out []string
	for name := range mine {
		if t := benchname.TopLevel(name); !tops[t] && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// warnTimeout says on stderr, when the rounds will take more than a
// minute, how long: under -bench go test sets no deadline of its own, so
// a long run is only ever bounded by each process's deadline (-timeout,
// 10 minutes without one).
func (st *state) warnTimeout(stderr io.Writer, first time.Duration) {
	if est := first * time.Duration(st.p.Rounds); est > time.Minute {
		fmt.Fprintf(stderr, "benchkit: -benchkit.against: the first round took %s, so %s will take about %s; fewer -benchkit.rounds or a shorter -benchtime shorten it\n",
			textfmt.Dur(first), textfmt.Plural(st.p.Rounds, "round"), textfmt.Dur(est))
	}
}

// reject records, as failures of side s in round r, the names whose
// results could not be taken (output.bad), and leaves their top-level
// benchmarks out of the later rounds.
func (st *state) reject(s, r int, bad map[string]string, res child.Result) {
	names := make([]string, 0, len(bad))
	for name := range bad {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		full := "Benchmark" + name
		st.failures = append(st.failures, Failure{Side: sideNames[s], Round: r, Benchmarks: []string{full},
			Message: fmt.Sprintf("its result was not taken: %s. A benchmark must not write to stdout, which go test parses: use b.Log", bad[name]),
			Output:  child.Tail(res, 40)})
		st.failed[benchname.TopLevel(full)] = true
	}
}

// cpus returns the GOMAXPROCS values the processes run at: -test.cpu's,
// or GOMAXPROCS now.
func cpus() []int {
	if c := testflag.CPUs(); len(c) > 0 {
		return c
	}
	return []int{runtime.GOMAXPROCS(0)}
}

// isLocked reports whether name was measured in lockstep.
func (st *state) isLocked(name string) bool {
	return slices.ContainsFunc(st.locked, func(lb lockedBench) bool { return lb.name == name })
}
