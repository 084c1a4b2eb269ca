package count

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/count"
)

// counted is a count of perOp instructions per op that count.Pair
// compared with its base as delta percent, changed or not.
func counted(w, b string, rep int, perOp, delta float64, changed bool) measurement {
	return measurement{workload: w, build: b, rep: rep,
		res:    count.Result{PerOp: perOp, ResolutionPct: 0.04, Wall: 3 * time.Second, Runs: make([]count.Run, 3)},
		change: count.Change{DeltaPct: delta, Changed: changed}}
}

func TestRows(t *testing.T) {
	ms := []measurement{
		counted("Compute", "base", 0, 16000, 0.01, false), counted("Compute", "+1%", 0, 16150, 0.94, true), counted("Compute", "+5%", 0, 16800, 5, true),
		counted("Compute", "base", 1, 16002, 0.6, true), counted("Compute", "+1%", 1, 16153, 0.9, true), counted("Compute", "+5%", 1, 16790, 4.9, true),
		counted("Compute", "base", 2, 16100, -0.02, false), counted("Compute", "+1%", 2, 16090, -0.1, false), // a +1% below its base
	}
	ms[0].against = "same"
	rs := rows(ms, allWorkloads)
	require.Len(t, rs, 9, "three workloads × three builds")
	base, plus1, plus5 := rs[0], rs[1], rs[2]
	assert.Equal(t, 3, base.n)
	assert.Equal(t, 16002.0, base.perOp)
	assert.InDelta(t, 100*100/16002.0, base.spreadPct, 1e-9)
	assert.Equal(t, 3, base.pairs, "one A/A pair a repetition")
	assert.Equal(t, 1, base.changed)
	assert.Nil(t, base.deltas)
	assert.Equal(t, []string{"same"}, base.verdicts)

	assert.Equal(t, 3, plus1.pairs)
	assert.Equal(t, 2, plus1.rightSign)
	assert.Equal(t, 2, plus1.changed)
	assert.Equal(t, []float64{0.94, 0.9, -0.1}, plus1.deltas)
	assert.Equal(t, 2, plus5.n, "a missing count is left out")
	assert.Equal(t, 2, plus5.rightSign)
	assert.Equal(t, 3*time.Second, plus5.wall)
	assert.Equal(t, 3.0, plus5.processes)
	assert.Equal(t, 0, rs[3].n, "no counts of Alloc")
	assert.True(t, math.IsNaN(rs[3].spreadPct))

	var buf bytes.Buffer
	printTable(&buf, rs)
	assert.Contains(t, buf.String(), "| Compute | +1% | 3 | 16150.0 | ")
	assert.Contains(t, buf.String(), "| 2/3 | 2/3 | 3.0 s, 3 processes |")
	assert.Contains(t, buf.String(), "| Compute | base | 3 | 16002.0 | 0.625% | – | 1/3 | – |")
}

func TestParseFlags(t *testing.T) {
	var stderr bytes.Buffer
	c, err := parseFlags([]string{"-r", "2"}, &stderr)
	require.NoError(t, err)
	assert.Equal(t, 2, c.r)
	assert.Equal(t, 2, c.busy)
	assert.Equal(t, count.DefaultBudget, c.budget)
	assert.Contains(t, c.commandLine(), "go run ./internal/accuracy count -r 2 -repeats 0 -busy 2")
	assert.Equal(t, allWorkloads, c.workloads)
	_, err = parseFlags([]string{"-r", "0"}, &stderr)
	assert.Error(t, err)
	c, err = parseFlags([]string{"-workloads", "Map,Compute"}, &stderr)
	require.NoError(t, err)
	assert.Equal(t, []string{"Map", "Compute"}, c.workloads)
	_, err = parseFlags([]string{"-workloads", "Sort"}, &stderr)
	assert.ErrorContains(t, err, `no workload "Sort"`)
}
