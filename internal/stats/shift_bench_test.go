package stats

import (
	"math/rand/v2"
	"testing"
)

// shiftTimeline is a 256-batch timeline with a sustained 50% level shift
// over its middle third: the case where ShiftedBlock runs all of its
// permutations.
func shiftTimeline() []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 256)
	for i := range xs {
		xs[i] = 100 * (1 + 0.02*r.NormFloat64())
		if i >= 85 && i < 170 {
			xs[i] *= 1.5
		}
	}
	return xs
}

func BenchmarkShiftedBlock(b *testing.B) {
	xs := shiftTimeline()
	for b.Loop() {
		if _, ok := ShiftedBlock(xs); !ok {
			b.Fatal("the shift was not found")
		}
	}
}
