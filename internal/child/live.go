package child

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// Live is a child kept running while its parent drives it through the
// lockstep protocol (see [Link]): one step at a time, each with its own
// deadline. Its stdout and stderr are captured as [Run]'s are, never
// copied into the parent's.
type Live struct {
	spec           Spec
	cmd            *exec.Cmd
	stdin          io.WriteCloser
	reports        chan string
	done           chan struct{} // closed when the process has ended
	waitErr        error
	stdout, stderr *tailBuffer
	start          time.Time
	cancel         context.CancelFunc
	// token is the current step's, "" under protocol 1.
	token string
}

// ErrNoPipe is Start's error on a platform that cannot pass a child the
// extra file descriptor the protocol reports on.
var ErrNoPipe = errors.New("this platform cannot pass a child process the pipe the lockstep protocol reports on")

// Start starts the child of s in lockstep mode (s.Env gets EnvLockstep);
// s.Timeout bounds the whole process, and each step has its own deadline
// ([Live.Go]). The child never outlives the parent: its stdin is the
// parent's pipe, and on Linux it also dies with the parent (Pdeathsig).
func Start(s Spec) (*Live, error) {
	if runtime.GOOS == "windows" {
		return nil, ErrNoPipe
	}
	if s.Timeout <= 0 {
		return nil, fmt.Errorf("child: Start %s: the timeout must be positive, got %v", s.shown(), s.Timeout)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("child: %s: %w", s.shown(), err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.Timeout)
	cmd := exec.CommandContext(ctx, s.Path, s.Args...)
	cmd.Dir = s.Dir
	cmd.Env = append(append(os.Environ(), s.Env...), EnvLockstep+"=1")
	l := &Live{spec: s, cmd: cmd, reports: make(chan string, 16), done: make(chan struct{}),
		stdout: &tailBuffer{max: MaxOutput}, stderr: &tailBuffer{max: MaxOutput}, cancel: cancel}
	cmd.Stdout, cmd.Stderr = l.stdout, l.stderr
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = sysProcAttr()
	cmd.WaitDelay = 5 * time.Second
	if l.stdin, err = cmd.StdinPipe(); err != nil {
		cancel()
		r.Close()
		w.Close()
		return nil, fmt.Errorf("child: %s: %w", s.shown(), err)
	}
	l.start = time.Now()
	err = startLocked(cmd, s.AuxRandom)
	w.Close() // the child holds its own copy
	if err != nil {
		cancel()
		r.Close()
		return nil, fmt.Errorf("child: cannot start %s: %w", s.shown(), err)
	}
	hold("", cmd.Process, false)
	go l.read(r)
	go func() {
		l.waitErr = cmd.Wait()
		release("", cmd.Process)
		close(l.done)
	}()
	return l, nil
}

// read forwards the child's report lines until the pipe closes.
func (l *Live) read(r *os.File) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<16)
	for sc.Scan() {
		l.reports <- sc.Text()
	}
	close(l.reports)
}

// Go tells the child to run its next step (the first Go releases it from
// its wait before its first run) and waits for the step's report, at most
// timeout. A child that ends, says something that is not a report of this
// step, or passes the deadline gives an *Error with its output, and is
// killed. A child whose report pipe closes while it lives (the benchmark
// closed descriptor 3) is waited for until the same deadline, then
// killed.
func (l *Live) Go(timeout time.Duration) (Report, error) {
	cmd := cmdGo
	if l.spec.Protocol != 1 {
		l.token = fmt.Sprintf("%016x", rand.Uint64())
		cmd += " " + l.token
	}
	if _, err := io.WriteString(l.stdin, cmd+"\n"); err != nil {
		return Report{}, l.failed(fmt.Errorf("cannot tell it to go: %w", err), false)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	expired := func() error {
		return l.failed(fmt.Errorf("did not report its step within its deadline of %v", timeout.Round(time.Millisecond)), true)
	}
	select {
	case line, ok := <-l.reports:
		if !ok {
			select {
			case <-l.done:
				return Report{}, l.failed(errors.New("ended without reporting its step"), false)
			case <-timer.C:
				return Report{}, l.failed(fmt.Errorf("closed the report pipe (descriptor 3) and did not end within its step's deadline of %v", timeout.Round(time.Millisecond)), true)
			}
		}
		rep, err := parseReport(line, l.token)
		if err != nil {
			return Report{}, l.failed(err, false)
		}
		return rep, nil
	case <-timer.C:
		return Report{}, expired()
	}
}

// Fail kills the child for a report its parent cannot take (why), waits
// for it, and returns an *Error that carries its output, as a failed
// step does.
func (l *Live) Fail(why error) error { return l.failed(why, false) }

// failed kills the child, waits for it, and returns an *Error that
// carries its output.
func (l *Live) failed(why error, timeout bool) error {
	l.Kill()
	return &Error{Spec: l.spec, Result: l.Result(), Timeout: timeout, Err: why, Step: why.Error()}
}

// Stop tells the child to exit and waits for it, at most 5 seconds, after
// which it is killed. It is safe to call more than once, and after Kill.
func (l *Live) Stop() {
	_, _ = io.WriteString(l.stdin, cmdExit+"\n")
	_ = l.stdin.Close()
	select {
	case <-l.done:
	case <-time.After(5 * time.Second):
		l.Kill()
	}
	l.cancel()
}

// Kill ends the child (the process this Live started, by its pid) and
// waits for it.
func (l *Live) Kill() {
	_ = l.cmd.Process.Kill()
	<-l.done
	l.cancel()
}

// Pid returns the child's process id.
func (l *Live) Pid() int { return l.cmd.Process.Pid }

// Result returns what the child printed so far, its exit status (-1
// while it runs or when it was killed) and how long it has run.
func (l *Live) Result() Result {
	r := Result{Stdout: l.stdout.Bytes(), Stderr: l.stderr.Bytes(), Elapsed: time.Since(l.start), Code: -1}
	select {
	case <-l.done:
		if l.cmd.ProcessState != nil {
			r.Code, r.Signal = l.cmd.ProcessState.ExitCode(), signalOf(l.cmd.ProcessState)
		}
	default:
	}
	return r
}
