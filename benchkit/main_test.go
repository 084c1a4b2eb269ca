package benchkit

import (
	"flag"
	"github.com/benchkit/go-benchkit/internal/settings"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestMainOptions: each MainOption sets its one setting, and a nil one is
// skipped.
func TestMainOptions(t *testing.T) {
	var c settings.Config
	for _, o := range options([]MainOption{MainJSON("j.json"), MainSamples("s.txt"), MainReport(ReportOff),
		MainWarmup(time.Second), MainRunsNeededFor(3), MainStrict(), nil}) {
		o(&c)
	}
	assert.Equal(t, settings.Config{JSONPath: "j.json", SamplesPath: "s.txt", Report: ReportOff, Warmup: time.Second, Delta: 3, Strict: true}, c)
	for _, o := range options([]MainOption{MainReport(ReportStdout)}) {
		o(&c)
	}
	assert.Empty(t, c.Report, "stdout is the zero value")
}

func TestMainOptionPanics(t *testing.T) {
	assert.PanicsWithValue(t, "benchkit: MainRunsNeededFor(0): the change to resolve must be a positive percentage, e.g. 5",
		func() { MainRunsNeededFor(0) })
	assert.Panics(t, func() { MainWarmup(-time.Second) })
	assert.PanicsWithValue(t, "benchkit: Main called with a nil m; pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }",
		func() { Main(nil) })
	// A typed nil would crash with SIGSEGV inside m.Run.
	var m *testing.M
	assert.PanicsWithValue(t, "benchkit: Main called with a nil *testing.M (a typed nil, which m.Run would dereference); "+
		"pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }",
		func() { Main(m) })
}

// TestMainRegistersNothingAtImport: importing benchkit defines no flag;
// Main and RegisterFlags do.
func TestMainRegistersNothingAtImport(t *testing.T) {
	for _, name := range []string{"benchkit.json", "benchkit.against", "benchkit.metrics"} {
		assert.Nil(t, flag.CommandLine.Lookup(name), name)
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	settings.Register(fs, settings.Defaults())
	assert.NotNil(t, fs.Lookup("benchkit.json"), "the session registers them when asked")
}

// TestIsChild: only a marker naming this process's parent makes a child.
func TestIsChild(t *testing.T) {
	assert.False(t, IsChild(), "the test binary itself")
	t.Setenv("BENCHKIT_CHILD_RESULT", filepath.Join(t.TempDir(), "r.json"))
	t.Setenv("BENCHKIT_CHILD_PARENT", strconv.Itoa(os.Getppid()+1))
	assert.False(t, IsChild(), "a marker left by another parent")
	t.Setenv("BENCHKIT_CHILD_PARENT", strconv.Itoa(os.Getppid()))
	assert.True(t, IsChild())
}
