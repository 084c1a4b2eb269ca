package child

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Environment variables that mark a child process.
const (
	// EnvResult holds the path of the file the child writes its result
	// to. With EnvParent it marks the process as a child.
	EnvResult = "BENCHKIT_CHILD_RESULT"
	// EnvTarget holds the full name (b.Name()) of the one benchmark the
	// child is to measure.
	EnvTarget = "BENCHKIT_CHILD_TARGET"
	// EnvParent holds the process id of the parent that started the
	// child: a marker left in the environment by something else (a shell
	// that exported it, a child's own child) does not match os.Getppid.
	EnvParent = "BENCHKIT_CHILD_PARENT"
)

// Is reports whether this process is a child started by a benchkit
// parent: EnvResult is set and EnvParent names this process's parent.
func Is() bool {
	return os.Getenv(EnvResult) != "" && os.Getenv(EnvParent) == strconv.Itoa(os.Getppid())
}

// Stray returns a warning when EnvResult is set but this process is not a
// child (EnvParent is missing or names another process), "" otherwise:
// the marker leaked into the environment, and is ignored.
func Stray() string {
	v := os.Getenv(EnvResult)
	if v == "" || Is() {
		return ""
	}
	return fmt.Sprintf("benchkit: %s=%s is set, but this process was not started by a benchkit parent (%s=%q, parent pid %d): ignored, this run reports as usual; unset it",
		EnvResult, v, EnvParent, os.Getenv(EnvParent), os.Getppid())
}

// Target returns the benchmark name the child was started for, and the
// file its result goes to; ok is false outside a child.
func Target() (name, resultFile string, ok bool) {
	if !Is() {
		return "", "", false
	}
	return os.Getenv(EnvTarget), os.Getenv(EnvResult), true
}

// Done ends a child once its result is written: nothing after the
// measurement (the caller's code, the benchmark's cleanups, TestMain's
// teardown) runs in a child, so that only the parent acts on the result.
func Done() {
	os.Exit(0)
}

// BenchFilter returns a -test.bench pattern that selects exactly the
// benchmark named name (a b.Name() such as "BenchmarkX/size=1K#01"):
// each '/'-separated element quoted with regexp.QuoteMeta and anchored,
// "^BenchmarkX$/^size=1K#01$". testing matches each element against the
// unique name it gives a sub-benchmark (spaces rewritten to '_', "#01"
// for a repeated name), which is what b.Name() returns, and its pattern
// splitter honours the backslash escapes QuoteMeta adds, so names with
// regexp metacharacters, '|' or brackets select only themselves.
func BenchFilter(name string) string {
	elems := strings.Split(name, "/")
	for i, e := range elems {
		elems[i] = "^" + regexp.QuoteMeta(e) + "$"
	}
	return strings.Join(elems, "/")
}

// TopFilter returns the -test.bench pattern that selects exactly the
// top-level benchmarks tops (functions such as "BenchmarkSum") and, below
// them, what bench selects: bench's first level replaced by an anchored
// alternation of the quoted names, its other levels kept as given
// (bench "." with BenchmarkA and BenchmarkB gives "^(BenchmarkA|BenchmarkB)$",
// "Sum/n=1" with BenchmarkSum gives "^(BenchmarkSum)$/n=1"). With no tops
// it selects none: no top-level name is empty. The caller keeps only the
// tops bench selects ([Selects]).
func TopFilter(bench string, tops []string) string {
	quoted := make([]string, len(tops))
	for i, t := range tops {
		quoted[i] = regexp.QuoteMeta(t)
	}
	first := "^$"
	if len(tops) > 0 {
		first = "^(" + strings.Join(quoted, "|") + ")$"
	}
	return strings.Join(append([]string{first}, SplitPattern(bench)[1:]...), "/")
}

// Spec is one child process to run.
type Spec struct {
	// Path is the binary; Args its arguments (without the binary). Shown,
	// when not "", is the path messages name instead of Path (the file
	// the user gave, where Path is /proc/<pid>/fd/<n>).
	Path, Shown string
	Args        []string
	// Env holds extra "KEY=value" entries added to the parent's
	// environment.
	Env []string
	// Dir is the working directory, "" for the parent's.
	Dir string
	// Timeout is the deadline from the start; it must be positive.
	Timeout time.Duration
	// Protocol is the lockstep protocol a child of [Start] speaks: 0 for
	// this package's ([Protocol]), 1 for the first version (no token).
	Protocol int
	// Group marks a tool that starts processes of its own (git, the go
	// command and its compiler): on Unix it runs in a process group of
	// its own, and a deadline or an interrupt kills the whole group; on
	// Windows, the tool itself. Such a child is not a benchkit child: it
	// gets no stdin pipe to watch, and on Linux only the tool itself
	// dies with the parent (what it started finishes its step and
	// exits).
	Group bool
	// AuxRandom, when not nil, replaces the 16 random bytes the kernel
	// gives the new program (AT_RANDOM), from which the Go runtime seeds
	// its random state and so every map's hash seed: processes started
	// with the same bytes draw the same seeds, as far as they draw them
	// in the same order. Only where [AuxRandom] reports true.
	AuxRandom *[16]byte
}

func (s Spec) shown() string {
	if s.Shown != "" {
		return s.Shown
	}
	return s.Path
}

// Result is what a child process did.
type Result struct {
	// Stdout and Stderr are what the child printed, at most
	// MaxOutput bytes of each (the end is kept).
	Stdout, Stderr []byte
	// Code is the exit status, -1 when the process was killed.
	Code    int
	Elapsed time.Duration
	// Signal is the signal that ended the process, nil when it exited
	// (and on Windows).
	Signal os.Signal
}

// MaxOutput bounds the bytes of each output stream a [Result] keeps.
const MaxOutput = 1 << 20

// Error is a child that failed: it exited non-zero, was killed, or passed
// its deadline; or, driven in lockstep, broke the protocol (Step says how).
type Error struct {
	Spec    Spec
	Result  Result
	Timeout bool
	Err     error
	// Step, for a lockstep child, says what went wrong with a step ("did
	// not report its step within its deadline of 1s"); "" otherwise.
	Step string
}

func (e *Error) Error() string {
	return fmt.Sprintf("child process %s %s %s; its output:\n%s",
		e.Spec.shown(), strings.Join(e.Spec.Args, " "), e.What(), Tail(e.Result, 40))
}

// What says what happened to the process, without its command line and
// output: "exited with status 3", "did not finish within its deadline of
// 2m0s and was killed", or a lockstep step's trouble with how the
// process ended.
func (e *Error) What() string {
	what := fmt.Sprintf("exited with status %d", e.Result.Code)
	switch {
	case e.Step != "":
		what = e.Step + " (it was ended)"
		if e.Result.Code >= 0 {
			what = fmt.Sprintf("%s (it exited with status %d)", e.Step, e.Result.Code)
		}
	case e.Timeout:
		what = fmt.Sprintf("did not finish within its deadline of %v and was killed", e.Spec.Timeout)
	case e.Result.Code < 0:
		what = fmt.Sprintf("was killed (%v)", e.Err)
	}
	return what
}

// Tail returns r's stdout and then its stderr, each cut to its first n/2
// and last n/2 lines when longer than n: a panic's message is at the top
// of its stack trace, a failure's summary at the end.
func Tail(r Result, n int) string {
	var sb strings.Builder
	head, tail := n/2, n-n/2
	for _, out := range [][]byte{r.Stdout, r.Stderr} {
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if len(lines) > n {
			cut := fmt.Sprintf("… (%d lines left out)", len(lines)-n)
			lines = append(append(lines[:head:head], cut), lines[len(lines)-tail:]...)
		}
		if s := strings.Join(lines, "\n"); strings.TrimSpace(s) != "" {
			sb.WriteString(s)
			sb.WriteString("\n")
		}
	}
	if sb.Len() == 0 {
		return "(nothing)\n"
	}
	return sb.String()
}

// Run starts the child described by s, waits for it, and returns what it
// did. A child that exits non-zero, is killed, or passes s.Timeout gives
// an *Error (with the Result); a binary that cannot be started gives the
// start error. The child's standard input is a pipe that stays open until
// Run returns, for [Watch] (a Spec.Group tool's is the null device). Run
// never returns before the child has ended.
func Run(s Spec) (Result, error) {
	if s.Timeout <= 0 {
		return Result{}, fmt.Errorf("child: Run %s: the timeout must be positive, got %v", s.shown(), s.Timeout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Path, s.Args...)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), s.Env...)
	stdout, stderr := &tailBuffer{max: MaxOutput}, &tailBuffer{max: MaxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = sysProcAttr()
	cmd.WaitDelay = 5 * time.Second
	if s.Group {
		cmd.SysProcAttr = inGroup(cmd.SysProcAttr)
		cmd.Cancel = func() error { return killGroup(cmd.Process) }
	}
	var stdin io.Closer = io.NopCloser(nil)
	if !s.Group {
		pipe, err := cmd.StdinPipe()
		if err != nil {
			return Result{}, fmt.Errorf("child: %s: %w", s.shown(), err)
		}
		stdin = pipe
	}
	start := time.Now()
	if err := startLocked(cmd, s.AuxRandom); err != nil {
		return Result{}, fmt.Errorf("child: cannot start %s: %w", s.shown(), err)
	}
	hold("", cmd.Process, s.Group)
	err := cmd.Wait()
	release("", cmd.Process)
	_ = stdin.Close()
	r := Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Elapsed: time.Since(start)}
	if cmd.ProcessState != nil {
		r.Code, r.Signal = cmd.ProcessState.ExitCode(), signalOf(cmd.ProcessState)
	}
	if err == nil {
		return r, nil
	}
	return r, &Error{Spec: s, Result: r, Timeout: errors.Is(ctx.Err(), context.DeadlineExceeded), Err: err}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Clone(t.buf.Bytes())
}

var watchOnce sync.Once

// Watch makes a child exit with status 3 as soon as its standard input
// (the parent's pipe) reaches end of file or fails: the parent has ended,
// or given up on it. It returns at once and does nothing outside a child.
// Call it early in the child; calling it again is harmless.
func Watch() {
	if !Is() || os.Getenv(EnvLockstep) != "" {
		return // a lockstep child reads its stdin for commands (Link)
	}
	watchOnce.Do(func() {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			fmt.Fprintln(os.Stderr, "benchkit: child process: the parent closed its pipe (it ended or gave up); exiting")
			os.Exit(3)
		}()
	})
}
