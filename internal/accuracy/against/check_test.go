package against

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// loggedCells are cells that hold, for Compute, logged outcomes: lockstep
// on +5% with Δ 4.6 to 5.4 and intervals 1.2 points wide, always
// "slower"; plain on A/A with Δ around 0, "same" or once "faster".
func loggedCells() []*cell {
	l := &cell{scenario: "+5%", method: "lockstep"}
	p := &cell{scenario: "A/A", method: "plain"}
	for i, d := range []float64{4.6, 4.8, 5.0, 5.2, 5.4} {
		l.add(map[string]outcome{"Compute": lock("slower", d, d-0.6, d+0.6, 10, "decided")}, nil)
		v := "same"
		if i == 0 {
			v = "faster"
		}
		p.add(map[string]outcome{"Compute": noComponents(v, d-5)}, nil)
	}
	return []*cell{l, p}
}

// checkOf is a check repetition with lockstep's and plain's outcomes.
func checkOf(l, p outcome) logged {
	return logged{Check: true, Cells: []loggedRep{
		{Scenario: "+5%", Method: "lockstep", Outcomes: map[string]outcome{"Compute": l}},
		{Scenario: "A/A", Method: "plain", Outcomes: map[string]outcome{"Compute": p}},
	}}
}

var computeOnly = config{workloads: []string{"Compute"}}

func TestCheckAgrees(t *testing.T) {
	// lockstep: IQR 0.4 (×3 = 1.2), width 1.2: 1.2 points of the median 5.0;
	// plain: IQR 0.4, no interval: 1.2 points of 0.
	disagree, missing := checkProblems(computeOnly, loggedCells(), checkOf(lock("slower", 6.1, 5.5, 6.7, 12, "budget"), noComponents("faster", -1.1)))
	assert.Empty(t, disagree)
	assert.Empty(t, missing)
}

func TestCheckFarDelta(t *testing.T) {
	disagree, missing := checkProblems(computeOnly, loggedCells(), checkOf(lock("slower", 6.3, 5.7, 6.9, 12, "decided"), noComponents("same", 0)))
	assert.Empty(t, missing)
	assert.Equal(t, []string{"Compute +5% lockstep: Δ +6.30% is 1.30 points from the logged median +5.00% (at most 1.20 allowed)"}, disagree)
}

func TestCheckNewVerdict(t *testing.T) {
	disagree, _ := checkProblems(computeOnly, loggedCells(), checkOf(lock("slower", 5, 4.4, 5.6, 10, "decided"), noComponents("slower", 0.2)))
	assert.Equal(t, []string{"Compute A/A plain: the verdict slower, which none of the 5 logged repetitions gave (faster 1, same 4)"}, disagree,
		"a flagged A/A the log only flagged the other way")
	disagree, _ = checkProblems(computeOnly, loggedCells(), checkOf(lock("undecided", 9, 7, 11, 31, "budget"), noComponents("same", 0)))
	assert.Len(t, disagree, 1)
	assert.True(t, strings.HasPrefix(disagree[0], "Compute +5% lockstep: Δ +9.00% is 4.00 points"), disagree[0])
	assert.Contains(t, disagree[0], "; the verdict undecided, which none of the 5 logged repetitions gave (slower 5)", "both problems, one line")
}

func TestCheckMissing(t *testing.T) {
	check := checkOf(lock("slower", 5, 4.4, 5.6, 10, "decided"), noComponents("same", 0))
	check.Cells = check.Cells[:1]
	disagree, missing := checkProblems(computeOnly, loggedCells(), check)
	assert.Empty(t, disagree)
	assert.Equal(t, []string{"Compute A/A plain"}, missing)
	cells := append(loggedCells(), &cell{scenario: "+2%", method: "plain"})
	_, missing = checkProblems(computeOnly, cells, checkOf(lock("slower", 5, 4.4, 5.6, 10, "decided"), noComponents("same", 0)))
	assert.Empty(t, missing, "nothing logged in +2% plain: nothing to compare")
}

func TestTolerance(t *testing.T) {
	assert.Equal(t, 1.0, tolerance([]outcome{noComponents("same", 0.1), noComponents("same", 0.2)}), "at least 1 point")
	wide := []outcome{lock("same", 0, -3, 3, 6, "budget"), lock("same", 0.1, -3, 3, 6, "budget")}
	assert.Equal(t, 6.0, tolerance(wide), "the median width")
	spread := []outcome{noComponents("same", -4), noComponents("same", 0), noComponents("same", 0), noComponents("same", 4)}
	assert.InDelta(t, 6.0, tolerance(spread), 1e-12, "3 × the IQR, of the type 7 quartiles −1 and 1")
}
