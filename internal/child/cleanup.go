package child

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The parent's cleanup on an interrupting signal: while it has a child
// running or a temporary directory of its own, SIGINT, SIGTERM and SIGHUP
// first kill those children (by pid, only the ones it started) and remove
// those directories, then end the process as the signal would have.
// Outside those stretches the signals keep their default action.
var cleanup struct {
	mu    sync.Mutex
	dirs  map[string]bool
	procs map[*os.Process]bool // true: kill its process group (Spec.Group)
	sigs  chan os.Signal
}

var interrupting = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// received is the interrupting signal this process received while it
// watched the signals, nil before one arrives.
var received atomic.Value

// Interrupted returns the interrupting signal (SIGINT, SIGTERM, SIGHUP)
// this process received while it had a child running or a temporary
// directory of its own, or nil. Once it is not nil, the process is ending:
// no measurement after it may be reported.
func Interrupted() os.Signal {
	if s, ok := received.Load().(os.Signal); ok {
		return s
	}
	return nil
}

// InterruptedBy returns the interrupting signal behind a child's end: this
// process's own ([Interrupted]), or, when the child r describes was
// ended by an interrupting signal this process did not send (a Ctrl-C
// reaches the whole process group, and the children may die before this
// process's handler runs), the signal this process receives within a
// grace of two seconds. nil means the child's end was its own.
func InterruptedBy(r Result) os.Signal {
	if s := Interrupted(); s != nil || !slices.Contains(interrupting, r.Signal) {
		return s
	}
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s := Interrupted(); s != nil {
			return s
		}
	}
	return nil
}

// hold registers a directory or a process (with its process group when
// group is true) for the cleanup, and starts watching the signals when
// it is the first.
func hold(dir string, p *os.Process, group bool) {
	cleanup.mu.Lock()
	defer cleanup.mu.Unlock()
	if cleanup.dirs == nil {
		cleanup.dirs, cleanup.procs = map[string]bool{}, map[*os.Process]bool{}
	}
	if dir != "" {
		cleanup.dirs[dir] = true
	}
	if p != nil {
		cleanup.procs[p] = group
	}
	if cleanup.sigs == nil {
		cleanup.sigs = make(chan os.Signal, 1)
		signal.Notify(cleanup.sigs, interrupting...)
		go onSignal(cleanup.sigs)
	}
}

// release forgets a directory or a process, and stops watching the
// signals when nothing is left.
func release(dir string, p *os.Process) {
	cleanup.mu.Lock()
	defer cleanup.mu.Unlock()
	delete(cleanup.dirs, dir)
	delete(cleanup.procs, p)
	if len(cleanup.dirs) == 0 && len(cleanup.procs) == 0 && cleanup.sigs != nil {
		signal.Stop(cleanup.sigs)
		close(cleanup.sigs)
		cleanup.sigs = nil
	}
}

// onSignal waits for a signal on ch, cleans up, and re-raises it with its
// default action.
func onSignal(ch chan os.Signal) {
	sig, ok := <-ch
	if !ok {
		return
	}
	received.Store(sig)
	cleanup.mu.Lock()
	for p, group := range cleanup.procs {
		if group {
			_ = killGroup(p)
		} else {
			_ = p.Kill()
		}
	}
	for d := range cleanup.dirs {
		_ = os.RemoveAll(d)
	}
	cleanup.mu.Unlock()
	fmt.Fprintf(os.Stderr, "benchkit: %v: ended the child processes and removed the temporary directories this process made\n", sig)
	signal.Reset(interrupting...)
	reraise(sig)
}

// TempDir makes a new directory for a parent's child processes (their
// result files, their own temporary files) and returns it with the
// function that removes it; the directory is also removed if the process
// is interrupted first. It tries $TMPDIR (os.TempDir), then the system's
// default temporary directory when $TMPDIR does not work, and returns an
// error that names the fix when neither does.
func TempDir(prefix string) (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", prefix)
	if err != nil {
		first := err
		if fallback := defaultTempDir(); fallback != "" && fallback != os.TempDir() {
			dir, err = os.MkdirTemp(fallback, prefix)
		}
		if err != nil {
			return "", func() {}, fmt.Errorf("cannot create a temporary directory for the child processes in %s (%v): set TMPDIR to a writable directory", os.TempDir(), first)
		}
	}
	hold(dir, nil, false)
	return dir, func() {
		_ = os.RemoveAll(dir)
		release(dir, nil)
	}, nil
}

// ChildEnv returns the environment entries that give a child its own
// temporary directory inside dir, so that what it leaves behind (a
// testing.B.TempDir a killed child could not remove) goes with dir.
func ChildEnv(dir string) []string {
	tmp := filepath.Join(dir, "tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil
	}
	return []string{"TMPDIR=" + tmp, "TMP=" + tmp, "TEMP=" + tmp}
}
