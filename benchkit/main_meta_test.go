package benchkit

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
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
	g := mainGoTestFlags(fs)
	assert.Equal(t, "Sum", g.Bench)
	assert.Equal(t, "100x", g.Benchtime)
	assert.Equal(t, 5, g.Count)
	assert.Equal(t, "1,2", g.CPU)
	assert.True(t, g.Benchmem)

	g = mainGoTestFlags(flag.NewFlagSet("empty", flag.ContinueOnError))
	assert.Equal(t, 1, g.Count, "no -test.count: 1")
	assert.Equal(t, "", g.Benchtime)
}

func TestMainVCS(t *testing.T) {
	v := mainVCS([]debug.BuildSetting{{Key: "-compiler", Value: "gc"}, {Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "45ab9a7"}, {Key: "vcs.time", Value: "2026-11-30T20:02:50Z"}, {Key: "vcs.modified", Value: "true"}})
	require.NotNil(t, v)
	assert.Equal(t, "git", v.System)
	assert.Equal(t, "45ab9a7", v.Revision)
	assert.Equal(t, "2026-11-30T20:02:50Z", v.Time)
	require.NotNil(t, v.Modified)
	assert.True(t, *v.Modified)
	assert.Nil(t, mainVCS([]debug.BuildSetting{{Key: "GOOS", Value: "linux"}}), "go test's default build has no stamp")
	v = mainVCS([]debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}})
	require.NotNil(t, v)
	assert.Nil(t, v.Modified, "no vcs.modified: unknown")
}

// TestMainJSONMetadata: the JSON report written by Main carries the start
// time, the Go version, go test's cpu line, the benchmark flags, the VCS
// stamp and the package.
func TestMainJSONMetadata(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	h := newMainHarness("-test.bench=.", "-test.benchtime=100x", "-test.count=3", "-test.cpu=1,2", "-benchkit.json="+path)
	h.deps.fs.String("test.benchtime", "1s", "")
	h.deps.fs.Int("test.count", 1, "")
	h.deps.fs.String("test.cpu", "", "")
	h.deps.now = func() time.Time { return time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC) }
	h.deps.build = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "deadbeef"}}}, true
	}
	require.Equal(t, 0, h.run(mainFakeM{run: h.record}))
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

// TestMainRealJSONMetadata runs a real test binary: the JSON report's cpu
// is go test's own cpu line, byte for byte, and the flags are the ones
// given.
func TestMainRealJSONMetadata(t *testing.T) {
	bin := mainBinaryOf(t, "", "mainreport")
	js := filepath.Join(t.TempDir(), "r.json")
	r := mainExec(t, bin, nil, "-test.run=^$", "-test.bench=Tracked", "-test.benchtime=1x", "-test.count=2",
		"-test.cpu=1,2", "-benchkit.warmup=off", "-benchkit.json="+js)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	b, err := os.ReadFile(js)
	require.NoError(t, err)
	var rep struct {
		StartTime string `json:"start_time"`
		GoVersion string `json:"go_version"`
		CPU       string
		Package   string
		GoOS      string `json:"goos"`
		GoTest    struct {
			Benchtime, CPU string
			Count          int
		} `json:"go_test"`
		Env struct {
			CPUs *int `json:"cpus"`
		} `json:"environment"`
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	cpu, printed := "", false
	for _, line := range strings.Split(r.stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "cpu: "); ok {
			cpu, printed = v, true
		}
	}
	if printed {
		assert.Equal(t, cpu, rep.CPU, "go test's cpu line")
	} else {
		assert.Empty(t, rep.CPU)
	}
	_, err = time.Parse(time.RFC3339Nano, rep.StartTime)
	assert.NoError(t, err, "start_time %q", rep.StartTime)
	assert.Equal(t, runtime.Version(), rep.GoVersion)
	assert.Equal(t, runtime.GOOS, rep.GoOS)
	assert.Equal(t, "github.com/benchkit/go-benchkit/benchkit/testdata/mainreport", rep.Package)
	assert.Equal(t, "1x", rep.GoTest.Benchtime)
	assert.Equal(t, "1,2", rep.GoTest.CPU)
	assert.Equal(t, 2, rep.GoTest.Count)
	require.NotNil(t, rep.Env.CPUs)
	assert.Positive(t, *rep.Env.CPUs)
}
