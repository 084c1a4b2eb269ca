package wander

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/report"
)

// synthetic returns n processes in which sum and sort follow one machine
// speed that rises process by process, map has its own per-process level
// (a hash seed), and each process's count runs are within ±1% of its
// level.
func synthetic(n, count int) []runs {
	var procs []runs
	for i := range n {
		speed := 1 + 0.05*float64(i)
		seed := 1 + 0.1*float64((i*7)%5)
		r := runs{}
		for j := range count {
			wob := 1 + 0.01*float64(j%3-1)
			r["Steady/work=sum-2"] = append(r["Steady/work=sum-2"], 160*speed*wob)
			r["Steady/work=sort-2"] = append(r["Steady/work=sort-2"], 1700*speed*speed*wob)
			r["Steady/work=map-2"] = append(r["Steady/work=map-2"], 400*seed*wob)
		}
		procs = append(procs, r)
	}
	return procs
}

func TestSummariseSeparatesMachineFromProcess(t *testing.T) {
	procs := synthetic(12, 3)
	long := runs{"Steady/work=sum-2": {100, 100, 101, 150, 151, 150}}

	sum := summarise("Steady/work=sum-2", "Steady/work=sum-2", procs, long)
	assert.Equal(t, 12, sum.n)
	assert.True(t, math.IsNaN(sum.rWithRef), "no correlation of the reference with itself")
	assert.Greater(t, sum.betweenCV, 10*sum.withinCV, "the machine's rise spreads processes far more than a process's runs")
	assert.InDelta(t, 1.51, sum.longMaxMin, 0.01)
	assert.Greater(t, sum.longLag1, 0.3, "a level that steps once is autocorrelated")

	sort := summarise("Steady/work=sort-2", "Steady/work=sum-2", procs, long)
	assert.Greater(t, sort.rWithRef, 0.95, "sort follows the same machine speed")
	assert.Less(t, sort.ratioCV, sort.betweenCV, "a ratio to sum cancels part of the common speed")
	assert.Greater(t, sort.ratioCV, 5.0, "but not sort's stronger response to it")
	assert.True(t, math.IsNaN(sum.ratioCV), "no ratio of the reference to itself")
	assert.True(t, math.IsNaN(sort.longCV), "no long runs for sort")

	mp := summarise("Steady/work=map-2", "Steady/work=sum-2", procs, long)
	assert.Less(t, math.Abs(mp.rWithRef), 0.5, "map's per-process seed does not follow the machine")
	assert.Greater(t, mp.betweenCV, 5*mp.withinCV)
}

func TestPearson(t *testing.T) {
	assert.InDelta(t, 1, pearson([]float64{1, 2, 3}, []float64{2, 4, 6}), 1e-12)
	assert.InDelta(t, -1, pearson([]float64{1, 2, 3}, []float64{3, 2, 1}), 1e-12)
	assert.True(t, math.IsNaN(pearson([]float64{1, 2}, []float64{1, 2})), "fewer than 3 pairs")
	assert.True(t, math.IsNaN(pearson([]float64{1, 1, 1}, []float64{1, 2, 3})), "a constant side")
}

func TestNamesPutsSumFirst(t *testing.T) {
	got := names(synthetic(2, 2))
	assert.Equal(t, []string{"Steady/work=sum-2", "Steady/work=map-2", "Steady/work=sort-2"}, got)
	got = names([]runs{{"Steady/work=sum4-2": {1}, "Steady/work=sum": {1}, "Steady/work=map": {1}}})
	assert.Equal(t, []string{"Steady/work=sum", "Steady/work=map", "Steady/work=sum4-2"}, got, "sum at GOMAXPROCS 1, not sum4")
}

func TestPrintTable(t *testing.T) {
	var buf bytes.Buffer
	printTable(&buf, synthetic(4, 3), nil, nil, 0)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.GreaterOrEqual(t, len(lines), 5)
	assert.Contains(t, lines[0], "r with Steady/work=sum-2")
	assert.True(t, strings.HasPrefix(lines[2], "| Steady/work=sum-2 | 4 |"), lines[2])
	for _, l := range lines[2:5] {
		assert.Equal(t, 12, strings.Count(l, "|"), l)
		assert.True(t, strings.HasSuffix(l, "| – | – | – |"), "no long process: %s", l)
		assert.Equal(t, "–", strings.TrimSpace(strings.Split(l, "|")[5]), "no -seeds: no one-seed column value")
	}

	// With one-seed processes, their between-process CV fills its column.
	buf.Reset()
	printTable(&buf, synthetic(4, 3), synthetic(4, 3), nil, 0)
	lines = strings.Split(strings.TrimSpace(buf.String()), "\n")
	assert.Regexp(t, `^\d+\.\d%$`, strings.TrimSpace(strings.Split(lines[3], "|")[5]), lines[3])

	buf.Reset()
	printTable(&buf, nil, nil, nil, 0)
	assert.Equal(t, "no workloads measured\n", buf.String())
}

func reportJSON(rows ...string) []byte {
	return []byte(fmt.Sprintf(`{"schema":"benchkit-report/v1","benchmarks":[%s]}`, strings.Join(rows, ",")))
}

// parse reads a JSON report and its runs of count 3.
func parse(b []byte) (runs, error) {
	rep, err := report.ReadJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return runsOf(rep, 3)
}

func TestRunsOf(t *testing.T) {
	got, err := parse(reportJSON(`{"display":"Steady/work=sum-2","sample_source":"runs","samples_ns_per_op":[1,2,3]}`))
	require.NoError(t, err)
	assert.Equal(t, runs{"Steady/work=sum-2": {1, 2, 3}}, got)

	_, err = parse(reportJSON(`{"display":"x","sample_source":"batches","samples_ns_per_op":[1,2,3]}`))
	assert.ErrorContains(t, err, `x: 3 samples from "batches", want 3 runs`)
	_, err = parse(reportJSON(`{"display":"x","sample_source":"runs","samples_ns_per_op":[1,2]}`))
	assert.ErrorContains(t, err, "want 3 runs")
	_, err = parse(reportJSON())
	assert.ErrorContains(t, err, "no benchmark in the report has runs")
	got, err = parse(reportJSON(`{"display":"Cmp-2","sample_source":"none","samples_ns_per_op":[]}`,
		`{"display":"y","sample_source":"runs","samples_ns_per_op":[4,5,6]}`))
	require.NoError(t, err)
	assert.Equal(t, runs{"y": {4, 5, 6}}, got, "a row without runs (Compare's) is left out")
	_, err = parse([]byte(`{"schema":"other/v9"}`))
	assert.ErrorContains(t, err, `schema is "other/v9", want "benchkit-report/v1"`)
	_, err = parse([]byte(`{`))
	assert.Error(t, err)
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags(nil, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "go run ./internal/accuracy wander -procs 12 -count 3 -long 25 -benchtime 1s -pkg ./internal/accuracy/workloads/signals -bench '^BenchmarkSteady$' -timeout 10m0s", cfg.commandLine())
	for _, args := range [][]string{{"-procs", "1"}, {"-count", "1"}, {"-long", "1"}, {"-timeout", "0s"}, {"-bench", ""}, {"extra"}} {
		_, err := parseFlags(args, io.Discard)
		assert.Error(t, err, "%q", args)
	}
}
