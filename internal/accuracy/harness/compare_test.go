package harness

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/report"
)

// compared is one benchmark's control.Compare call with its candidates,
// at the GOMAXPROCS its printed name carries (1 when it has no suffix).
func compared(name string, cands ...verdict.Estimate) registry.Bench {
	procs := 1
	if i := strings.LastIndexByte(name, '-'); i >= 0 {
		if p, err := strconv.Atoi(name[i+1:]); err == nil {
			procs = p
		}
	}
	return registry.Bench{Name: name, Comparisons: []registry.Comparison{{Procs: procs, Result: verdict.Result{
		Baseline: "base", BaselineNsPerOp: 100, Rounds: 40, Confidence: 0.975, Forks: 1,
		Control: est("control", 0.02, -0.21, 0.25, verdict.Same), Candidates: cands,
	}}}}
}

func TestCompareOutcomes(t *testing.T) {
	nan := math.NaN()
	rep := writeRead(t, report.Input{Benches: []registry.Bench{
		compared("BenchmarkCompare/work=sum-2", est("p2", 1.93, 1.61, 2.20, verdict.Slower), est("same", -0.4, nan, nan, verdict.Undecided)),
		compared("BenchmarkCompare/work=swap/base=fnv-2", est("fold", -95.1, -95.3, -94.9, verdict.Faster)),
		compared("BenchmarkCompare/work=n=1-2/x-16", est("p5", 5.01, 4.5, 5.5, verdict.Slower)),
		compared("BenchmarkCompare/work=alloc", est("p2", -0.40, -0.90, 0.10, verdict.Undecided)), // GOMAXPROCS 1
		compared("BenchmarkAA-2", est("p2", 9.99, 9, 11, verdict.Slower)),
	}})
	got, err := CompareOutcomes(rep)
	require.NoError(t, err)
	assert.Equal(t, map[WorkImpl]Estimate{
		{"sum", "p2"}:    {Delta: 1.93, Lo: 1.61, Hi: 2.20, HasCI: true, Verdict: "slower"},
		{"sum", "same"}:  {Delta: -0.4, Verdict: "undecided"}, // no interval
		{"swap", "fold"}: {Delta: -95.1, Lo: -95.3, Hi: -94.9, HasCI: true, Verdict: "faster"},
		{"n=1-2", "p5"}:  {Delta: 5.01, Lo: 4.5, Hi: 5.5, HasCI: true, Verdict: "slower"},
		{"alloc", "p2"}:  {Delta: -0.40, Lo: -0.90, Hi: 0.10, HasCI: true, Verdict: "undecided"},
	}, got, "the controls and BenchmarkAA are left out")
}

func TestCompareOutcomesNoEstimate(t *testing.T) {
	nan := math.NaN()
	none := verdict.Estimate{Name: "p2", NsPerOp: -1, DeltaPct: nan, LoPct: nan, HiPct: nan, Verdict: verdict.Undecided, Reason: "nothing measured"}
	rep := writeRead(t, report.Input{Benches: []registry.Bench{compared("BenchmarkCompare/work=sum-2", none)}})
	_, err := CompareOutcomes(rep)
	require.Error(t, err)
	assert.Equal(t, "BenchmarkCompare/work=sum-2 p2: no estimate in the report (undecided: nothing measured)", err.Error())
}

func TestCompareOutcomesTwice(t *testing.T) {
	rep := writeRead(t, report.Input{Benches: []registry.Bench{
		compared("BenchmarkCompare/work=sum-2", est("p2", 1, 0.5, 1.5, verdict.Slower)),
		compared("BenchmarkCompare/work=sum/again-2", est("p2", 1, 0.5, 1.5, verdict.Slower)),
	}})
	_, err := CompareOutcomes(rep)
	require.Error(t, err)
	assert.Equal(t, "work=sum p2: compared twice in the report", err.Error())
}

// compareJSON is a report as a file holds it, with only the fields the
// lab reads.
const compareJSON = `{
  "schema": "benchkit-report/v1",
  "comparisons": [
    {"benchmark": "BenchmarkCompare/work=map-2", "baseline": "base", "procs": 2,
     "control": {"name": "control", "delta_pct": 0.1, "lo_pct": -0.2, "hi_pct": 0.3, "verdict": "same"},
     "candidates": [
       {"name": "p10", "delta_pct": 9.5, "lo_pct": 9.1, "hi_pct": 9.9, "verdict": "slower", "reason": "r"},
       {"name": "same", "delta_pct": 0.3, "lo_pct": null, "hi_pct": null, "verdict": "undecided", "reason": "no interval"}
     ]}
  ]
}`

func TestCompareOutcomesFile(t *testing.T) {
	rep, err := report.ReadJSON(strings.NewReader(compareJSON))
	require.NoError(t, err)
	got, err := CompareOutcomes(rep)
	require.NoError(t, err)
	assert.Equal(t, map[WorkImpl]Estimate{
		{"map", "p10"}:  {Delta: 9.5, Lo: 9.1, Hi: 9.9, HasCI: true, Verdict: "slower"},
		{"map", "same"}: {Delta: 0.3, Verdict: "undecided"},
	}, got)

	_, err = report.ReadJSON(strings.NewReader(strings.Replace(compareJSON, "report/v1", "report/v2", 1)))
	require.Error(t, err, "another schema is refused")
	assert.Contains(t, err.Error(), `"benchkit-report/v2"`)
}

func TestCompareOutcomesNone(t *testing.T) {
	got, err := CompareOutcomes(writeRead(t, report.Input{}))
	require.NoError(t, err)
	assert.Empty(t, got)
}
