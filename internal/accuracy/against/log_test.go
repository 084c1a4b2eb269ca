package against

import (
	"io"
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
	lock := outcome{verdict: "slower", delta: 5.1, lo: 4.6, hi: 5.5, hasInterval: true, triples: 14, stop: "decided", between: 6.2, within: 0.9,
		mutator: 0.1, cycles: 5.2}
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
	assert.True(t, math.IsNaN(got[0].mutator) && math.IsNaN(got[0].cycles), "no collector parts: NaN")
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

func TestSettingsLeaveTheCodeOut(t *testing.T) {
	c := config{benchtime: "1s", rounds: 10, roundsSet: true, count: 10, methods: []string{"lockstep", "plain"}, scenarios: []string{"A/A"},
		workloads: []string{"Compute", "Alloc"}}
	assert.Equal(t, "-benchtime 1s -rounds 10 -count 10 -load 0 -methods lockstep,plain -scenarios A/A -workloads Compute,Alloc", settingsOf(c))
	c.roundsSet = false
	assert.Equal(t, "-benchtime 1s -rounds (rounds 10, lockstep adaptive) -count 10 -load 0 -methods lockstep,plain -scenarios A/A -workloads Compute,Alloc",
		settingsOf(c), "lockstep's own design is another setting than 10 triples")
	c.load = 2
	assert.Contains(t, settingsOf(c), "-load 2", "another load, other settings")
}

func TestCodeHash(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(a, []byte("one build"), 0o644))
	require.NoError(t, os.WriteFile(b, []byte("another build"), 0o644))
	ha, err := codeHash(a)
	require.NoError(t, err)
	hb, err := codeHash(b)
	require.NoError(t, err)
	assert.Len(t, ha, 12)
	assert.NotEqual(t, ha, hb, "other code, another hash")
}

// oldLine is a log line from before the code left the settings and each
// workload had an invocation of its own (cut from logs/quiet.jsonl).
const oldLine = `{"settings":"code d4e72aa75ad8 -benchtime 1s -rounds 10 -count 10 -load 0 -methods lockstep,rounds,plain -scenarios A/A,A/A rebuilt,+2%,+5%",` +
	`"rep":1,"time":"2026-12-02T13:07:25.407080175Z","machine":"machine: go version go1.26.8 linux/amd64; CPU Intel(R) Xeon(R) Processor; 2 CPUs (GOMAXPROCS 2); load average at start 1.25 0.30 0.10; 2026-12-02 13:07 UTC",` +
	`"cells":[{"scenario":"A/A","method":"lockstep","outcomes":{"Alloc":{"verdict":"undecided","delta_pct":0.2774866578143964,"lo_pct":-1.7659993878200608,"hi_pct":2.3209727034488425},` +
	`"Compute":{"verdict":"same","delta_pct":-0.004004108640753845,"lo_pct":-0.2542741694831929,"hi_pct":0.24626595220167413}},"wall_ns":48386773315}]}`

// oldConfig is the table an old line was measured with, as flags give it
// now: -rounds 10 -workloads Compute,Alloc.
func oldConfig(t *testing.T, more ...string) config {
	t.Helper()
	c, err := parseFlags(append([]string{"-rounds", "10", "-workloads", "Compute,Alloc"}, more...), io.Discard)
	require.NoError(t, err)
	return c
}

func TestLogReadsOldLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	require.NoError(t, os.WriteFile(path, []byte(oldLine+"\n"), 0o644))
	c := oldConfig(t)
	cells := newCells(c)
	read, err := readLog(path, settingsOf(c), truthSetting(c), cells)
	require.NoError(t, err)
	assert.Equal(t, 1, read.n)
	assert.Equal(t, codeSpan{{code: "d4e72aa75ad8", n: 1}}, read.codes, "the hash, taken out of the settings")
	assert.Equal(t, 1, read.joint, "one wall for both workloads")
	aa := findCell(cells, "A/A", "lockstep")
	assert.Equal(t, "same", aa.outs["Compute"][0].verdict)
	assert.Equal(t, "undecided", aa.outs["Alloc"][0].verdict)
	assert.Empty(t, aa.walls["Compute"], "the joint wall is no workload's")
	assert.Contains(t, read.describe(path), "1 of them measured all workloads in one invocation")

	c = oldConfig(t, "-workloads", "Compute,Map,Alloc,AllocLive")
	_, err = readLog(path, settingsOf(c), truthSetting(c), newCells(c))
	assert.ErrorContains(t, err, "-workloads Compute,Alloc, not ", "other workloads: refused")
	c, err = parseFlags([]string{"-workloads", "Compute,Alloc"}, io.Discard)
	require.NoError(t, err)
	_, err = readLog(path, settingsOf(c), truthSetting(c), newCells(c))
	assert.ErrorContains(t, err, "was measured with -benchtime 1s -rounds 10 ", "lockstep's adaptive design is another table: refused")
	assert.ErrorContains(t, err, "give those flags or another -log file")
}

func TestExistingLogsLoad(t *testing.T) {
	for file, load := range map[string]string{"quiet.jsonl": "0", "load2.jsonl": "2"} {
		c := oldConfig(t, "-load", load)
		read, err := readLog(filepath.Join("logs", file), settingsOf(c), truthSetting(c), newCells(c))
		require.NoError(t, err, file)
		assert.Equal(t, 20, read.n, file)
		assert.Equal(t, codeSpan{{code: "d4e72aa75ad8", n: 20}}, read.codes, file)
	}
}

func TestCodeSpan(t *testing.T) {
	var s codeSpan
	s.add("aaa", false)
	s.add("aaa", false)
	assert.True(t, s.has("aaa"))
	assert.False(t, s.has("bbb"))
	assert.Equal(t, "the repetitions measured code aaa", s.describe())
	s.add("bbb", true)
	s.add("bbb", false)
	assert.Equal(t, "the repetitions span code hashes aaa (2), bbb (2, after a check)", s.describe())
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
