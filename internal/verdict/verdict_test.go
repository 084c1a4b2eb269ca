package verdict

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScheduleBlocks(t *testing.T) {
	s := NewSchedule(3, 1)
	for b := range 5 {
		var rows [][]int
		for range 3 {
			rows = append(rows, s.Next())
		}
		for pos := range 3 {
			col := []int{rows[0][pos], rows[1][pos], rows[2][pos]}
			slices.Sort(col)
			assert.Equal(t, []int{0, 1, 2}, col, "block %d position %d", b, pos)
		}
	}
	assert.Equal(t, NewSchedule(3, 9).Next(), NewSchedule(3, 9).Next(), "deterministic for a seed")
}

func TestSpread(t *testing.T) {
	iv, ok := Spread(nil, 0.95)
	assert.False(t, ok)
	assert.Equal(t, Interval{}, iv)

	iv, ok = Spread([]float64{1.1}, 0.95)
	assert.False(t, ok, "one ratio has no t-interval")
	assert.InDelta(t, 10, iv.DeltaPct, 1e-9)
	assert.Equal(t, iv.DeltaPct, iv.LoPct)
	assert.Equal(t, iv.DeltaPct, iv.HiPct)

	iv, ok = Spread([]float64{1.09, 1.10, 1.11, 1.10}, 0.975)
	require.True(t, ok)
	assert.InDelta(t, 10, iv.DeltaPct, 1e-9)
	assert.Less(t, iv.LoPct, 10.0)
	assert.Greater(t, iv.LoPct, 5.0)
	assert.Greater(t, iv.HiPct, 10.0)
	assert.Less(t, iv.HiPct, 15.0)
}

// TestDecideGroups checks the reason of a wide interval over processes,
// which names them and the fix given by the caller; the rest of the rule
// is tested case by case in package control's TestDecide.
func TestDecideGroups(t *testing.T) {
	ctl := Interval{DeltaPct: 0.1, LoPct: -0.5, HiPct: 0.6}
	r := Rule{Base: "base", Eps: 1, N: 10, Level: 0.975, MinN: 2, Groups: 10, GroupName: "rounds", GroupFix: "more rounds (-benchkit.rounds) narrow it"}
	v, why := r.Decide(ctl, true, Interval{DeltaPct: 1, LoPct: -3, HiPct: 5}, true)
	assert.Equal(t, Undecided, v)
	assert.Equal(t, "the interval contains 0 and reaches beyond ±1%: the 10 rounds disagree by more than that (control: [-0.50%, +0.60%]); more rounds (-benchkit.rounds) narrow it", why)
	v, _ = r.Decide(ctl, true, Interval{DeltaPct: 10, LoPct: 8, HiPct: 12}, true)
	assert.Equal(t, Slower, v)
	v, _ = r.DecideControl(ctl, true)
	assert.Equal(t, Same, v)
	// A control 126 points wide is not "same" (issue 11): it is a noise
	// floor too high to call anything the same.
	v, why = r.DecideControl(Interval{DeltaPct: 2, LoPct: -61, HiPct: 65}, true)
	assert.Equal(t, Undecided, v)
	assert.Equal(t, "noise floor too wide: a copy of base lies within [-61.00%, +65.00%], 126 points, more than 10×ε (1%); only differences beyond it can be told", why)
}

// TestDecidePlacement: a decided verdict under min(ε, PlacementPct) names
// code placement in its reason and keeps its verdict; a larger one does
// not.
func TestDecidePlacement(t *testing.T) {
	ctl := Interval{DeltaPct: 0, LoPct: -0.05, HiPct: 0.05}
	r := Rule{Base: "base", Eps: 0.5, N: 100, Level: 0.975, MinN: 7}
	v, why := r.Decide(ctl, true, Interval{DeltaPct: -0.3, LoPct: -0.6, HiPct: -0.1}, true)
	assert.Equal(t, Faster, v)
	assert.Contains(t, why, "; the estimate is within ±0.5%, a size by which code placement alone can move identical code")
	v, why = r.Decide(ctl, true, Interval{DeltaPct: -0.7, LoPct: -1.2, HiPct: -0.3}, true)
	assert.Equal(t, Faster, v)
	assert.NotContains(t, why, "placement", "0.7% is not under ε = 0.5%")

	r.Eps = 5 // a large ε: the note still stops at PlacementPct
	v, why = r.Decide(ctl, true, Interval{DeltaPct: 3, LoPct: 0.2, HiPct: 5.8}, true)
	assert.Equal(t, Slower, v)
	assert.NotContains(t, why, "placement", "3% is above PlacementPct")
	v, why = r.Decide(ctl, true, Interval{DeltaPct: 0.8, LoPct: 0.1, HiPct: 5.5}, true)
	assert.Equal(t, Slower, v)
	assert.Contains(t, why, "within ±1%")
}
