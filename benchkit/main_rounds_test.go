package benchkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// TestMainRealSamplesRounds runs control.Compare in two forks under Main,
// with -test.paniconexit0 as go test gives it to every test binary: the
// samples file holds every round of every implementation (the forks'
// rounds together), named for benchstat -col /impl, as many as the JSON
// report's rounds.
func TestMainRealSamplesRounds(t *testing.T) {
	bin := mainBinaryOf(t, "", "maincompare")
	dir := t.TempDir()
	samples, js := filepath.Join(dir, "s.txt"), filepath.Join(dir, "r.json")
	r := mainExec(t, bin, nil, "-test.paniconexit0", "-test.run=^$", "-test.bench=Compare", "-test.benchtime=40x", "-test.cpu=2", // Nx: two forks however loaded the machine
		"-benchkit.warmup=off", "-benchkit.forks=2", "-benchkit.samples="+samples, "-benchkit.json="+js)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)

	b, err := os.ReadFile(js)
	require.NoError(t, err)
	var rep struct {
		Comparisons []struct {
			Rounds int
			Forks  int
		}
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	require.Len(t, rep.Comparisons, 1)
	rounds := rep.Comparisons[0].Rounds
	require.Equal(t, 40, rounds)
	assert.Equal(t, 2, rep.Comparisons[0].Forks)

	s, err := os.ReadFile(samples)
	require.NoError(t, err)
	count := map[string]int{}
	rd := benchfmt.NewReader(strings.NewReader(string(s)), "s.txt")
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok || res.GetConfig("samples") != "rounds" {
			continue
		}
		assert.Positive(t, res.Iters, "calls per batch")
		count[res.Name.String()]++
	}
	require.NoError(t, rd.Err())
	want := min(rounds, 1024)
	assert.Equal(t, map[string]int{"Compare/impl=old-2": want, "Compare/impl=control-2": want, "Compare/impl=new-2": want}, count,
		"every implementation, every round (of %d):\n%s", rounds, s)
}
