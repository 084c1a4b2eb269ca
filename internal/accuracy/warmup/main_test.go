package warmup

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/benchkit/go-benchkit/warmup/testdata/pair
cpu: Intel(R) Xeon(R) Processor
BenchmarkWarmup-2    	   73022	      3799 ns/op
Benchmark1First-2    	  340567	       800.0 ns/op
Benchmark2Second-2   	  358584	       820.0 ns/op
PASS
`

func TestDelta(t *testing.T) {
	d, err := delta(strings.NewReader(sample))
	require.NoError(t, err)
	assert.InDelta(t, 2.5, d, 1e-9, "820/800 − 1 = +2.5%%; the warm-up line is ignored")
}

func TestDeltaMissingBenchmark(t *testing.T) {
	_, err := delta(strings.NewReader(strings.ReplaceAll(sample, "Benchmark2Second", "BenchmarkOther")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Benchmark2Second")
}
