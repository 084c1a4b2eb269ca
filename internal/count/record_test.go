package count

import (
	"errors"
	"flag"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArgs: a count's processes get the user's other flags, never the
// ones the count sets, the timeout or a file-writing flag.
func TestArgs(t *testing.T) {
	fs := flag.NewFlagSet("x.test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, name := range []string{"test.bench", "test.benchtime", "test.count", "test.cpu", "test.benchmem", "test.short", "test.cpuprofile", "test.timeout", "size", "benchkit.count"} {
		fs.String(name, "", "")
	}
	require.NoError(t, fs.Parse([]string{"-test.bench=X", "-test.benchtime=2s", "-test.count=10", "-test.cpu=1,2", "-test.benchmem=true",
		"-test.short=true", "-test.cpuprofile=cpu.out", "-test.timeout=1m", "-size=big", "-benchkit.count=instructions"}))
	assert.Equal(t, []string{"-size=big", "-test.short=true"}, Args(fs))
}

// TestRecord: a count becomes the registry's record; an error becomes
// PerOp -1 with its reason, message and output.
func TestRecord(t *testing.T) {
	c := Record(Result{PerOp: 1234.5, N1: 2, N2: 1000, ResolutionPct: 0.01, Runs: make([]Run, 3), Valgrind: "valgrind-3.19.0",
		Capped: "the heap limit", Children: "the benchmark started processes"}, nil)
	assert.True(t, c.Counted())
	assert.Equal(t, 1234.5, c.PerOp)
	assert.Equal(t, 3, c.Processes)
	assert.Equal(t, "the heap limit", c.Capped)
	assert.Equal(t, "the benchmark started processes", c.Children)

	c = Record(Result{}, &Error{Reason: ReasonMissing, Message: "no valgrind: apt-get install valgrind", Output: "out"})
	assert.False(t, c.Counted())
	assert.Equal(t, -1.0, c.PerOp)
	assert.Equal(t, string(ReasonMissing), c.Reason)
	assert.Equal(t, "out", c.Output)

	c = Record(Result{}, errors.New("boom"))
	assert.Equal(t, string(ReasonFailed), c.Reason)
	assert.Equal(t, "boom", c.Error)
}
