package against

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLogRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	lock := outcome{verdict: "slower", delta: 5.1, lo: 4.6, hi: 5.5, hasInterval: true, triples: 14, stop: "decided", between: 6.2, within: 0.9}
	plain := noComponents("same", 0.3)
	for rep := 1; rep <= 2; rep++ {
		require.NoError(t, appendLog(path, logged{Settings: "s", Rep: rep, Time: time.Date(2026, 12, rep, 0, 0, 0, 0, time.UTC), Cells: []loggedRep{
			{Scenario: "+5%", Method: "lockstep", Outcomes: map[string]outcome{"Compute": lock}, WallsNs: map[string]int64{"Compute": int64(50 * time.Second)}},
			{Scenario: "+5%", Method: "plain", Outcomes: map[string]outcome{"Compute": plain}, WallsNs: map[string]int64{"Compute": int64(40 * time.Second)}},
		}}))
	}
	cells := []*cell{{scenario: "+5%", method: "lockstep"}, {scenario: "+5%", method: "plain"}}
	read, err := readLog(path, "s", "", cells)
	require.NoError(t, err)
	assert.Equal(t, 2, read.n)
	assert.Equal(t, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), read.first, "the first repetition's time")
	assert.Equal(t, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), read.last, "the last repetition's time")
	assert.Equal(t, []outcome{lock, lock}, cells[0].outs["Compute"])
	assert.Equal(t, map[string][]time.Duration{"Compute": {50 * time.Second, 50 * time.Second}}, cells[0].walls)
	got := cells[1].outs["Compute"]
	require.Len(t, got, 2)
	assert.False(t, got[0].hasInterval, "plain has no interval")
	assert.True(t, math.IsNaN(got[0].lo) && math.IsNaN(got[0].hi))
	assert.Equal(t, "same", got[0].verdict)
	assert.InDelta(t, 0.3, got[0].delta, 1e-12)
	assert.True(t, math.IsNaN(got[0].between) && math.IsNaN(got[0].within), "no components: NaN")
	assert.Zero(t, got[0].triples)
	assert.Empty(t, got[0].stop)
}

func TestLogMissingFile(t *testing.T) {
	read, err := readLog(filepath.Join(t.TempDir(), "none"), "s", "", nil)
	require.NoError(t, err)
	assert.Zero(t, read.n, "a log not yet written holds no repetition")
}

func TestLogRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log")
	require.NoError(t, appendLog(path, logged{Settings: "-load 0", Rep: 1, Cells: []loggedRep{{Scenario: "A/A", Method: "rounds"}}}))
	_, err := readLog(path, "-load 2", "", nil)
	assert.ErrorContains(t, err, "was measured with -load 0, not -load 2: give those flags or another -log file")
	_, err = readLog(path, "-load 0", "", []*cell{{scenario: "A/A", method: "lockstep"}})
	assert.ErrorContains(t, err, "the table has no cell A/A rounds")
	bad := filepath.Join(dir, "bad")
	require.NoError(t, os.WriteFile(bad, []byte("{not json\n"), 0o644))
	_, err = readLog(bad, "s", "", nil)
	assert.ErrorContains(t, err, bad+":1: ")
	assert.ErrorContains(t, err, "delete the file to start again")
}

func TestSettingsNameTheCode(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(a, []byte("one build"), 0o644))
	require.NoError(t, os.WriteFile(b, []byte("another build"), 0o644))
	c := config{benchtime: "1s", rounds: 10, roundsSet: true, count: 10, methods: []string{"lockstep", "plain"}, scenarios: []string{"A/A"},
		workloads: []string{"Compute", "Alloc"}}
	sa, err := settingsOf(c, a)
	require.NoError(t, err)
	sb, err := settingsOf(c, b)
	require.NoError(t, err)
	assert.NotEqual(t, sa, sb, "other code, other settings")
	assert.Contains(t, sa, "-benchtime 1s -rounds 10 -count 10 -load 0 -methods lockstep,plain -scenarios A/A -workloads Compute,Alloc")
	c.load = 2
	sl, err := settingsOf(c, a)
	require.NoError(t, err)
	assert.NotEqual(t, sa, sl, "another load, other settings")
}

func TestLogNamesItsMachines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	lines := []string{
		"machine: go1.26.8; CPU AMD EPYC; 2 CPUs (GOMAXPROCS 2); load average at start 0.10 0.20 0.30; 2026-12-01 10:00 UTC",
		"machine: go1.26.8; CPU Intel Xeon; 2 CPUs (GOMAXPROCS 2); load average at start 1.00 0.50 0.20; 2026-12-02 10:00 UTC",
		"machine: go1.26.8; CPU Intel Xeon; 2 CPUs (GOMAXPROCS 2); load average at start 1.40 1.30 1.20; 2026-12-02 11:00 UTC",
	}
	for i, m := range lines {
		require.NoError(t, appendLog(path, logged{Settings: "s", Rep: i + 1, Time: time.Date(2026, 12, 1+i, 10, 0, 0, 0, time.UTC), Machine: m}))
	}
	read, err := readLog(path, "s", "", nil)
	require.NoError(t, err)
	assert.Equal(t, "3 of the repetitions read from "+path+", begun between 2026-12-01 10:00 UTC and 2026-12-03 10:00 UTC, on "+
		"go1.26.8; CPU AMD EPYC; 2 CPUs (GOMAXPROCS 2) (1) and go1.26.8; CPU Intel Xeon; 2 CPUs (GOMAXPROCS 2) (2)", read.describe(path))
}
