package session

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMainGoTestFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("test.bench", "", "")
	fs.String("test.benchtime", "1s", "")
	fs.Int("test.count", 1, "")
	fs.String("test.cpu", "", "")
	fs.Bool("test.benchmem", false, "")
	require.NoError(t, fs.Parse([]string{"-test.bench=Sum", "-test.benchtime=100x", "-test.count=5", "-test.cpu=1,2", "-test.benchmem"}))
	g := goTestFlags(fs)
	assert.Equal(t, "Sum", g.Bench)
	assert.Equal(t, "100x", g.Benchtime)
	assert.Equal(t, 5, g.Count)
	assert.Equal(t, "1,2", g.CPU)
	assert.True(t, g.Benchmem)

	g = goTestFlags(flag.NewFlagSet("empty", flag.ContinueOnError))
	assert.Equal(t, 1, g.Count, "no -test.count: 1")
	assert.Equal(t, "", g.Benchtime)
}

// TestMainJSONMetadata: the JSON report written by Main carries the start
// time, the Go version, go test's cpu line, the benchmark flags, the VCS
// stamp and the package.
func TestMainJSONMetadata(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	h := newHarness("-test.bench=.", "-test.benchtime=100x", "-test.count=3", "-test.cpu=1,2", "-benchkit.json="+path)
	h.deps.fs.String("test.benchtime", "1s", "")
	h.deps.fs.Int("test.count", 1, "")
	h.deps.fs.String("test.cpu", "", "")
	h.deps.now = func() time.Time { return time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC) }
	h.deps.build = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "deadbeef"}}}, true
	}
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var rep struct {
		StartTime string `json:"start_time"`
		GoVersion string `json:"go_version"`
		CPU       string
		Package   string
		GoTest    struct {
			Bench, Benchtime, CPU string
			Count                 int
		} `json:"go_test"`
		VCS *struct{ System, Revision string }
		Env struct {
			CPUs     *int     `json:"cpus"`
			Load1    *float64 `json:"load_1m"`
			Governor string
		} `json:"environment"`
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	assert.Equal(t, "2026-11-30T20:00:00Z", rep.StartTime)
	assert.Equal(t, "go1.26.8", rep.GoVersion, "the snapshot's")
	assert.Equal(t, "Fake CPU", rep.CPU)
	assert.Equal(t, "example.com/fake", rep.Package)
	assert.Equal(t, ".", rep.GoTest.Bench)
	assert.Equal(t, "100x", rep.GoTest.Benchtime)
	assert.Equal(t, 3, rep.GoTest.Count)
	assert.Equal(t, "1,2", rep.GoTest.CPU)
	require.NotNil(t, rep.VCS)
	assert.Equal(t, "deadbeef", rep.VCS.Revision)
	require.NotNil(t, rep.Env.CPUs)
	assert.Equal(t, 2, *rep.Env.CPUs)
	require.NotNil(t, rep.Env.Load1)
	assert.Equal(t, 3.5, *rep.Env.Load1)
	assert.Equal(t, "unknown", rep.Env.Governor)
}
