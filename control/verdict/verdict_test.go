package verdict

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpread(t *testing.T) {
	iv, ok := spread(nil, 0.95)
	assert.False(t, ok)
	assert.Zero(t, iv.DeltaPct)
	assert.True(t, math.IsNaN(iv.LoPct) && math.IsNaN(iv.HiPct), "no interval is NaN, never a point")

	iv, ok = spread([]float64{1.1}, 0.95)
	assert.False(t, ok, "one ratio has no t-interval")
	assert.InDelta(t, 10, iv.DeltaPct, 1e-9)
	assert.True(t, math.IsNaN(iv.LoPct) && math.IsNaN(iv.HiPct), "one ratio: no interval, not [Δ, Δ]")

	iv, ok = spread([]float64{1.09, 1.10, 1.11, 1.10}, 0.975)
	require.True(t, ok)
	assert.InDelta(t, 10, iv.DeltaPct, 1e-9)
	assert.Less(t, iv.LoPct, 10.0)
	assert.Greater(t, iv.LoPct, 5.0)
	assert.Greater(t, iv.HiPct, 10.0)
	assert.Less(t, iv.HiPct, 15.0)
}

// TestDecideGroups checks the reason of a wide interval over processes,
// which names them and the fix given by the caller; the rest of the rule
// is tested case by case in TestDecide.
func TestDecideGroups(t *testing.T) {
	ctl := interval{DeltaPct: 0.1, LoPct: -0.5, HiPct: 0.6}
	r := rule{Base: "base", Eps: 1, N: 10, Level: 0.975, MinN: 2, Groups: 10, GroupName: "rounds", GroupFix: "more rounds (-benchkit.rounds) narrow it"}
	v, why := r.Decide(ctl, true, interval{DeltaPct: 1, LoPct: -3, HiPct: 5}, true)
	assert.Equal(t, Undecided, v)
	assert.Equal(t, "the interval contains 0 and reaches beyond ±1%: the 10 rounds disagree by more than that (control: [-0.50%, +0.60%]); more rounds (-benchkit.rounds) narrow it", why)
	v, _ = r.Decide(ctl, true, interval{DeltaPct: 10, LoPct: 8, HiPct: 12}, true)
	assert.Equal(t, Slower, v)
	v, _ = r.DecideControl(ctl, true)
	assert.Equal(t, Same, v)
	// A control 126 points wide is not "same": it is a noise
	// floor too high to call anything the same.
	v, why = r.DecideControl(interval{DeltaPct: 2, LoPct: -61, HiPct: 65}, true)
	assert.Equal(t, Undecided, v)
	assert.Equal(t, "noise floor too wide: a copy of base lies within [-61.00%, +65.00%], 126 points, more than 10×ε (1%); only differences beyond it can be told", why)
}

// TestDecidePlacement: a decided verdict under min(ε, PlacementPct) names
// code placement in its reason and keeps its verdict; a larger one does
// not.
func TestDecidePlacement(t *testing.T) {
	ctl := interval{DeltaPct: 0, LoPct: -0.05, HiPct: 0.05}
	r := rule{Base: "base", Eps: 0.5, N: 100, Level: 0.975, MinN: 7}
	v, why := r.Decide(ctl, true, interval{DeltaPct: -0.3, LoPct: -0.6, HiPct: -0.1}, true)
	assert.Equal(t, Faster, v)
	assert.Contains(t, why, "; the estimate is within ±0.5%, a size by which code placement alone can move identical code")
	v, why = r.Decide(ctl, true, interval{DeltaPct: -0.7, LoPct: -1.2, HiPct: -0.3}, true)
	assert.Equal(t, Faster, v)
	assert.NotContains(t, why, "placement", "0.7% is not under ε = 0.5%")

	r.Eps = 5 // a large ε: the note still stops at PlacementPct
	v, why = r.Decide(ctl, true, interval{DeltaPct: 3, LoPct: 0.2, HiPct: 5.8}, true)
	assert.Equal(t, Slower, v)
	assert.NotContains(t, why, "placement", "3% is above PlacementPct")
	v, why = r.Decide(ctl, true, interval{DeltaPct: 0.8, LoPct: 0.1, HiPct: 5.5}, true)
	assert.Equal(t, Slower, v)
	assert.Contains(t, why, "within ±1%")
}

// TestDecide covers the verdict rule case by case on made-up
// estimates: rule.Decide and rule.DecideControl are pure, so every branch
// is reached with exact numbers and its full reason checked.
func TestDecide(t *testing.T) {
	quiet := interval{DeltaPct: 0.02, LoPct: -0.2, HiPct: 0.25}
	off := interval{DeltaPct: 2.9, LoPct: 2.5, HiPct: 3.3}
	above := interval{DeltaPct: 0.3, LoPct: 0.1, HiPct: 0.45}    // excludes 0, within ε/2
	below := interval{DeltaPct: -0.3, LoPct: -0.45, HiPct: -0.1} // excludes 0, within ε/2
	est := func(d, lo, hi float64) interval { return interval{DeltaPct: d, LoPct: lo, HiPct: hi} }
	tests := []struct {
		name   string
		rounds int
		ctl    interval
		ctlOK  bool
		e      interval
		ok     bool
		want   Verdict
		text   string
		reason string
	}{
		{"too few rounds", 5, est(2, 2, 2), false, est(100, 100, 100), false, Undecided,
			"only 5 rounds: a 97.5% interval needs at least 7; raise -benchtime",
			"no control interval: nothing is decided, however large the point estimate"},
		{"control off", 100, off, true, est(5, 4, 6), true, Undecided,
			"cannot decide: the control (a copy of base) came out +2.90% [+2.50%, +3.30%], off zero by more than ±0.5%, and the interval is not beyond it by that much again; the machine was too noisy to tell differences of this size; rerun when it is quieter or raise -benchtime",
			"a control off zero by more than ε/2 leaves a +5% within its offset of it undecided"},
		{"control off, far beyond", 100, off, true, est(10, 9, 11), true, Slower,
			"the control (a copy of base) came out +2.90% [+2.50%, +3.30%], off zero, and the interval lies above it by more than that offset again",
			"+10% [+9, +11] lies above the control's +3.3% by more than its 2.9% offset"},
		{"control off, far below", 100, off, true, est(-10, -11, -9), true, Faster,
			"the control (a copy of base) came out +2.90% [+2.50%, +3.30%], off zero, and the interval lies below it by more than that offset again",
			"-10% lies below the control's +2.5% by more than its offset"},
		{"control off before no interval", 100, off, true, est(10, 10, 10), false, Undecided,
			"cannot decide: the control (a copy of base) came out +2.90% [+2.50%, +3.30%], off zero by more than ±0.5%, and the interval is not beyond it by that much again; the machine was too noisy to tell differences of this size; rerun when it is quieter or raise -benchtime",
			"the control's state is reported first"},
		{"no interval", 100, quiet, true, est(10, 10, 10), false, Undecided,
			"no interval: a time could not be paired",
			"a candidate without an interval is not decided"},
		{"same", 100, quiet, true, est(0.1, -0.8, 0.9), true, Same,
			"the interval lies within ±1% (Negligible)",
			"the whole interval inside ±ε"},
		{"same at the edges", 100, quiet, true, est(0, -1, 1), true, Same,
			"the interval lies within ±1% (Negligible)",
			"±ε itself counts as within"},
		{"same beats slower", 100, quiet, true, est(0.7, 0.5, 0.9), true, Same,
			"the interval lies within ±1% (Negligible)",
			"excludes 0 and lies above the control, but within ±ε: Same comes first"},
		{"slower", 100, quiet, true, est(4.93, 4.61, 5.2), true, Slower,
			"the interval excludes 0 and lies above the control's [-0.20%, +0.25%]",
			"above 0 and above the control's interval"},
		{"faster", 100, quiet, true, est(-5, -5.3, -4.7), true, Faster,
			"the interval excludes 0 and lies below the control's [-0.20%, +0.25%]",
			"below 0 and below the control's interval"},
		{"faster under ε", 100, quiet, true, est(-0.6, -1.3, -0.3), true, Faster,
			"the interval excludes 0 and lies below the control's [-0.20%, +0.25%]; the estimate is within ±1%, a size by which code placement alone can move identical code (another function, another build): it may not survive a rebuild",
			"decided, but smaller than ε: the verdict stays and names placement"},
		{"slower under ε", 100, quiet, true, est(0.9, 0.4, 1.4), true, Slower,
			"the interval excludes 0 and lies above the control's [-0.20%, +0.25%]; the estimate is within ±1%, a size by which code placement alone can move identical code (another function, another build): it may not survive a rebuild",
			"decided, but smaller than ε"},
		{"contains 0", 100, quiet, true, est(0.5, -2, 3), true, Undecided,
			"the interval contains 0 and reaches beyond ±1%: too wide to tell with 100 rounds (control: [-0.20%, +0.25%]); raise -benchtime or quiet the machine",
			"an interval across 0 that is wider than ±ε"},
		{"overlaps control above", 100, above, true, est(1.5, 0.2, 3), true, Undecided,
			"the interval excludes 0 but overlaps the control's [+0.10%, +0.45%]: the difference is inside this run's noise floor",
			"above 0 but starting inside the control's interval"},
		{"overlaps control below", 100, below, true, est(-1.5, -3, -0.2), true, Undecided,
			"the interval excludes 0 but overlaps the control's [-0.45%, -0.10%]: the difference is inside this run's noise floor",
			"below 0 but ending inside the control's interval"},
		{"touches control", 100, above, true, est(2, 0.45, 3), true, Undecided,
			"the interval excludes 0 but overlaps the control's [+0.10%, +0.45%]: the difference is inside this run's noise floor",
			"sharing the control's bound is an overlap: slower needs strictly above"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rule{Base: "base", Eps: 1, N: tt.rounds, Level: 0.975, MinN: 7}
			v, text := r.Decide(tt.ctl, tt.ctlOK, tt.e, tt.ok)
			assert.Equal(t, tt.want, v, tt.reason)
			assert.Equal(t, tt.text, text, tt.reason)
		})
	}

	controls := []struct {
		name   string
		ctl    interval
		ctlOK  bool
		want   Verdict
		text   string
		reason string
	}{
		{"too few rounds", est(2, 2, 2), false, Undecided,
			"only 100 rounds: a 97.5% interval needs at least 7; raise -benchtime",
			"without an interval the control is undecided too"},
		{"off", off, true, Undecided,
			"a copy of base measured +2.90% [+2.50%, +3.30%] from it: the harness's own error exceeds ±0.5%",
			"excludes 0 and beyond ε/2"},
		{"quiet", quiet, true, Same,
			"noise floor: a copy of base lies within [-0.20%, +0.25%]",
			"contains 0"},
		{"excludes 0 within half ε", above, true, Same,
			"noise floor: a copy of base lies within [+0.10%, +0.45%]",
			"a control off zero by less than ε/2 is still the noise floor"},
	}
	for _, tt := range controls {
		t.Run("control/"+tt.name, func(t *testing.T) {
			r := rule{Base: "base", Eps: 1, N: 100, Level: 0.975, MinN: 7}
			v, text := r.DecideControl(tt.ctl, tt.ctlOK)
			assert.Equal(t, tt.want, v, tt.reason)
			assert.Equal(t, tt.text, text, tt.reason)
		})
	}
}
