package env

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runTime sums the first schedstat field (time on a CPU, ns) over the
// process's threads; the demonstration uses it to turn wait into a share.
func runTime() time.Duration {
	names, _ := os.ReadDir("/proc/self/task")
	var total int64
	for _, e := range names {
		b, err := os.ReadFile("/proc/self/task/" + e.Name() + "/schedstat")
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			v, _ := strconv.ParseInt(f[0], 10, 64)
			total += v
		}
	}
	return time.Duration(total)
}

// threadWait is the run-queue wait of the calling OS thread so far.
func threadWait() time.Duration {
	t, _ := ReadThreadSelf()
	return t.Wait
}

// spinResult is what one spin phase measured.
type spinResult struct {
	c          Contention    // ReadContention after minus before
	run        time.Duration // CPU time of all the process's threads
	spinWait   time.Duration // run-queue wait of the spinning threads only
	iterations int64
}

// spin runs n goroutines, each locked to its OS thread, that spin for d of
// wall time, and returns what the counters saw meanwhile.
func spin(n int, d time.Duration) spinResult {
	var stop atomic.Bool
	var iters, spinWait atomic.Int64
	var wg sync.WaitGroup
	run0 := runTime()
	before := ReadContention()
	for range n {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w0 := threadWait()
			var k int64
			for !stop.Load() {
				k++
			}
			spinWait.Add(int64(threadWait() - w0))
			iters.Add(k)
		})
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	return spinResult{
		c:          ReadContention().Sub(before),
		run:        max(0, runTime()-run0),
		spinWait:   time.Duration(spinWait.Load()),
		iterations: iters.Load(),
	}
}

// startHogs starts n `timeout 5 sh -c 'while :; do :; done'` busy loops and
// returns a function that ends them (SIGTERM to timeout, which forwards it
// to its sh) and waits for them.
func startHogs(t *testing.T, n int) func() {
	t.Helper()
	var cmds []*exec.Cmd
	for range n {
		c := exec.Command("timeout", "5", "sh", "-c", "while :; do :; done")
		require.NoError(t, c.Start(), "starting a hog")
		cmds = append(cmds, c)
	}
	return func() {
		for _, c := range cmds {
			_ = c.Process.Signal(syscall.SIGTERM)
		}
		for _, c := range cmds {
			_ = c.Wait()
		}
	}
}

// TestDemoContention shows that the run-queue wait counter rises when CPU
// hogs compete with a workload: two goroutines spin for 1 s, alone and then
// with two external busy loops, twice over. It is a demonstration, run only
// with BENCHKIT_DEMO_CONTENTION=1:
//
//	BENCHKIT_DEMO_CONTENTION=1 go test -run TestDemoContention -v ./internal/env/
func TestDemoContention(t *testing.T) {
	if os.Getenv("BENCHKIT_DEMO_CONTENTION") != "1" {
		t.Skip("set BENCHKIT_DEMO_CONTENTION=1 to run the contention demonstration (starts 2 busy loops for ~1 s, twice)")
	}
	const d = time.Second
	var quietWait, hogWait time.Duration
	for round := 1; round <= 2; round++ {
		q := spin(2, d)
		stop := startHogs(t, 2)
		time.Sleep(100 * time.Millisecond) // let the hogs reach the run queue
		h := spin(2, d)
		stop()
		require.True(t, q.c.WaitKnown && h.c.WaitKnown && q.c.SwitchesKnown && h.c.SwitchesKnown,
			"counters unknown on Linux: quiet %+v, hogs %+v", q.c, h.c)
		quietWait += q.c.RunQueueWait
		hogWait += h.c.RunQueueWait
		for _, r := range []struct {
			name string
			spinResult
		}{{"quiet", q}, {"hogs ", h}} {
			t.Logf("round %d %s: process wait %6.1f ms/s (%4.1f%% of runnable time), spinners' wait %6.1f ms/s, "+
				"involuntary switches %4d, steal %v, iterations %.2fx quiet",
				round, r.name, ms(r.c.RunQueueWait)/d.Seconds(),
				100*float64(r.c.RunQueueWait)/float64(max(1, r.c.RunQueueWait+r.run)),
				ms(r.spinWait)/d.Seconds(), r.c.InvoluntarySwitches, r.c.StealTime,
				float64(r.iterations)/float64(max(q.iterations, 1)))
		}
	}
	assert.Greater(t, hogWait, quietWait, "run-queue wait with hogs is not above quiet: the counter did not see the competition")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
