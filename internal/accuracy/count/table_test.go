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

// counted is a count of perOp instructions per op, resolution 0.04%.
func counted(w, b string, rep int, perOp float64) measurement {
	return measurement{workload: w, build: b, rep: rep,
		res: count.Result{PerOp: perOp, ResolutionPct: 0.04, SpreadPct: -1, Wall: 3 * time.Second, Runs: make([]count.Run, 2)}}
}

func TestRows(t *testing.T) {
	ms := []measurement{
		counted("Compute", "base", 0, 16000), counted("Compute", "+1%", 0, 16150), counted("Compute", "+5%", 0, 16800),
		counted("Compute", "base", 1, 16002), counted("Compute", "+1%", 1, 16153), counted("Compute", "+5%", 1, 16790),
		counted("Compute", "base", 2, 16100), counted("Compute", "+1%", 2, 16090), // a base off by +0.6%, a +1% below its base
	}
	rs := rows(ms, allWorkloads, 3)
	require.Len(t, rs, 9, "three workloads × three builds")
	base, plus1, plus5 := rs[0], rs[1], rs[2]
	assert.Equal(t, 3, base.n)
	assert.Equal(t, 16002.0, base.perOp)
	assert.InDelta(t, 100*100/16002.0, base.spreadPct, 1e-9)
	assert.Equal(t, 2, base.pairs, "consecutive repetitions")
	assert.Equal(t, 1, base.changed, "16002 → 16100 is +0.61%")
	assert.Nil(t, base.deltas)

	assert.Equal(t, 3, plus1.pairs)
	assert.Equal(t, 2, plus1.rightSign)
	assert.Equal(t, 2, plus1.changed)
	assert.InDeltaSlice(t, []float64{0.9375, 100 * (16153/16002.0 - 1), 100 * (16090/16100.0 - 1)}, plus1.deltas, 1e-9)
	assert.Equal(t, 2, plus5.n, "a missing count is left out")
	assert.Equal(t, 2, plus5.rightSign)
	assert.Equal(t, 3*time.Second, plus5.wall)
	assert.Equal(t, 2.0, plus5.processes)
	assert.Equal(t, 0, rs[3].n, "no counts of Alloc")
	assert.True(t, math.IsNaN(rs[3].spreadPct))

	var buf bytes.Buffer
	printTable(&buf, rs)
	assert.Contains(t, buf.String(), "| Compute | +1% | 3 | 16150.0 | ")
	assert.Contains(t, buf.String(), "| 2/3 | 2/3 | 3.0 s, 2 processes |")
	assert.Contains(t, buf.String(), "| Compute | base | 3 | 16002.0 | 0.625% | – | 1/2 | – |")
}

func TestParseFlags(t *testing.T) {
	var stderr bytes.Buffer
	c, err := parseFlags([]string{"-r", "2"}, &stderr)
	require.NoError(t, err)
	assert.Equal(t, 2, c.r)
	assert.Equal(t, 2, c.busy)
	assert.Equal(t, count.DefaultBudget, c.budget)
	assert.Contains(t, c.commandLine(), "go run ./internal/accuracy count -r 2 -repeats 1 -busy 2")
	assert.Equal(t, allWorkloads, c.workloads)
	_, err = parseFlags([]string{"-r", "0"}, &stderr)
	assert.Error(t, err)
	c, err = parseFlags([]string{"-workloads", "Map,Compute"}, &stderr)
	require.NoError(t, err)
	assert.Equal(t, []string{"Map", "Compute"}, c.workloads)
	_, err = parseFlags([]string{"-workloads", "Sort"}, &stderr)
	assert.ErrorContains(t, err, `no workload "Sort"`)
}
