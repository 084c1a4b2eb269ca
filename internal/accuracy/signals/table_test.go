package signals

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/report"
)

func fp(x float64) *float64 { return &x }
func ip(x int) *int         { return &x }

// batchRow is a process's row measured from batches.
func batchRow(ns float64, grade report.Grade, lo, hi int, regimes bool) report.JSONBenchmark {
	r := report.JSONBenchmark{Display: "Steady/work=sum-2", SampleSource: report.SourceBatches, MedianNs: fp(ns), CVPct: fp(12), MedianCIPct: fp(1.5),
		Grade: grade, WaitPct: fp(3), RunsNeeded: ip(lo), RunsNeededHi: ip(hi), RunsNeededBasis: "batch-ci"}
	for i := range 32 {
		r.Samples = append(r.Samples, ns*(1+0.01*float64(i%5)))
	}
	if regimes {
		r.Regimes = &report.JSONRegimes{Method: "level-shift"}
	}
	return r
}

func TestSummarise(t *testing.T) {
	rs := []report.JSONBenchmark{
		batchRow(100, "excellent", 6, 10, false),
		batchRow(110, "acceptable", 6, 40, false),
		batchRow(90, "do-not-trust", 6, 8, true),
	}
	rs[1].Flags = []report.JSONFlag{{Kind: "eliminated"}}
	s := summarise("Steady/work=sum-2", rs)
	assert.Equal(t, [4]int{1, 1, 0, 1}, s.gradeNew)
	assert.Equal(t, [4]int{0, 0, 0, 3}, s.gradeOld, "12% batch cv: do-not-trust by the old rule")
	assert.Equal(t, 1, s.regimesNew)
	assert.Equal(t, 1, s.eliminated)
	assert.InDelta(t, 10.0, s.runCV, 1e-9, "cv of 100, 110, 90")
	assert.Equal(t, 64, s.truth, "⌈16·(10/5)²⌉")
	assert.Equal(t, []int{6, 6}, s.los, "rows with regimes are left out of runs-needed")
	assert.Equal(t, "6–25", printedCell(s))
}

func TestPrintTable(t *testing.T) {
	var buf bytes.Buffer
	printTable(&buf, map[string][]report.JSONBenchmark{
		"MakeBuffer_Correct-2": {batchRow(300, "do-not-trust", 100, 900, true)},
		"Steady/work=sum-2":    {batchRow(100, "excellent", 6, 6, false), batchRow(101, "excellent", 6, 6, false)},
	})
	lines := strings.Split(buf.String(), "\n")
	require.GreaterOrEqual(t, len(lines), 4)
	assert.True(t, strings.HasPrefix(lines[2], "| Steady/work=sum-2 | 2 |"), "steady rows first: %q", lines[2])
	assert.True(t, strings.HasPrefix(lines[3], "| MakeBuffer_Correct-2 | 1 |"), "%q", lines[3])
	assert.Contains(t, lines[2], "| 2/0/0/0 |")
}
