package env_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/testbin"
)

// TestGoTestCPUMatchesGoTest runs a real test binary's benchmark and
// compares its "cpu:" line, byte for byte, with GoTestCPU.
func TestGoTestCPUMatchesGoTest(t *testing.T) {
	bin := testbin.Build(t, "./testdata/cpuline")
	r := testbin.Run(t, bin, "", time.Minute, nil, "-test.run=^$", "-test.bench=.", "-test.benchtime=1x")
	require.Equal(t, 0, r.Code, r.Combined())
	got, printed := "", false
	for _, line := range strings.Split(r.Stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "cpu: "); ok {
			got, printed = v, true
		}
	}
	if !printed {
		assert.Empty(t, env.GoTestCPU(), "go test printed no cpu line")
		return
	}
	assert.Equal(t, got, env.GoTestCPU(), "go test's cpu line, byte for byte")
}
