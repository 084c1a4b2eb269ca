package count

import (
	"errors"
	"flag"
	"io"
	"strings"
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

// TestOutcome: a count is shown as it is; an error becomes PerOp -1 with
// its reason, message and the end of its output, cut at a line.
func TestOutcome(t *testing.T) {
	c := Outcome(Result{PerOp: 1234.5, N1: 2, N2: 1000, ResolutionPct: 0.01, Runs: make([]Run, 3), Valgrind: "valgrind-3.19.0",
		Capped: "the heap limit", Children: "the benchmark started processes"}, nil)
	assert.True(t, c.Counted())
	assert.Equal(t, 1234.5, c.PerOp)
	assert.Equal(t, 3, c.Processes())
	assert.Equal(t, "the heap limit", c.Capped)
	assert.Equal(t, "the benchmark started processes", c.Children)

	c = Outcome(Result{}, &Error{Reason: ReasonMissing, Message: "no valgrind: apt-get install valgrind", Output: "out"})
	assert.False(t, c.Counted())
	assert.Equal(t, -1.0, c.PerOp)
	assert.Equal(t, ReasonMissing, c.Reason)
	assert.Equal(t, "out", c.Output)

	c = Outcome(Result{}, errors.New("boom"))
	assert.Equal(t, ReasonFailed, c.Reason)
	assert.Equal(t, "boom", c.Error)

	long := strings.Repeat("line of output\n", MaxOutput)
	c = Outcome(Result{}, &Error{Reason: ReasonFailed, Message: "it failed", Output: long + "last\n"})
	assert.LessOrEqual(t, len(c.Output), MaxOutput)
	assert.True(t, strings.HasPrefix(c.Output, "line of output\n"), "cut at a line")
	assert.True(t, strings.HasSuffix(c.Output, "last\n"), "the end is kept")
}
