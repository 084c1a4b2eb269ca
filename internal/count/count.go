package count

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// Target is one benchmark of one test binary.
type Target struct {
	// Binary is the test binary: child.Self() for this one (its
	// /proc/self/exe is given to valgrind as /proc/<this pid>/exe), or
	// another build's; a relative path is relative to this process's
	// working directory, not to Dir.
	Binary string
	// Benchmark is the benchmark's full name without the -procs suffix
	// (b.Name(), "BenchmarkX/size=1K"); the processes select exactly it.
	Benchmark string
	// Args are further flags for the binary after the selection (the
	// user's -test.short, the package's own flags). They must not set
	// -test.run, -test.bench, -test.count, -test.benchtime, -test.cpu or
	// a file-writing flag such as -test.cpuprofile; a binary that may not
	// define benchkit's flags must not be given them.
	Args []string
	// Env holds extra "KEY=value" entries; the count's own settings
	// (see the package doc) follow them and win, but for GODEBUG, whose
	// value here is kept before the count's settings.
	Env []string
	// Dir is the processes' working directory, "" for this process's.
	Dir string
}

// Limits bound a count. The zero value means the defaults.
type Limits struct {
	// Budget is the instructions the totals at N1 and N2 should differ
	// by; 0 means DefaultBudget.
	Budget int64
	// Repeats is the processes run at N2 (the one at N1 is shared); 0
	// means DefaultRepeats.
	Repeats int
	// From, when set, is an earlier count of the same target to continue:
	// its processes are kept, and only the ones at From.N2 that Repeats
	// asks for beyond them run.
	From *Result
	// Timeout is the deadline of each process; 0 computes it from the
	// instructions the process is expected to execute ([deadline]).
	Timeout time.Duration
	// Total bounds the whole count; 0 means DefaultTotal.
	Total time.Duration
	// HeapBytes bounds the bytes the k ops may allocate; 0 means
	// DefaultHeapBytes.
	HeapBytes int64
	// NsPerOp is the benchmark's native ns/op when known (0 unknown): a
	// hint that saves the processes that search for N2.
	NsPerOp float64
	// OpsWall bounds the wall time the ops of one process beyond the
	// first's (N2 − N1 of them) are planned to take under valgrind; 0
	// means DefaultOpsWall.
	OpsWall time.Duration
}

// Deadlines (see [deadline]).
const (
	// DefaultTotal bounds one benchmark's whole count.
	DefaultTotal = 15 * time.Minute
	// baseDeadline is every process's allowance for valgrind's start-up
	// and the test binary's.
	baseDeadline = 2 * time.Minute
	// firstDeadline is the deadline of a process whose instructions
	// cannot be estimated (the first, without a hint).
	firstDeadline = 5 * time.Minute
	// minRate is the slowest valgrind is assumed to execute, in
	// instructions per second, until a process has measured it.
	minRate = 5e6
	// DefaultOpsWall bounds the wall time the N2 − N1 ops of a process are
	// planned to take under valgrind (the package doc says how). The budget's
	// instructions take 2–3 s at valgrind's usual rate, so only an op
	// whose time is mostly not its instructions (it waits, sleeps, or
	// runs other processes) reaches it.
	DefaultOpsWall = 30 * time.Second
	// wallNoise is the least difference between two processes' wall
	// times taken for the ops' (see [wallPerOp]).
	wallNoise = 250 * time.Millisecond
)

// Run is one process of a count.
type Run struct {
	// N is the ops it ran (-test.benchtime=Nx), Instructions what it
	// executed in all, Wall its wall time (valgrind's start-up
	// included).
	N            int
	Instructions int64
	Wall         time.Duration
	// BytesPerOp is the B/op go test printed, -1 when unknown.
	BytesPerOp float64
	// ChildFaults and ChildCPU are the minor page faults and the CPU time
	// of the processes it started and waited for ([Children]);
	// ChildFaults is -1 when the process did not say (see [EnvChildren]).
	ChildFaults int64
	ChildCPU    time.Duration
}

// Result is a benchmark's count.
type Result struct {
	Benchmark string
	// PerOp is the instructions per op: the mean of PerOps, which is
	// (Total2 − Total1)/(N2 − N1) with one process at N2.
	PerOp float64
	// N1 and N2 are the ops of the processes (N1 = 2), and Total1 and
	// Total2 their instructions in all: the process at N1's, and the
	// median (the lower middle value for an even count) of those at N2.
	N1, N2         int
	Total1, Total2 int64
	// PerOps are the per-op values of the processes at N2, each
	// (T − Total1)/(N2 − N1); PerOp is their mean.
	PerOps []float64
	// SpreadPct is the range of PerOps in percent of PerOp; -1 with one
	// process at N2.
	SpreadPct float64
	// HalfWidthPct is the half-width of the 95% Student's t-interval of
	// the mean of PerOps, in percent of PerOp: what differs from process
	// to process (a map's random hash seed) beyond a process's own noise;
	// -1 with one process at N2.
	HalfWidthPct float64
	// ResolutionPct is 2 × NoiseFloor over Total2 − Total1, in percent:
	// how far the noise of two processes can move PerOp.
	ResolutionPct float64
	// Capped says why N2 stopped short of the budget ("" when it did
	// not): the heap limit, MaxK, the wall time a process's ops may take
	// (Limits.OpsWall), or MaxSteps.
	Capped string
	// Children says that the benchmark started processes, whose
	// instructions valgrind does not count, and whether they ran per op
	// (then the count misses them); "" when the processes at N1 and N2
	// started none, or did not say ([EnvChildren]).
	Children string
	// Runs are every process in the order they ran, the search for N2
	// included; Wall their sum.
	Runs []Run
	Wall time.Duration
	// Valgrind is the version that counted.
	Valgrind string
	// Reason, Error and Output say why the benchmark could not be
	// counted ([Outcome]: a Reason, the message with the fix, and the end
	// of the failing process's output, at most [MaxOutput] bytes); all ""
	// when it was. PerOp is then -1.
	Reason        Reason
	Error, Output string
}

// Counted reports whether r holds a count.
func (r Result) Counted() bool { return r.Reason == "" && r.PerOp >= 0 }

// Processes is how many valgrind processes the count ran.
func (r Result) Processes() int { return len(r.Runs) }

// Instructions counts the instructions per op of t's benchmark with vg
// (from [Find]) within lim, as the package doc describes. A benchmark
// that cannot be counted gives an [*Error] that says why. With lim.From
// it continues that count: From must be a count of t's benchmark.
func Instructions(vg Valgrind, t Target, lim Limits) (Result, error) {
	bi := readBuild(t.Binary)
	if err := checkBuild(bi, t.Binary, t.Benchmark); err != nil {
		return Result{}, err
	}
	dir, remove, err := child.TempDir("benchkit-count-")
	if err != nil {
		return Result{}, &Error{Reason: ReasonFailed, Benchmark: t.Benchmark, Message: err.Error(), Err: err}
	}
	defer remove()
	c := &counter{vg: vg, t: t, lim: withDefaults(lim), dir: dir, start: time.Now(), command: command(t.Binary), cpuOff: cpuOff(bi)}
	if f := lim.From; f != nil {
		if f.Benchmark != t.Benchmark || f.N2 <= f.N1 || len(f.PerOps) == 0 {
			return Result{}, errorf(ReasonFailed, t.Benchmark, "count: cannot continue a count of %q at N2 = %d as one of %q", f.Benchmark, f.N2, t.Benchmark)
		}
		c.runs = append([]Run(nil), f.Runs...)
	}
	c.t.Binary = valgrindPath(t.Binary, os.Getpid())
	if abs, err := filepath.Abs(c.t.Binary); err == nil {
		c.t.Binary = abs // valgrind runs in Target.Dir
	}
	res, err := c.count()
	res.Benchmark, res.Runs, res.Valgrind = t.Benchmark, c.runs, vg.Version
	if err == nil {
		res.Children = childrenNote(c.runs, res.N1, res.N2)
	}
	for _, r := range c.runs {
		res.Wall += r.Wall
	}
	return res, err
}

// valgrindPath returns the path through which valgrind, a process of its
// own, reaches binary: for /proc/self/exe (child.Self on Linux), which
// would name valgrind itself, /proc/<pid>/exe, the running file of the
// process pid, even after the path was rebuilt.
func valgrindPath(binary string, pid int) string {
	if binary == "/proc/self/exe" {
		return "/proc/" + strconv.Itoa(pid) + "/exe"
	}
	return binary
}

// withDefaults returns lim with its zero fields set to the defaults.
func withDefaults(lim Limits) Limits {
	if lim.Budget <= 0 {
		lim.Budget = DefaultBudget
	}
	if lim.Repeats <= 0 {
		lim.Repeats = DefaultRepeats
	}
	if lim.Total <= 0 {
		lim.Total = DefaultTotal
	}
	if lim.HeapBytes <= 0 {
		lim.HeapBytes = DefaultHeapBytes
	}
	if lim.OpsWall <= 0 {
		lim.OpsWall = DefaultOpsWall
	}
	return lim
}

// counter is one count in progress.
type counter struct {
	vg    Valgrind
	t     Target
	lim   Limits
	dir   string
	start time.Time
	runs  []Run
	rate  float64 // instructions per second of the latest process, 0 before the first
	// command is how a message names the test binary to run by hand.
	command string
	// cpuOff are the GODEBUG settings that turn off the CPU features this
	// CPU lacks ([cpuOff]).
	cpuOff []string
}

// command is how a message tells the user to run binary: "go test" for
// this process's own (/proc/self/exe), else its path.
func command(binary string) string {
	if strings.HasPrefix(binary, "/proc/") {
		return "go test"
	}
	return binary
}

// count searches for N2 (or takes it from Limits.From), runs the
// repeats and computes the result.
func (c *counter) count() (Result, error) {
	var t1 int64
	var n2 atN2
	if f := c.lim.From; f != nil {
		t1, n2 = f.Total1, atN2{k: f.N2 - f.N1, expect: float64(f.Total2), capped: f.Capped}
		for _, r := range f.Runs {
			if r.N == f.N2 {
				n2.totals, n2.wall = append(n2.totals, r.Instructions), max(n2.wall, r.Wall)
			}
		}
	} else {
		first, err := c.run(N1, firstExpect(c.lim.NsPerOp), 0)
		if err != nil {
			return Result{}, err
		}
		t1 = first.Instructions
		if n2, err = c.search(first); err != nil {
			return Result{}, err
		}
	}
	for len(n2.totals) < c.lim.Repeats {
		r, err := c.run(N1+n2.k, n2.expect, n2.wall)
		if err != nil {
			return Result{}, err
		}
		n2.totals = append(n2.totals, r.Instructions)
	}
	return result(t1, n2.totals, n2.k, n2.capped)
}

// atN2 is where the search for N2 ended.
type atN2 struct {
	// k is N2 − N1, totals the instructions of the processes that ran at
	// N1 + k (none when the search moved N2 down to fit the wall time).
	k      int
	totals []int64
	// expect and wall are what a process at N1 + k is expected to
	// execute and to take.
	expect float64
	wall   time.Duration
	// capped says why k stopped short of the budget, or "".
	capped string
}

// startAllowance is the instructions a test binary's process is assumed
// to execute besides the benchmark's ops, for the first deadline.
const startAllowance = 100e6

// firstExpect is the instructions the first process is expected to
// execute: startAllowance plus N1 ops at InstructionsPerNs times the
// native ns/op, or 0 (unknown) without a hint.
func firstExpect(nsPerOp float64) float64 {
	if nsPerOp <= 0 {
		return 0
	}
	return startAllowance + N1*InstructionsPerNs*nsPerOp
}

// search runs processes at N1 + k for growing k until the difference
// from first reaches half the budget, k can grow no further, or MaxSteps
// processes ran, and returns where it ended. A process whose ops took
// more than 5/4 of Limits.OpsWall (k planned from the native ns/op,
// which valgrind can lengthen many times for an op that starts
// processes) ends the search with N2 moved down to the ops that fit.
func (c *counter) search(first Run) (atN2, error) {
	est := FirstEstimate(first.Instructions, N1, c.lim.NsPerOp)
	bytes := first.BytesPerOp
	w := firstWallPerOp(first, c.lim.NsPerOp)
	k, capped, final := c.plan(est, 0, bytes, w)
	for step := 1; ; step++ {
		last, err := c.run(N1+k, float64(first.Instructions)+float64(k)*est, first.Wall+time.Duration(k)*w.perOp)
		if err != nil {
			return atN2{}, err
		}
		diff := last.Instructions - first.Instructions
		w = wallPerOp(last.Wall-first.Wall, first.Wall, k, c.lim.OpsWall)
		if kw := WallK(c.lim.OpsWall, w.perOp); w.measured && 5*kw < 4*k {
			return atN2{k: kw, expect: float64(first.Instructions) + float64(kw)*float64(max(diff, 0))/float64(k),
				wall: first.Wall + time.Duration(kw)*w.perOp, capped: c.wallReason(kw, w.perOp)}, nil
		}
		here := atN2{k: k, totals: []int64{last.Instructions}, expect: float64(last.Instructions), wall: last.Wall}
		switch {
		case Enough(diff, c.lim.Budget):
			return here, nil
		case final:
			here.capped = capped
			return here, nil
		case step == MaxSteps:
			here.capped = fmt.Sprintf("%d processes searched for N2", MaxSteps)
			return here, nil
		}
		est = Refine(est, diff, k)
		bytes = max(bytes, last.BytesPerOp)
		next, why, fin := c.plan(est, k, bytes, w)
		if next <= k {
			if why == "" {
				why = c.capReason(k)
			}
			here.capped = why
			return here, nil
		}
		k, capped, final = next, why, fin
	}
}

// opWall is an estimate of one op's wall time under valgrind.
type opWall struct {
	// perOp is the estimate, 0 when nothing bounds it.
	perOp time.Duration
	// measured says it comes from two processes' wall times that differ
	// by more than the load can make them ([wallPerOp]): a limit from it
	// holds at every later step.
	measured bool
}

// firstWallPerOp is the estimate of an op's wall time before a second
// process ran: the native ns/op when known (valgrind is no faster than
// the CPU, and an op's wall time that is not instructions, waiting or
// other processes, is much the same under valgrind), else the first
// process's wall time over its N1 ops, an upper bound (its start-up
// takes the rest).
func firstWallPerOp(first Run, nsPerOp float64) opWall {
	if nsPerOp > 0 && !math.IsInf(nsPerOp, 0) {
		return opWall{perOp: time.Duration(nsPerOp)}
	}
	return opWall{perOp: first.Wall / N1}
}

// wallPerOp is the estimate of an op's wall time from a process k ops
// beyond the first whose wall time exceeds the first's (firstWall) by
// diff: max(diff, wallNoise)/k. It is measured, and a limit from it final,
// when diff is at least firstWall and a tenth of bound (Limits.OpsWall):
// the wall times of processes vary with the machine's load, up to twice
// apart on a loaded machine, and a smaller difference may be that alone;
// an estimate from it only slows the next step's growth.
func wallPerOp(diff, firstWall time.Duration, k int, bound time.Duration) opWall {
	if k <= 0 {
		return opWall{}
	}
	w := opWall{perOp: max(diff, wallNoise) / time.Duration(k)}
	w.measured = diff >= firstWall && diff >= bound/10
	return w
}

// WallK returns the most ops that fit in bound at perOp each, at least 1;
// MaxK when perOp is not positive.
func WallK(bound, perOp time.Duration) int {
	if perOp <= 0 {
		return MaxK
	}
	return int(max(1, min(float64(bound)/float64(perOp), MaxK)))
}

// plan returns the next k ([NextK], then at most the ops that fit in
// Limits.OpsWall at w), and why a limit holds it below the budget's k
// ("" when none does, or only the growth per step); final says that the
// limit holds at every later step too, so that a process at k that falls
// short of the budget ends the search.
func (c *counter) plan(est float64, prevK int, bytes float64, w opWall) (k int, capped string, final bool) {
	k, limited := NextK(est, c.lim.Budget, prevK, bytes, c.lim.HeapBytes)
	if kw := WallK(c.lim.OpsWall, w.perOp); kw < k {
		return kw, c.wallReason(kw, w.perOp), w.measured
	}
	if limited {
		return k, c.capReason(k), true
	}
	return k, "", false
}

// wallReason says that the wall time a process's ops may take held k,
// at perOp an op.
func (c *counter) wallReason(k int, perOp time.Duration) string {
	return fmt.Sprintf("at about %v an op under valgrind, %d ops fill the %v a process's ops may take; "+
		"the op's instructions explain little of that time: it waits, sleeps or runs other processes", perOp.Round(time.Microsecond), k, c.lim.OpsWall)
}

// capReason says which limit held k.
func (c *counter) capReason(k int) string {
	if k >= MaxK {
		return fmt.Sprintf("N2 − N1 reached its limit of %d ops", MaxK)
	}
	return fmt.Sprintf("the %d ops allocate up to the heap limit of %d MiB (the garbage collector is off)", k, c.lim.HeapBytes>>20)
}

// result computes a Result from the total t1 at N1 and the totals t2s
// at N1 + k.
func result(t1 int64, t2s []int64, k int, capped string) (Result, error) {
	r := Result{N1: N1, N2: N1 + k, Total1: t1, Total2: medianInt(t2s), SpreadPct: -1, HalfWidthPct: -1, Capped: capped}
	for _, t2 := range t2s {
		per, err := PerOp(t1, t2, r.N1, r.N2)
		if err != nil {
			return r, &Error{Reason: ReasonNoCount, Message: err.Error(), Err: err}
		}
		r.PerOps = append(r.PerOps, per)
	}
	r.PerOp, _ = stats.Mean(r.PerOps)
	if d := r.Total2 - r.Total1; d > 0 {
		r.ResolutionPct = 100 * float64(2*NoiseFloor) / float64(d)
	}
	if ci, ok := stats.ForkInterval(r.PerOps, 0.95); ok && r.PerOp > 0 {
		r.SpreadPct = 100 * (slices.Max(r.PerOps) - slices.Min(r.PerOps)) / r.PerOp
		r.HalfWidthPct = 100 * (ci.Hi - ci.Lo) / 2 / r.PerOp
	}
	return r, nil
}

// run runs one process at n ops, expected to execute about expect
// instructions in all (0 unknown) and to take about wall (0 unknown),
// and records it.
func (c *counter) run(n int, expect float64, wall time.Duration) (Run, error) {
	timeout, err := c.deadline(expect, wall)
	if err != nil {
		return Run{}, err
	}
	seq := strconv.Itoa(len(c.runs) + 1)
	logFile := filepath.Join(c.dir, "valgrind-"+seq+".log")
	childrenFile := filepath.Join(c.dir, "children-"+seq+".json")
	spec := child.Spec{
		Path: c.vg.Path,
		Args: append(valgrindArgs(logFile), append([]string{c.t.Binary}, testArgs(c.t, n)...)...),
		Env: append(processEnv(c.t.Env, c.t.Benchmark, filepath.Join(c.dir, "result-"+seq+".json"), c.dir, c.cpuOff),
			EnvChildren+"="+childrenFile),
		Dir:     c.t.Dir,
		Timeout: timeout,
	}
	out, runErr := child.Run(spec)
	logText, _ := os.ReadFile(logFile)
	r := Run{N: n, Wall: out.Elapsed, BytesPerOp: -1, ChildFaults: -1}
	if ch, ok := readChildren(childrenFile); ok {
		r.ChildFaults, r.ChildCPU = ch.MinorFaults, ch.CPU
	}
	if runErr != nil {
		c.runs = append(c.runs, r)
		return r, c.failure(runErr, out, string(logText), n)
	}
	bytes, ok := resultLine(string(out.Stdout), c.t.Benchmark, n)
	if !ok {
		c.runs = append(c.runs, r)
		return r, &Error{Reason: ReasonNotRun, Benchmark: c.t.Benchmark, Output: child.Tail(out, 20),
			Message: fmt.Sprintf("the process at -test.benchtime=%dx printed no result line for it: it skipped, failed to start, "+
				"or the name selects nothing; %s shows why", n, c.reproduce(n))}
	}
	total, err := ParseIRefs(string(logText))
	if err != nil {
		c.runs = append(c.runs, r)
		return r, &Error{Reason: ReasonNoCount, Benchmark: c.t.Benchmark, Message: err.Error(), Output: tailText(logExcerpt(string(logText)), 20), Err: err}
	}
	r.Instructions, r.BytesPerOp = total, bytes
	if s := out.Elapsed.Seconds(); s > 0 {
		c.rate = float64(total) / s
	}
	c.runs = append(c.runs, r)
	return r, nil
}

// failure is the *Error of a process that failed: past its deadline, or
// exited non-zero, with the diagnosis valgrind's log or the process's
// output gives ([diagnose]).
func (c *counter) failure(err error, out child.Result, logText string, n int) error {
	var ce *child.Error
	if errors.As(err, &ce) && ce.Timeout {
		return &Error{Reason: ReasonDeadline, Benchmark: c.t.Benchmark, Err: err, Output: child.Tail(out, 20),
			Message: fmt.Sprintf("the process at -test.benchtime=%dx did not finish within its deadline of %v under valgrind and was killed: "+
				"count a faster benchmark, or raise the limits", n, ce.Spec.Timeout)}
	}
	msg := fmt.Sprintf("the process at -test.benchtime=%dx failed under valgrind (%v)", n, err)
	if ce != nil {
		msg = fmt.Sprintf("the process at -test.benchtime=%dx failed under valgrind (exit status %d)", n, ce.Result.Code)
	}
	if d := diagnose(logText, string(out.Stdout)+string(out.Stderr)); d != "" {
		msg += ": " + d
	} else {
		msg += fmt.Sprintf(": the benchmark fails or panics under valgrind or under the count's settings, or valgrind cannot run it; "+
			"GOGC=off GOMAXPROCS=1 %s, without valgrind, tells them apart", c.reproduce(n))
	}
	output := child.Tail(out, 20)
	if ex := logExcerpt(logText); ex != "" {
		output += "valgrind's log:\n" + tailText(ex, 12)
	}
	return &Error{Reason: ReasonFailed, Benchmark: c.t.Benchmark, Message: msg, Output: output, Err: err}
}

// reproduce is the command that runs the process at n ops by hand,
// without valgrind.
func (c *counter) reproduce(n int) string {
	if c.command == "go test" {
		return fmt.Sprintf("`go test -run='^$' -bench='%s' -benchtime=%dx`", child.BenchFilter(c.t.Benchmark), n)
	}
	return fmt.Sprintf("`%s -test.run='^$' -test.bench='%s' -test.benchtime=%dx`", c.command, child.BenchFilter(c.t.Benchmark), n)
}

// deadline returns the deadline of a process expected to execute expect
// instructions and to take wall: Limits.Timeout when set, else
// baseDeadline plus four times the longer of wall and the expected
// instructions at the latest process's rate (minRate before one ran), or
// firstDeadline when expect is 0; never past what is left of
// Limits.Total. It is an error when nothing is left.
func (c *counter) deadline(expect float64, wall time.Duration) (time.Duration, error) {
	d := c.lim.Timeout
	if d <= 0 {
		rate := c.rate
		if rate <= 0 {
			rate = minRate
		}
		d = firstDeadline
		if expect > 0 {
			d = baseDeadline + 4*max(time.Duration(expect/rate*float64(time.Second)), wall)
		}
	}
	left := c.lim.Total - time.Since(c.start)
	if left <= 0 {
		return 0, errorf(ReasonDeadline, c.t.Benchmark, "the count passed its limit of %v after %d processes: count a faster benchmark, or raise the limit",
			c.lim.Total, len(c.runs))
	}
	return min(d, left), nil
}

// valgrindArgs are valgrind's options: cachegrind counting instructions
// only, no output file, its messages to logFile (its '%' escaped, which
// valgrind would expand).
func valgrindArgs(logFile string) []string {
	return []string{"--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
		"--log-file=" + strings.ReplaceAll(logFile, "%", "%%")}
}

// testArgs are the test binary's arguments for a process at n ops.
func testArgs(t Target, n int) []string {
	return append([]string{
		"-test.run=^$",
		"-test.bench=" + child.BenchFilter(t.Benchmark),
		"-test.count=1",
		"-test.cpu=1",
		"-test.benchmem=true",
		"-test.benchtime=" + strconv.Itoa(n) + "x",
	}, t.Args...)
}

// processEnv is a process's extra environment: extra, then the child
// markers for the benchmark name (result file resultFile, temporary
// files in dir), then the count's settings, GODEBUG after extra's or this
// process's own (cpuOff, then the count's own), and BENCHKIT_COUNT=off: a
// process that is not a child after all (a binary whose Main predates
// the markers) must not count in turn.
func processEnv(extra []string, name, resultFile, dir string, cpuOff []string) []string {
	godebug := os.Getenv("GODEBUG")
	for _, kv := range extra {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			godebug = v
		}
	}
	settings := append(slices.Clip(cpuOff), "asyncpreemptoff=1", "memprofilerate=0")
	if godebug != "" {
		settings = append([]string{godebug}, settings...)
	}
	env := append(append([]string{}, extra...), child.Env(name, resultFile)...)
	env = append(env, child.ChildEnv(dir)...)
	return append(env, "GODEBUG="+strings.Join(settings, ","), "GOMAXPROCS=1", "GOGC=off", "GOMEMLIMIT=off", "BENCHKIT_WARMUP=off", "BENCHKIT_COUNT=off")
}

// logExcerpt returns the lines of valgrind's log text that say something
// about a failure: not the banner (up to the "Parent PID:" line), not the
// cache configuration warnings (the simulation is off), not the empty
// "==pid==" lines, not the instruction count.
func logExcerpt(text string) string {
	var sb strings.Builder
	banner := strings.Contains(text, "Parent PID:")
	for line := range strings.Lines(text) {
		l := strings.TrimRight(line, "\r\n")
		switch {
		case banner:
			banner = !strings.Contains(l, "Parent PID:")
			continue
		case strings.Contains(l, "-- warning:") && strings.Contains(l, "cache"):
			continue
		case strings.HasPrefix(l, "==") && strings.HasSuffix(strings.TrimSpace(l), "=="), irefsLine.MatchString(l):
			continue
		}
		sb.WriteString(l + "\n")
	}
	return sb.String()
}

// tailText returns the last n lines of s.
func tailText(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}
