package seed001

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// hogEnv marks the child process: the test binary re-executed to run
// TestHogChild only.
const hogEnv = "SEED001_HOG_CHILD"

// hog is a child process that keeps every CPU busy until stopped.
type hog struct {
	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stopped bool
	timer   *time.Timer
}

// startHog starts the child now. Stop it with stop; it also stops by itself
// after HogLimit or when this process dies.
func startHog() (*hog, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHogChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), hogEnv+"=1", fmt.Sprintf("GOMAXPROCS=%d", hogThreads()))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("seed001: cannot start the CPU hog %s: %w", os.Args[0], err)
	}
	return &hog{cmd: cmd, stdin: stdin}, nil
}

// stop ends the child and waits for it. It is safe to call more than once
// and from several goroutines.
func (h *hog) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return
	}
	h.stopped = true
	if h.timer != nil {
		h.timer.Stop()
	}
	_ = h.stdin.Close()
	_ = h.cmd.Process.Kill()
	_ = h.cmd.Wait()
}

// hogWindow schedules a hog during a run of length d (-benchtime) starting
// now: on at d/10, off at 16d/10. The window outlasts d on purpose: b.Loop
// fixes the run's last and largest iteration count early, at the fast
// rate, so a hog that slows iterations 2.5-4× stretches the run, and a
// window ending at d would cover only about a sixth of the iterations
// (Loop's batches hold equal iteration counts). From d/10 to 16d/10 it
// covers roughly 30-50% of them, in the middle of the run.
func hogWindow(d time.Duration, logf func(string, ...any)) (stop func()) {
	var mu sync.Mutex
	var h *hog
	cancelled := false
	on := time.AfterFunc(d/10, func() {
		mu.Lock()
		defer mu.Unlock()
		if cancelled {
			return
		}
		var err error
		if h, err = startHog(); err != nil {
			logf("%v; measuring without it", err)
			return
		}
		h.timer = time.AfterFunc(3*d/2, h.stop)
	})
	return func() {
		on.Stop()
		mu.Lock()
		defer mu.Unlock()
		cancelled = true
		if h != nil {
			h.stop()
		}
	}
}

// hogPlan is what the hog does during one run of the benchmark.
type hogPlan int

const (
	hogNone     hogPlan = iota // no hog in this run
	hogMiddle                  // hogWindow: on for the middle of the run
	hogWholeRun                // on for the whole run
)

// benchCalls counts the calls of the benchmark function in this process
// (they are sequential: testing runs one benchmark at a time).
var benchCalls int

// nextHogPlan returns the plan for the next run. With -count below 6 every
// run gets the within-run window. With -count=N ≥ 6, runs
// [⌊N/3⌋, ⌊2N/3⌋) (from 0) run entirely under the hog and the others with
// none, so the runs themselves fall into two regimes, as seed 001's twenty
// runs did (runs 9 to 16 a third faster). With a -cpu list, each -count
// repeat runs once per value and gets one plan.
func nextHogPlan() hogPlan {
	count, cpus := 1, 1
	if f := flag.Lookup("test.count"); f != nil {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n > 0 {
			count = n
		}
	}
	if f := flag.Lookup("test.cpu"); f != nil && f.Value.String() != "" {
		cpus = len(strings.Split(f.Value.String(), ","))
	}
	run := benchCalls / cpus
	benchCalls++
	return planFor(run, count)
}

// planFor is nextHogPlan's rule for run (from 0) of count.
func planFor(run, count int) hogPlan {
	if count < 6 {
		return hogMiddle
	}
	if run%count >= count/3 && run%count < 2*count/3 {
		return hogWholeRun
	}
	return hogNone
}

// benchDuration returns the -test.benchtime duration, or false for an
// iteration count (Nx) or when the flag is absent.
func benchDuration() (time.Duration, bool) {
	f := flag.Lookup("test.benchtime")
	if f == nil {
		return 0, false
	}
	v := f.Value.String()
	if strings.HasSuffix(v, "x") {
		return 0, false
	}
	d, err := time.ParseDuration(v)
	return d, err == nil && d > 0
}

// hogThreads is how many threads the hog spins: two per CPU. Seed 001 ran
// sixteen CPU-bound processes on sixteen cores; here the benchmark's
// thread competes with 2·NumCPU hog threads, so it gets about
// NumCPU/(2·NumCPU+1) of a core on any machine, a 2-2.5× slowdown (more
// on a busy one), rather than a slowdown that shrinks with the core count.
func hogThreads() int { return 2 * runtime.NumCPU() }

// TestHogChild is the hog's body. It only runs in the child process (the
// test binary re-executed by startHog); elsewhere it skips. It spins
// hogThreads goroutines until its stdin closes or HogLimit passes.
func TestHogChild(t *testing.T) {
	if os.Getenv(hogEnv) != "1" {
		t.Skip("the CPU hog's body; runs only in the child process BenchmarkMakeBuffer_Correct starts")
	}
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin) // returns when the parent closes stdin or dies
		close(done)
	}()
	deadline := time.After(time.Duration(HogLimit))
	var wg sync.WaitGroup
	quit := make(chan struct{})
	for range hogThreads() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := uint64(1)
			for {
				select {
				case <-quit:
					sinkHog = x
					return
				default:
				}
				for range 10000 {
					x = x*6364136223846793005 + 1442695040888963407
				}
			}
		}()
	}
	select {
	case <-done:
	case <-deadline:
	}
	close(quit)
	wg.Wait()
}

var sinkHog uint64

func TestPlanFor(t *testing.T) {
	var got []hogPlan
	for run := range 12 {
		got = append(got, planFor(run, 12))
	}
	want := []hogPlan{0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0}
	if !slices.Equal(got, want) {
		t.Errorf("planFor(0..11, 12) = %v, want %v", got, want)
	}
	if p := planFor(0, 1); p != hogMiddle {
		t.Errorf("planFor(0, 1) = %v, want hogMiddle", p)
	}
	if p := planFor(16, 12); p != hogWholeRun {
		t.Errorf("planFor(16, 12) = %v, want hogWholeRun (runs repeat modulo count)", p)
	}
}

// TestHogStops checks that a hog window cancelled before it opens starts
// nothing, and that a started hog is gone after stop.
func TestHogStops(t *testing.T) {
	stop := hogWindow(time.Hour, t.Logf)
	stop()
	stop() // twice is fine

	h, err := startHog()
	if err != nil {
		t.Fatal(err)
	}
	h.stop()
	h.stop()
	if h.cmd.ProcessState == nil {
		t.Fatal("the hog process was not waited for")
	}
}
