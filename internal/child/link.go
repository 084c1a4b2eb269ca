package child

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
)

// EnvLockstep marks a child that runs in lockstep with its parent: it
// blocks before its first timed run and after each run until the parent
// says go, and reports every run on file descriptor 3, never on the
// stdout go test parses.
const EnvLockstep = "BENCHKIT_CHILD_LOCKSTEP"

// The lockstep protocol, one line per message. The parent writes "go
// <token>" (run the next step) or "exit" (end the process) on the child's
// standard input; the child writes on descriptor 3 one line per step of
// the benchmark it runs (benchkit's Track reports only the runs testing
// prints, not testing's N=1 call before each, which goes straight on):
//
//	step <token> <N> <timed ns> <allocs> <bytes> <final 0|1> <gc cycles> <gc cpu ns> <heap goal> <heap live>
//	skip <token> <reason>
//	fail <token> <reason>
//
// allocs and bytes are testing's counts over the timed part of the step
// (-1 when unknown); final says the step is the run testing prints, not a
// ramp step. The collector's fields are what runtime/metrics says of the
// step: the cycles completed during it and the collector's CPU time
// (ns), and the heap goal and live heap (bytes) at its start, after the
// collection testing forces before every run; each -1 when unknown, and a
// report without them (an older child) has them unknown. token is the one the parent sent with the go that started
// the step: 16 random hex digits, new for every step, which code running
// in the child (the benchmark) has no way to read, so that a line the
// benchmark writes on descriptor 3 itself is never taken for a report.
//
// That is [Protocol] 2. Protocol 1 (benchkit before the token) has a
// bare "go" and reports without the token; a parent speaks it to a child
// whose discovery said nothing of a protocol ([Tracked].Protocol 0).
const (
	cmdGo   = "go"
	cmdExit = "exit"
)

// Protocol is the version of the lockstep protocol this package speaks.
const Protocol = 2

// EnvGCPhase is the variable that, set to 1 in a lockstep child's
// environment, makes each run begin at a random phase of the collector's
// cycle: [GCPhase].
const EnvGCPhase = "BENCHKIT_CHILD_GC_PHASE"

// gcGarbage holds the last garbage GCPhase made, so that it is not
// optimised away; the next collection frees it.
var gcGarbage [][]byte

// GCPhase allocates, in a lockstep child whose parent asked for it
// ([EnvGCPhase]), as garbage a uniform random share of headroom bytes (the
// heap's headroom after the collection testing forces before every run),
// so that the run that follows meets its next collection at a random
// point of the cycle rather than after exactly headroom bytes: a run then
// holds as many collections as the long run's rate gives it on average.
// Call it outside the timed region. It does nothing elsewhere.
func GCPhase(headroom int64) {
	if headroom <= 0 || !Is() || os.Getenv(EnvGCPhase) == "" {
		return
	}
	const chunk = 32 << 10
	left := rand.Int64N(headroom)
	gcGarbage = gcGarbage[:0]
	for ; left > 0; left -= chunk {
		gcGarbage = append(gcGarbage, make([]byte, min(left, chunk)))
	}
	gcGarbage = nil
}

// Step is one call of a benchmark function in a lockstep child.
type Step struct {
	N             int
	TimedNs       int64
	Allocs, Bytes int64
	Final         bool
	// GCCycles and GCCPUNs are the collector's cycles and CPU time (ns)
	// during the step; HeapGoal and HeapLive the heap goal and live heap
	// (bytes) at its start. -1 when unknown.
	GCCycles, GCCPUNs  int64
	HeapGoal, HeapLive int64
	// WaitNs is the benchmark thread's run-queue wait during the step
	// (ns): time it was ready to run while another thread held the CPU.
	// -1 when unknown (the goroutine changed threads, another platform,
	// or a child older than the field).
	WaitNs int64
}

// fields returns the step's report fields after the token.
func (s Step) fields() string {
	final := 0
	if s.Final {
		final = 1
	}
	return fmt.Sprintf("%d %d %d %d %d %d %d %d %d %d", s.N, s.TimedNs, s.Allocs, s.Bytes, final, s.GCCycles, s.GCCPUNs, s.HeapGoal, s.HeapLive, s.WaitNs)
}

// parseReport reads one line a lockstep child wrote: a step, or a skip or
// failure with its reason. Under protocol 2 the line must carry token
// after its kind; under protocol 1 (token "") it carries none.
func parseReport(line, token string) (Report, error) {
	kind, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch kind {
	case "skip", "fail", "step":
	default:
		return Report{}, fmt.Errorf("not a lockstep report: %q", line)
	}
	if token != "" {
		var got string
		got, rest, _ = strings.Cut(rest, " ")
		if got != token {
			return Report{}, fmt.Errorf("a %s report that does not answer the step the parent started (it carries %q, not the step's token): something other than benchkit wrote on the protocol's descriptor 3, or the process is confused: %q", kind, got, line)
		}
	}
	if kind != "step" {
		return Report{Kind: kind, Reason: rest}, nil
	}
	f := strings.Fields(rest)
	if len(f) != 5 && len(f) != 9 && len(f) != 10 {
		return Report{}, fmt.Errorf("a step report needs 5, 9 or 10 fields after its kind and token, got %q", line)
	}
	v := [10]int64{5: -1, 6: -1, 7: -1, 8: -1, 9: -1}
	for i, s := range f {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return Report{}, fmt.Errorf("a step report's field %d is not a number: %q", i+1, line)
		}
		v[i] = n
	}
	if v[0] < 1 || v[1] < 0 || (v[4] != 0 && v[4] != 1) {
		return Report{}, fmt.Errorf("a step report out of range: %q", line)
	}
	return Report{Kind: "step", Step: Step{N: int(v[0]), TimedNs: v[1], Allocs: v[2], Bytes: v[3], Final: v[4] == 1,
		GCCycles: v[5], GCCPUNs: v[6], HeapGoal: v[7], HeapLive: v[8], WaitNs: v[9]}}, nil
}

// Report is what a lockstep child said about one step.
type Report struct {
	// Kind is "step", "skip" or "fail"; Reason the skip's or failure's.
	Kind   string
	Reason string
	Step   Step
}

// Link is the child's end of the lockstep protocol.
type Link struct {
	mu      sync.Mutex
	in      *bufio.Reader
	out     io.Writer
	started bool
	// token is the one the last go carried, "" under protocol 1.
	token string
}

var link = sync.OnceValue(func() *Link {
	if !Is() || os.Getenv(EnvLockstep) == "" {
		return nil
	}
	return &Link{in: bufio.NewReader(os.Stdin), out: os.NewFile(3, "benchkit-lockstep")}
})

// Lockstep returns this process's end of the lockstep protocol, nil when
// it is not a lockstep child.
func Lockstep() *Link { return link() }

// Begin blocks, the first time it is called in the process, until the
// parent says go; later calls return at once. Call it before the first
// timed run.
func (l *Link) Begin() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		l.wait()
	}
}

// Step reports s and blocks until the parent says go again; if the parent
// says exit, or is gone, the process ends there (Done, or status 3).
func (l *Link) Step(s Step) { l.send("step", s.fields()) }

// Skip and Fail report that the benchmark skipped or failed, and wait
// as Step does.
func (l *Link) Skip(reason string) { l.send("skip", oneLine(reason)) }
func (l *Link) Fail(reason string) { l.send("fail", oneLine(reason)) }

// send writes one report, with the token of the step it answers, and
// waits for the next command.
func (l *Link) send(kind, rest string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.started = true
	msg := kind + " " + rest
	if l.token != "" {
		msg = kind + " " + l.token + " " + rest
	}
	if _, err := fmt.Fprintln(l.out, msg); err != nil {
		gone(err)
	}
	l.wait()
}

// wait reads the parent's next command: go (with the step's token)
// returns, exit ends the process.
func (l *Link) wait() {
	line, err := l.in.ReadString('\n')
	cmd, token, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch cmd {
	case cmdGo:
		l.token = token
		return
	case cmdExit:
		Done()
	}
	if err == nil {
		err = fmt.Errorf("unknown command %q", line)
	}
	gone(err)
}

// gone ends a lockstep child whose parent stopped answering.
func gone(err error) {
	fmt.Fprintf(os.Stderr, "benchkit: lockstep child: the parent is gone or confused (%v); exiting\n", err)
	os.Exit(3)
}

// oneLine keeps a reason on one protocol line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
