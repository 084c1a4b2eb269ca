package benchkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
