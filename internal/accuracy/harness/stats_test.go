package harness

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestQuantile(t *testing.T) {
	assert.Equal(t, 2.0, Quantile([]float64{3, 1, 2}, 0.5), "unsorted input")
	assert.Equal(t, 2.5, Quantile([]float64{1, 2, 3, 4}, 0.5))
	assert.Equal(t, 1.75, Quantile([]float64{1, 2, 3, 4}, 0.25), "type 7: 1 + 0.75·(2−1)")
	assert.Equal(t, 3.25, Quantile([]float64{1, 2, 3, 4}, 0.75))
	assert.Equal(t, 1.0, Quantile([]float64{4, 3, 2, 1}, 0))
	assert.Equal(t, 4.0, Quantile([]float64{1, 2, 3, 4}, 1))
	assert.Equal(t, 7.0, Quantile([]float64{7}, 0.5))
	assert.Equal(t, 0.0, Quantile(nil, 0.5))
	xs := []float64{3, 1, 2}
	Quantile(xs, 0.5)
	assert.Equal(t, []float64{3, 1, 2}, xs, "xs is not modified")
}

func TestMedianOrNaN(t *testing.T) {
	assert.Equal(t, 2.5, MedianOrNaN([]float64{4, 1, 3, 2}))
	assert.True(t, math.IsNaN(MedianOrNaN(nil)), "NaN, not Quantile's 0, for no values")
}

func TestMedianDuration(t *testing.T) {
	assert.Equal(t, 2*time.Second, MedianDuration([]time.Duration{3 * time.Second, time.Second, 2 * time.Second}))
	assert.Equal(t, 1500*time.Millisecond, MedianDuration([]time.Duration{time.Second, 2 * time.Second}))
	assert.Equal(t, time.Duration(0), MedianDuration(nil))
}

func TestTallyVerdicts(t *testing.T) {
	vs := []string{"same", "faster", "slower", "slower", "undecided"}
	assert.Equal(t, Tally{N: 5, Flagged: 3, Undecided: 1}, TallyVerdicts(vs, true), "zero truth: either sign is flagged")
	assert.Equal(t, Tally{N: 5, Flagged: 2, Wrong: 1, Undecided: 1}, TallyVerdicts(vs, false), "positive truth: slower is caught, faster wrong")
	assert.Equal(t, Tally{}, TallyVerdicts(nil, false))
}
