package env

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
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

// spin runs n goroutines that spin for d of wall time and returns the
// contention counters accumulated meanwhile, the CPU time the process's
// threads got, and the loop iterations done.
func spin(n int, d time.Duration) (Contention, time.Duration, int64) {
	var stop atomic.Bool
	var iters atomic.Int64
	var wg sync.WaitGroup
	run0 := runTime()
	before := ReadContention()
	for range n {
		wg.Go(func() {
			var k int64
			for !stop.Load() {
				k++
			}
			iters.Add(k)
		})
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	return ReadContention().Sub(before), max(0, runTime()-run0), iters.Load()
}

// startHogs starts n `timeout 5 sh -c 'while :; do :; done'` busy loops and
// returns a function that ends them (SIGTERM to timeout, which forwards it
// to its sh) and waits for them.
func startHogs(t *testing.T, n int) func() {
	t.Helper()
	var cmds []*exec.Cmd
	for range n {
		c := exec.Command("timeout", "5", "sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			t.Fatalf("starting a hog: %v", err)
		}
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
		q, qr, qi := spin(2, d)
		stop := startHogs(t, 2)
		time.Sleep(100 * time.Millisecond) // let the hogs reach the run queue
		h, hr, hi := spin(2, d)
		stop()
		if !q.WaitKnown || !h.WaitKnown || !q.SwitchesKnown || !h.SwitchesKnown {
			t.Fatalf("counters unknown on Linux: quiet %+v, hogs %+v", q, h)
		}
		quietWait += q.RunQueueWait
		hogWait += h.RunQueueWait
		for _, r := range []struct {
			name       string
			c          Contention
			run        time.Duration
			iterations int64
		}{{"quiet", q, qr, qi}, {"hogs ", h, hr, hi}} {
			t.Logf("round %d %s: wait %6.1f ms/s, on CPU %6.1f ms/s, waited %4.1f%% of runnable time, "+
				"involuntary switches %4d, steal %v, iterations %.2fx quiet",
				round, r.name, ms(r.c.RunQueueWait)/d.Seconds(), ms(r.run)/d.Seconds(),
				100*float64(r.c.RunQueueWait)/float64(max(1, r.c.RunQueueWait+r.run)),
				r.c.InvoluntarySwitches, r.c.StealTime, float64(r.iterations)/float64(max(qi, 1)))
		}
	}
	if hogWait <= quietWait {
		t.Errorf("run-queue wait with hogs %v is not above quiet %v: the counter did not see the competition", hogWait, quietWait)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
