package count

import (
	"fmt"
	"math"
	"slices"
)

// The fixed-N arithmetic (see the package doc).
const (
	// N1 is the ops of the first process of every count.
	N1 = 2
	// DefaultBudget is the instructions the two processes' totals should
	// differ by: at about 500 million instructions a second under
	// cachegrind on this project's 2-core machine, two seconds more than
	// the first process, and NoiseFloor is 0.02% of it.
	DefaultBudget int64 = 1_000_000_000
	// NoiseFloor is the most a process's total instructions at a fixed N
	// moved between processes in this project's measurements of its
	// accuracy workloads (docs/counts.md), rounded up: the runtime's
	// background work that wakes on time, and searches whose length
	// depends on addresses.
	NoiseFloor int64 = 200_000
	// InstructionsPerNs bounds instructions per op from a native ns/op
	// hint: few CPUs retire more than 8 instructions a nanosecond.
	InstructionsPerNs = 8
	// MaxK is the most ops between the two processes.
	MaxK = 1_000_000_000
	// MaxSteps is the most processes at N2 that search for k.
	MaxSteps = 5
	// DefaultHeapBytes bounds the bytes the ops between the two processes
	// may allocate (the garbage collector is off).
	DefaultHeapBytes int64 = 1 << 30
	// DefaultRepeats is the processes a count runs at N2: two, so that
	// every count knows how far its processes land apart.
	DefaultRepeats = 2
	// MaxRepeats is the most processes at N2 [Pair] runs on each side.
	MaxRepeats = 5
	// maxGrowth is the most k grows in one step.
	maxGrowth = 100
)

// PerOp returns the instructions per op of two processes that executed
// t1 and t2 instructions in all at n1 < n2 ops: (t2 − t1)/(n2 − n1). It
// is an error when n2 ≤ n1, or when t2 < t1 (the difference is lost in
// the processes' noise: the op executes almost nothing).
func PerOp(t1, t2 int64, n1, n2 int) (float64, error) {
	if n2 <= n1 {
		return 0, fmt.Errorf("count: the second process must run more ops than the first, got %d and %d", n1, n2)
	}
	if t2 < t1 {
		return 0, fmt.Errorf("count: %d ops more executed %d fewer instructions (%d at N=%d, %d at N=%d): "+
			"the op executes fewer instructions than the processes' noise resolves", n2-n1, t1-t2, t1, n1, t2, n2)
	}
	return float64(t2-t1) / float64(n2-n1), nil
}

// FirstEstimate returns the estimate of instructions per op before any
// difference is known: at most t1/n1 (the first process's total t1 over
// its n1 ops, an upper bound since the rest of the process executes
// ≥ 0 instructions), and at most InstructionsPerNs × nsPerOp when a
// native ns/op is known (nsPerOp > 0). It is at least 1.
func FirstEstimate(t1 int64, n1 int, nsPerOp float64) float64 {
	est := float64(t1) / float64(max(n1, 1))
	if nsPerOp > 0 && !math.IsInf(nsPerOp, 0) {
		est = min(est, InstructionsPerNs*nsPerOp)
	}
	return max(est, 1)
}

// NextK returns k = N2 − N1 for an estimate est of instructions per op:
// ⌈budget/est⌉, at most maxGrowth × prevK when prevK > 0, at most
// heapBytes/bytesPerOp when bytesPerOp > 0, and within [1, MaxK]. capped
// reports that a limit other than the growth per step held k below
// ⌈budget/est⌉: a further step cannot get closer to the budget. A k not
// above prevK means the search can go no further.
func NextK(est float64, budget int64, prevK int, bytesPerOp float64, heapBytes int64) (k int, capped bool) {
	want := math.Ceil(float64(budget) / max(est, 1))
	limit := float64(MaxK)
	if bytesPerOp > 0 {
		limit = min(limit, math.Floor(float64(heapBytes)/bytesPerOp))
	}
	limit = max(limit, 1)
	capped = want > limit
	kf := min(want, limit)
	if prevK > 0 {
		kf = min(kf, float64(prevK)*maxGrowth)
	}
	return int(max(1, min(kf, float64(MaxK)))), capped
}

// Refine returns the estimate after a process at k ops more than the
// first gave a difference of diff instructions: diff/k when the
// difference stands out of the noise (at least 20 × NoiseFloor), else
// the old estimate over maxGrowth, so that the next k grows as much as a
// step allows.
func Refine(est float64, diff int64, k int) float64 {
	if diff >= 20*NoiseFloor && k > 0 {
		return float64(diff) / float64(k)
	}
	return max(est/maxGrowth, 1)
}

// Enough reports whether a difference of diff instructions is close
// enough to the budget to stop searching: at least half of it.
func Enough(diff, budget int64) bool { return 2*diff >= budget }

// medianInt returns the lower middle value of xs (the median for an odd
// count; for an even one a measured total, not a mean), 0 for none.
func medianInt(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}
