package benchkit_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/testbin"
)

// TestCountEndToEnd runs testdata/count with -benchkit.count=instructions:
// the tracked benchmark gets an instr/op in the table and the JSON
// report, the one that fails under valgrind is named with the reason and
// the run still passes, the untracked one is not counted. It skips where
// valgrind cannot count.
func TestCountEndToEnd(t *testing.T) {
	testbin.Valgrind(t)
	bin := e2eBuild(t, "count")
	js := filepath.Join(t.TempDir(), "r.json")
	out := e2eRun(t, bin, 5*time.Minute, "-test.bench=.", "-test.benchtime=100x", "-test.cpu=1", "-benchkit.warmup=off",
		"-benchkit.count=instructions", "-benchkit.json="+js)
	require.False(t, out.failed, "a benchmark that cannot be counted fails nothing:\n%s", out.text)
	assert.Empty(t, out.errs, "the output stays parseable")
	assert.Len(t, out.results["BenchmarkSum"], 1, "the counts' processes print nothing into go test's output")
	assert.Contains(t, out.text, "instr/op")
	assert.Contains(t, out.text, "UnderCount: instructions not counted (failed)")
	assert.Contains(t, out.text, "fails in the count's processes only", "its output is quoted")

	b, err := os.ReadFile(js)
	require.NoError(t, err)
	var rep struct {
		Benchmarks []struct {
			Name              string
			InstructionsPerOp *float64 `json:"instructions_per_op"`
		}
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	got := map[string]*float64{}
	for _, bm := range rep.Benchmarks {
		got[bm.Name] = bm.InstructionsPerOp
	}
	require.Contains(t, got, "BenchmarkSum")
	require.NotNil(t, got["BenchmarkSum"])
	assert.Greater(t, *got["BenchmarkSum"], 1000.0, "1000 elements of a mixing sum")
	assert.Less(t, *got["BenchmarkSum"], 20000.0)
	assert.Nil(t, got["BenchmarkUnderCount"])
	assert.NotContains(t, got, "BenchmarkUntracked")
}
