package harness

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestMedianOrNaN(t *testing.T) {
	assert.Equal(t, 2.5, MedianOrNaN([]float64{4, 1, 3, 2}))
	assert.Equal(t, 2.0, MedianOrNaN([]float64{3, 1, 2}), "unsorted input")
	assert.True(t, math.IsNaN(MedianOrNaN(nil)), "NaN, not 0, for no values")
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
