package env

import (
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// spin runs n goroutines that spin for d of wall time and returns the
// contention counters accumulated meanwhile and the loop iterations done.
func spin(n int, d time.Duration) (Contention, int64) {
	var stop atomic.Bool
	var iters atomic.Int64
	var wg sync.WaitGroup
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
	return ReadContention().Sub(before), iters.Load()
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
		q, qi := spin(2, d)
		stop := startHogs(t, 2)
		time.Sleep(100 * time.Millisecond) // let the hogs reach the run queue
		h, hi := spin(2, d)
		stop()
		if !q.WaitKnown || !h.WaitKnown || !q.SwitchesKnown || !h.SwitchesKnown {
			t.Fatalf("counters unknown on Linux: quiet %+v, hogs %+v", q, h)
		}
		quietWait += q.RunQueueWait
		hogWait += h.RunQueueWait
		t.Logf("round %d quiet: wait %6.1f ms/s, involuntary switches %4d, steal %v, iterations %d",
			round, ms(q.RunQueueWait)/d.Seconds(), q.InvoluntarySwitches, q.StealTime, qi)
		t.Logf("round %d hogs : wait %6.1f ms/s, involuntary switches %4d, steal %v, iterations %d (%.2fx quiet)",
			round, ms(h.RunQueueWait)/d.Seconds(), h.InvoluntarySwitches, h.StealTime, hi, float64(hi)/float64(max(qi, 1)))
	}
	if hogWait <= quietWait {
		t.Errorf("run-queue wait with hogs %v is not above quiet %v: the counter did not see the competition", hogWait, quietWait)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
