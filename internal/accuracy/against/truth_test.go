package against

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTruthDeltas(t *testing.T) {
	tl := truthLine{NsPerOp: map[string]map[string][]float64{
		"Compute": {"base": {100, 102, 98}, "+5%": {105, 104, 106}},
		"Alloc":   {"base": {200, 210}, "+5% bytes": {220, 210}},
		"Map":     {"+5%": {1}}, // no base: no truth
	}}
	d := tl.deltas()
	assert.InDelta(t, 5, d["Compute"]["+5%"], 1e-9, "median 105 over median 100")
	assert.InDelta(t, 4.878, d["Alloc"]["+5% bytes"], 1e-3, "215 over 205")
	assert.NotContains(t, d, "Map")
	assert.Equal(t, 0.0, d.of("Compute", scenarioNamed("A/A rebuilt")), "A/A: 0 by construction")
	assert.True(t, math.IsNaN(d.of("Compute", scenarioNamed("+2%"))), "not measured: unknown")
}

func TestTruthLineRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	c := config{truthBenchtime: "10s", truthProcs: 10}
	other := truthLine{Kind: truthKind, Settings: "s", Truth: "-truth-benchtime 1s -truth-procs 2", NsPerOp: map[string]map[string][]float64{
		"Compute": {"base": {1}, "+5%": {2}}}}
	want := truthLine{Kind: truthKind, Settings: "s", Truth: truthSetting(c), Code: "0123456789ab", Time: time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC),
		Machine: "m", NsPerOp: map[string]map[string][]float64{"Compute": {"base": {2400, 2410}, "+5%": {2520, 2530}}}}
	require.NoError(t, appendLog(path, want))
	require.NoError(t, appendLog(path, logged{Kind: repKind, Settings: "s", Rep: 1}))
	require.NoError(t, appendLog(path, other))
	read, err := readLog(path, "s", truthSetting(c), nil)
	require.NoError(t, err)
	require.NotNil(t, read.truth, "the truth of these flags, read back")
	assert.Equal(t, want, *read.truth, "and not the other flags' truth, logged after it")
	assert.Equal(t, 1, read.n, "a truth line is no repetition")

	read, err = readLog(path, "s", "-truth-benchtime 10s -truth-procs 3", nil)
	require.NoError(t, err)
	assert.Nil(t, read.truth, "other truth flags: measure it again")
	_, err = readLog(path, "t", truthSetting(c), nil)
	assert.ErrorContains(t, err, path+":1 was measured with s, not t", "a truth of another table is refused as its repetitions are")
}

func TestTruthBuilds(t *testing.T) {
	c := config{scenarios: []string{"A/A", "A/A rebuilt", "+5%", "+5% bytes"}, workloads: []string{"Compute", "Alloc"}, truthProcs: 10}
	assert.Equal(t, []string{"+5%"}, truthBuilds(c, "Compute"), "no A/A, and bytes5 does not change Compute")
	assert.Equal(t, []string{"+5%", "+5% bytes"}, truthBuilds(c, "Alloc"))
	assert.True(t, needsTruth(c))
	c.truthProcs = 0
	assert.False(t, needsTruth(c), "-truth-procs 0 skips it")
	c.truthProcs, c.scenarios = 10, []string{"A/A", "A/A rebuilt"}
	assert.False(t, needsTruth(c), "A/A only: 0 by construction")
}
