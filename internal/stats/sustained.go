package stats

import "math"

// SustainedBlocks sets the smoothing window of [Sustained]: a running
// median over w = 2·⌊n/(2·SustainedBlocks)⌋ + 1 values, about 1/16 of the
// timeline (17 of 256 batches, 9 of 128), at least 3.
const SustainedBlocks = 16

// SustainedWindow returns the running-median window [Sustained] uses for n
// values: 2·⌊n/(2·[SustainedBlocks])⌋ + 1, at least 3.
func SustainedWindow(n int) int {
	return max(3, 2*(n/(2*SustainedBlocks))+1)
}

// Sustained reports whether a split of xs (a timeline in time order) at
// the value split marks a sustained level rather than scattered bursts:
// after a running median of width w = [SustainedWindow](len(xs)) (the
// window shrinks at the ends), both the values above split and those at or
// below it must still hold at least max([RegimeMinSize],
// ⌈[RegimeMinShare]·n⌉) of the n smoothed values.
//
// A running median removes any excursion shorter than half its window: a
// burst of interference lasting a few batches vanishes, however high, and
// bursts scattered over the run leave the smoothed series at the base
// level. A CPU hog, or a frequency or placement change, that lasts a tenth
// of the run or more survives it, spiky or not, as long as more than half
// of each window is slowed. (Running medians: Tukey, "Exploratory Data
// Analysis", 1977, ch. 7.)
//
// share is the smaller of the two smoothed shares, in [0, 0.5]. ok is
// false, with sustained false, when xs is shorter than 2·RegimeMinSize or
// holds NaN or ±Inf. xs is not modified.
func Sustained(xs []float64, split float64) (sustained bool, share float64, ok bool) {
	n := len(xs)
	if n < 2*RegimeMinSize || !finite(xs) || math.IsNaN(split) {
		return false, 0, false
	}
	smooth := RunningMedian(xs, SustainedWindow(n))
	high := 0
	for _, v := range smooth {
		if v > split {
			high++
		}
	}
	minority := min(high, n-high)
	need := max(RegimeMinSize, int(math.Ceil(RegimeMinShare*float64(n))))
	return minority >= need, float64(minority) / float64(n), true
}

// RunningMedian returns the running median of xs with an odd window w
// (an even w is raised by one): out[i] is the median of xs[i−h : i+h+1],
// h = w/2, the window cut at both ends of xs. It returns a copy of xs when
// w ≤ 1 and nil for an empty xs. O(n·w·log w). xs is not modified.
func RunningMedian(xs []float64, w int) []float64 {
	if len(xs) == 0 {
		return nil
	}
	out := make([]float64, len(xs))
	if w <= 1 {
		copy(out, xs)
		return out
	}
	h := w / 2
	for i := range xs {
		out[i] = windowMedian(xs[max(0, i-h):min(len(xs), i+h+1)])
	}
	return out
}
