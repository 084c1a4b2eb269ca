package benchkit

import (
	"sync"
	"time"
)

// floorIters and floorTries size the calibration: floorTries timings of an
// empty loop of floorIters iterations (about 25 µs each at 0.35 ns per
// iteration), of which the fastest counts.
const (
	floorIters = 1 << 16
	floorTries = 21
)

var (
	floorOnce sync.Once
	floorNs   float64
)

// emptyLoopFloor returns the cost, in ns, of one iteration of an empty
// counted loop in this process, the fastest of several timings, measured
// once per process on first use. testing.Benchmark cannot be called from
// inside a benchmark (it deadlocks on testing's benchmark lock), so the
// loop is timed directly. It returns 0 if the clock could not resolve it.
func emptyLoopFloor() float64 {
	floorOnce.Do(func() { floorNs = measureFloor(floorIters, floorTries) })
	return floorNs
}

func measureFloor(iters, tries int) float64 {
	best := time.Duration(0)
	for range tries {
		start := time.Now()
		emptyLoop(iters)
		d := time.Since(start)
		if d > 0 && (best == 0 || d < best) {
			best = d
		}
	}
	return float64(best) / float64(iters)
}

// emptyLoop runs n iterations that do nothing. The compiler keeps empty
// counted loops; noinline keeps n unknown at compile time.
//
//go:noinline
func emptyLoop(n int) {
	for i := 0; i < n; i++ {
	}
}
