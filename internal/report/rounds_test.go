package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// TestSamplesRounds: the samples file holds each comparison's per-round,
// per-implementation times under "samples: rounds", named
// <Name>/impl=<impl>-<procs>, so that benchstat's "-col /impl" projection
// puts baseline, control and candidate side by side in one table.
func TestSamplesRounds(t *testing.T) {
	c := registry.Comparison{Result: verdict.Result{Baseline: "old", BatchIters: 500, Rounds: 3, Control: verdict.Estimate{Name: "control"}, Candidates: []verdict.Estimate{{Name: "new"}}}, Procs: 2, RoundNs: [][]float64{{100, 101, 102}, {100.5, 99.5, 101}, {50, 51, 52}}}
	in := Input{GOOS: "linux", Benches: []registry.Bench{
		{Name: "BenchmarkFormat-2", Comparisons: []registry.Comparison{c}},
		{Name: "BenchmarkNoRounds", Comparisons: []registry.Comparison{{Result: verdict.Result{Baseline: "a"}, Procs: 1}}},
		{Name: "BenchmarkOne", Comparisons: []registry.Comparison{{Result: verdict.Result{Baseline: "a", BatchIters: 0, Control: verdict.Estimate{Name: "control"}}, Procs: 1, RoundNs: [][]float64{{7}, {7.5}}}}},
	}}
	var buf bytes.Buffer
	require.NoError(t, Samples(&buf, in))
	text := buf.String()
	assert.Contains(t, text, "samples: rounds\n")
	assert.Contains(t, text, "BenchmarkFormat/impl=old-2 500 100 ns/op\n")
	assert.Contains(t, text, "BenchmarkOne/impl=control 1 7.5 ns/op\n", "procs 1: no suffix; 0 calls per batch written as 1")
	assert.NotContains(t, text, "NoRounds", "a comparison without rounds writes nothing")

	var pp benchproc.ProjectionParser
	col, err := pp.Parse("/impl", nil)
	require.NoError(t, err)
	row, err := pp.Parse(".name", nil)
	require.NoError(t, err)
	got := map[string][]float64{} // "name impl" → ns/op
	r := benchfmt.NewReader(strings.NewReader(text), "s.txt")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok || res.GetConfig("samples") != "rounds" {
			continue
		}
		require.Equal(t, "ns/op", res.Values[0].OrigUnit)
		k := row.Project(res).StringValues() + " " + col.Project(res).StringValues()
		got[k] = append(got[k], res.Values[0].OrigValue)
	}
	require.NoError(t, r.Err())
	assert.Equal(t, map[string][]float64{
		"Format old": {100, 101, 102}, "Format control": {100.5, 99.5, 101}, "Format new": {50, 51, 52},
		"One a": {7}, "One control": {7.5},
	}, got)
}

func TestRoundsName(t *testing.T) {
	for _, tc := range []struct {
		key          string
		procs        int
		base, suffix string
	}{
		{"BenchmarkFormat-2", 2, "Format", "-2"},
		{"BenchmarkFormat", 1, "Format", ""},
		{"BenchmarkA/n=10-8", 8, "A/n=10", "-8"},
		{"BenchmarkX-2", 0, "X-2", ""},
		{"BenchmarkSp ace-4", 4, "Sp_ace", "-4"},
	} {
		base, suffix := roundsName(tc.key, tc.procs)
		assert.Equal(t, tc.base, base, tc.key)
		assert.Equal(t, tc.suffix, suffix, tc.key)
	}
}

// TestJSONComparisonProcs: a comparison's GOMAXPROCS and batch size are in
// the JSON report.
func TestJSONComparisonProcs(t *testing.T) {
	in := Input{Benches: []registry.Bench{{Name: "BenchmarkF-2", Comparisons: []registry.Comparison{{Result: verdict.Result{Baseline: "a", BatchIters: 640}, Procs: 2}}}}}
	cs := decodeJSON(t, in)["comparisons"].([]any)
	require.Len(t, cs, 1)
	c := cs[0].(map[string]any)
	assert.Equal(t, 2.0, c["procs"])
	assert.Equal(t, 640.0, c["batch_iters"])
}
