package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"github.com/benchkit/go-benchkit/internal/settings"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/warmup"
)

// fakeM is a testing.M stand-in: Run records the call, lets the test
// fill the registry as benchmarks would, and returns code.
type fakeM struct {
	code   int
	events *[]string
	run    func()
}

func (m fakeM) Run() int {
	*m.events = append(*m.events, "run")
	if m.run != nil {
		m.run()
	}
	return m.code
}

type harness struct {
	deps           Deps
	stdout, stderr bytes.Buffer
	events         []string
	reg            registry.Registry
	env            map[string]string
}

// newHarness returns deps for Run over a fresh FlagSet holding the
// test.bench and test.list flags, parsed from args by Run.
func newHarness(args ...string) *harness {
	h := &harness{env: map[string]string{}}
	fs := flag.NewFlagSet("fake.test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("test.bench", "", "")
	fs.String("test.list", "", "")
	fs.String("test.run", "", "")
	h.deps = Deps{
		fs:     fs,
		args:   args,
		getenv: func(k string) string { return h.env[k] },
		stdout: &h.stdout,
		stderr: &h.stderr,
		probe: func() env.Snapshot {
			h.events = append(h.events, "probe")
			return env.Snapshot{GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", NumCPU: 2, GOMAXPROCS: 2,
				LoadKnown: true, Load1: 3.5, CPUModel: "Fake CPU", CPUModelKnown: true}
		},
		warm: func(limit time.Duration) warmup.Result {
			h.events = append(h.events, "warmup "+limit.String())
			return warmup.Result{Duration: 120 * time.Millisecond, Batches: 40, Converged: true, FirstToLast: 1.2,
				Streak: 5, Tolerance: 0.05, Warnings: []error{errors.New("warmup: a warning")}}
		},
		reg:    &h.reg,
		pkg:    "example.com/fake",
		create: func(path string) (io.WriteCloser, error) { return os.Create(path) },
		now:    time.Now,
		cpu:    func() string { return "Fake CPU" },
	}
	return h
}

func (h *harness) run(m fakeM, opts ...func(*settings.Config)) int {
	m.events = &h.events
	return Run(m, opts, h.deps)
}

// record fills the registry like a clean and a bimodal benchmark would.
func (h *harness) record() {
	for i := 0; i < 10; i++ {
		h.reg.AddRun("BenchmarkClean", registry.Run{Procs: 2, N: 1000, NsPerOp: 100 + float64(i%3)*0.1,
			AllocsPerOp: 0, BytesPerOp: 0, WaitFraction: 0.01, TimedFraction: 1, InvoluntarySwitches: -1, WithinCV: -1})
	}
	for _, ns := range []float64{40, 41, 39, 40, 42, 27, 26, 28, 27, 26, 40, 41} {
		h.reg.AddRun("BenchmarkTwo", registry.Run{Procs: 2, N: 1000, NsPerOp: ns, AllocsPerOp: 1, BytesPerOp: 64,
			WaitFraction: 0.4, TimedFraction: 1, InvoluntarySwitches: 10, WithinCV: -1})
	}
}

func TestMainWithoutBenchmarksAddsNothing(t *testing.T) {
	h := newHarness("-test.run=.")
	code := h.run(fakeM{code: 3, run: h.record})
	assert.Equal(t, 3, code, "m's code")
	assert.Equal(t, []string{"run"}, h.events, "no probe, no warm-up")
	assert.Empty(t, h.stdout.String())
	assert.Empty(t, h.stderr.String())
}

func TestMainListDoesNotWarmUp(t *testing.T) {
	h := newHarness("-test.bench=.", "-test.list=.")
	assert.Equal(t, 0, h.run(fakeM{}))
	assert.Equal(t, []string{"run"}, h.events)
}

func TestMainReportAfterBenchmarks(t *testing.T) {
	h := newHarness("-test.bench=.")
	code := h.run(fakeM{run: h.record})
	assert.Equal(t, 0, code)
	assert.Equal(t, []string{"probe", "warmup " + warmup.DefaultLimit.String(), "run"}, h.events, "environment, then warm-up, then m.Run")
	out := h.stdout.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Greater(t, len(lines), 10)
	for _, l := range lines {
		require.True(t, strings.HasPrefix(l, "benchkit │"), "%q", l)
	}
	assert.Contains(t, lines[0], "hygiene report · 2 benchmarks · 22 runs · example.com/fake")
	assert.Contains(t, out, "⚠ load: load average 3.50")
	assert.Contains(t, out, "warm-up 120ms, 40 batches, stable (5 within 5%)")
	assert.Contains(t, out, "⚠ warmup: a warning")
	assert.Contains(t, out, "  Clean-2 ")
	assert.Contains(t, out, "two-regimes 27.00ns×5|40.00ns×7")
	assert.Contains(t, out, "runs@5%")
	assert.Empty(t, h.stderr.String())
}

func TestMainBenchmarksButNoRecordsPrintNothing(t *testing.T) {
	h := newHarness("-test.bench=.")
	path := filepath.Join(t.TempDir(), "r.json")
	h.env["BENCHKIT_JSON"] = path
	assert.Equal(t, 0, h.run(fakeM{}))
	assert.Empty(t, h.stdout.String())
	b, err := os.ReadFile(path)
	require.NoError(t, err, "the requested file is written anyway")
	assert.Contains(t, string(b), `"benchmarks": []`)
}

func TestMainExitCode(t *testing.T) {
	gate := func(h *harness, failed bool) func() {
		return func() {
			h.record()
			h.reg.AddComparison("BenchmarkCmp", registry.Comparison{Result: verdict.Result{Baseline: "old", Gate: 5, GateFailed: failed, Candidates: []verdict.Estimate{{Name: "new", DeltaPct: 9, LoPct: 8, HiPct: 10, Verdict: verdict.Slower, GateFailed: failed}}}})
		}
	}
	h := newHarness("-test.bench=.")
	assert.Equal(t, 1, h.run(fakeM{run: gate(h, true)}), "a failed gate fails a passing run")
	assert.Contains(t, h.stdout.String(), "✗ benchkit: Cmp: gate 5% failed: new +9.0%")

	h = newHarness("-test.bench=.")
	assert.Equal(t, 0, h.run(fakeM{run: gate(h, false)}))

	h = newHarness("-test.bench=.")
	assert.Equal(t, 7, h.run(fakeM{code: 7, run: gate(h, true)}), "m's failure code wins")

	flagged := func(h *harness) func() {
		return func() {
			h.record()
			h.reg.AddFlag("BenchmarkClean", registry.Flag{Kind: registry.FlagEliminated, Message: "benchkit: gone"})
		}
	}
	h = newHarness("-test.bench=.")
	assert.Equal(t, 0, h.run(fakeM{run: flagged(h)}), "flags only warn by default")
	h = newHarness("-test.bench=.", "-benchkit.strict")
	assert.Equal(t, 1, h.run(fakeM{run: flagged(h)}), "-benchkit.strict")
	assert.Contains(t, h.stdout.String(), "Clean-2 raised eliminated")
	h = newHarness("-test.bench=.")
	assert.Equal(t, 1, h.run(fakeM{run: flagged(h)}, optStrict), "MainStrict")
	h = newHarness("-test.bench=.", "-benchkit.strict=false")
	assert.Equal(t, 0, h.run(fakeM{run: flagged(h)}, optStrict), "the flag overrides the option")
}

// TestMainExitCodeFailedFlag: a flag that failed the benchmark (a stopped
// timer, any flag under FailOnFlags) makes Main exit 1 even when m.Run
// returned 0, as it does when the failure was in a later -count repeat,
// and the failures section says so; a flag that only warned does not.
func TestMainExitCodeFailedFlag(t *testing.T) {
	failed := func(h *harness, kind registry.FlagKind) func() {
		return func() {
			h.record()
			h.reg.AddFlag("BenchmarkClean", registry.Flag{Kind: kind, Message: "benchkit: bad", Failed: true})
		}
	}
	h := newHarness("-test.bench=.")
	assert.Equal(t, 1, h.run(fakeM{run: failed(h, registry.FlagTimerStopped)}), "m passed, the flag failed the benchmark")
	assert.Contains(t, h.stdout.String(), "✗ benchkit: Clean-2: timer-stopped failed the benchmark")
	assert.Contains(t, h.stdout.String(), "a later -count repeat")

	h = newHarness("-test.bench=.")
	assert.Equal(t, 1, h.run(fakeM{run: failed(h, registry.FlagEliminated)}), "FailOnFlags")
	assert.Contains(t, h.stdout.String(), "✗ benchkit: Clean-2: eliminated failed the benchmark")

	h = newHarness("-test.bench=.")
	assert.Equal(t, 3, h.run(fakeM{code: 3, run: failed(h, registry.FlagTimerStopped)}), "m's failure code wins")

	h = newHarness("-test.bench=.", "-benchkit.strict")
	assert.Equal(t, 1, h.run(fakeM{run: failed(h, registry.FlagTimerStopped)}))
	assert.Equal(t, 1, strings.Count(h.stdout.String(), "✗ benchkit: Clean-2"), "one failure line per flag under strict mode too")
}

func TestMainPrecedence(t *testing.T) {
	resolve := func(env map[string]string, args []string, opts ...func(*settings.Config)) settings.Config {
		t.Helper()
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		settings.Register(fs, settings.Defaults())
		require.NoError(t, fs.Parse(args))
		c, err := settings.Resolve(opts, func(k string) string { return env[k] }, fs)
		require.NoError(t, err)
		return c
	}
	c := resolve(nil, nil)
	assert.Equal(t, settings.Config{Warmup: warmup.DefaultLimit, Delta: 5}, c, "defaults")
	c = resolve(nil, nil, optDelta(10), optWarmup(0), optJSON("o.json"), optSamples("o.txt"), optStrict)
	assert.Equal(t, settings.Config{JSONPath: "o.json", SamplesPath: "o.txt", Delta: 10, Strict: true}, c, "options")
	env := map[string]string{"BENCHKIT_DELTA": "20", "BENCHKIT_WARMUP": "300ms", "BENCHKIT_JSON": "e.json",
		"BENCHKIT_SAMPLES": "e.txt", "BENCHKIT_STRICT": "false"}
	c = resolve(env, nil, optDelta(10), optWarmup(0), optJSON("o.json"), optStrict)
	assert.Equal(t, settings.Config{JSONPath: "e.json", SamplesPath: "e.txt", Warmup: 300 * time.Millisecond, Delta: 20}, c,
		"environment over options")
	c = resolve(env, []string{"-benchkit.delta=30", "-benchkit.warmup=off", "-benchkit.json=f.json", "-benchkit.strict"},
		optDelta(10))
	assert.Equal(t, settings.Config{JSONPath: "f.json", SamplesPath: "e.txt", Delta: 30, Strict: true}, c, "flags over all")
	c = resolve(map[string]string{"BENCHKIT_DELTA": "2.5%"}, nil)
	assert.Equal(t, 2.5, c.Delta, "a trailing % is accepted")
}

func TestMainBadSettings(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"BENCHKIT_DELTA": "abc"}, nil,
			`benchkit: environment variable BENCHKIT_DELTA="abc" is not a positive percentage: use a number such as 5`},
		{map[string]string{"BENCHKIT_DELTA": "-3"}, nil, `BENCHKIT_DELTA="-3" is not a positive percentage`},
		{map[string]string{"BENCHKIT_WARMUP": "soon"}, nil,
			`benchkit: environment variable BENCHKIT_WARMUP="soon" is not a duration: use a limit such as 2s or 500ms, or off`},
		{map[string]string{"BENCHKIT_STRICT": "maybe"}, nil, `BENCHKIT_STRICT="maybe" is not a boolean: use true or false`},
		{nil, []string{"-benchkit.delta=0"}, `benchkit: flag -benchkit.delta="0" is not a positive percentage`},
		{nil, []string{"-benchkit.warmup=-1s"}, `benchkit: flag -benchkit.warmup="-1s" is not a duration`},
		{nil, []string{"-benchkit.nope"}, `benchkit: flag provided but not defined: -benchkit.nope`},
	} {
		h := newHarness(append([]string{"-test.bench=."}, tc.args...)...)
		h.env = tc.env
		assert.Equal(t, 2, h.run(fakeM{}), tc.want)
		assert.Contains(t, h.stderr.String(), tc.want)
		assert.Empty(t, h.events, "nothing runs after a bad setting")
	}
}

func TestMainWarmupOffAndLimit(t *testing.T) {
	h := newHarness("-test.bench=.", "-benchkit.warmup=off")
	h.run(fakeM{run: h.record}, optWarmup(time.Second))
	assert.Equal(t, []string{"probe", "run"}, h.events)
	assert.Contains(t, h.stdout.String(), "off: the first benchmark paid")

	h = newHarness("-test.bench=.")
	h.run(fakeM{run: h.record}, optWarmup(500*time.Millisecond))
	assert.Equal(t, []string{"probe", "warmup 500ms", "run"}, h.events)
	assert.NotContains(t, h.stdout.String(), "the warm-up limit (now")

	h = newHarness("-test.bench=.")
	h.deps.warm = func(limit time.Duration) warmup.Result {
		return warmup.Result{Duration: limit, Batches: 3, Streak: 5, Tolerance: 0.05}
	}
	h.run(fakeM{run: h.record}, optWarmup(500*time.Millisecond))
	assert.Contains(t, h.stdout.String(), "⚠ benchkit: under benchkit.Main the warm-up limit (now 500ms) is set with -benchkit.warmup")
}

func TestMainFiles(t *testing.T) {
	dir := t.TempDir()
	js, samples := filepath.Join(dir, "r.json"), filepath.Join(dir, "s.txt")
	h := newHarness("-test.bench=.", "-benchkit.json="+js, "-benchkit.samples="+samples)
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	b, err := os.ReadFile(js)
	require.NoError(t, err)
	var rep struct {
		Schema     string
		Package    string
		Benchmarks []struct{ Display string }
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	assert.Equal(t, "benchkit-report/v1", rep.Schema)
	assert.Equal(t, "example.com/fake", rep.Package)
	require.Len(t, rep.Benchmarks, 2)
	assert.Equal(t, "Two-2", rep.Benchmarks[1].Display)
	s, err := os.ReadFile(samples)
	require.NoError(t, err)
	assert.Equal(t, 22, strings.Count(string(s), "\nBenchmark"), "one line per run")
	assert.Contains(t, string(s), "cpu: Fake CPU\n")

	h = newHarness("-test.bench=.", "-benchkit.json="+dir, "-benchkit.samples="+filepath.Join(dir, "s")+"/")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "s"), 0o755))
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	_, err = os.Stat(filepath.Join(dir, "example.com_fake.json"))
	assert.NoError(t, err, "a directory gets a file named after the package")
	_, err = os.Stat(filepath.Join(dir, "s", "example.com_fake.txt"))
	assert.NoError(t, err, "so does a path ending with a separator")

	// A path that cannot be written stops Main before anything runs
	// (it used to be found after the whole run).
	h = newHarness("-test.bench=.", "-benchkit.json="+filepath.Join(dir, "missing", "r.json"))
	assert.Equal(t, 2, h.run(fakeM{run: h.record}), "a file that cannot be written stops the run")
	assert.Empty(t, h.events, "nothing ran")
	assert.Contains(t, h.stderr.String(), "the directory "+filepath.Join(dir, "missing")+" does not exist")
	assert.Contains(t, h.stderr.String(), "fix the path given by -benchkit.json or BENCHKIT_JSON (checked before the run: nothing ran)")

	// The file Main creates still fails the run when writing fails at
	// the end (a disk that filled up meanwhile).
	h = newHarness("-test.bench=.", "-benchkit.samples="+filepath.Join(dir, "late.txt"))
	h.deps.create = func(string) (io.WriteCloser, error) { return nil, errors.New("disk full") }
	assert.Equal(t, 1, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stderr.String(), "benchkit: cannot write the samples file: disk full")
}

func TestMainUnwritablePath(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("directory permissions do not stop this user")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	require.NoError(t, os.Mkdir(dir, 0o555))
	h := newHarness("-test.bench=.", "-benchkit.samples="+filepath.Join(dir, "s.txt"))
	assert.Equal(t, 2, h.run(fakeM{run: h.record}))
	assert.Empty(t, h.events, "nothing ran")
	assert.Contains(t, h.stderr.String(), "fix the path given by -benchkit.samples or BENCHKIT_SAMPLES")
}

// TestMainSamePathTwoPackages: a file path given to two packages (go test
// ./... with a file, not a directory) is said, not overwritten silently
// .
func TestMainSamePathTwoPackages(t *testing.T) {
	dir := t.TempDir()
	js, samples := filepath.Join(dir, "r.json"), filepath.Join(dir, "s.txt")
	args := []string{"-test.bench=.", "-benchkit.json=" + js, "-benchkit.samples=" + samples}
	h := newHarness(args...)
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Empty(t, h.stderr.String())

	h = newHarness(args...) // the same package again: its own file
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Empty(t, h.stderr.String(), "a package replacing its own output is not warned")

	h = newHarness(args...)
	h.deps.pkg = "example.com/other"
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	for _, p := range []string{js, samples} {
		assert.Contains(t, h.stderr.String(), "benchkit: "+p+" held the output of package example.com/fake (written ")
	}
	assert.Contains(t, h.stderr.String(), "give a directory")
}

func TestMainRegistersFlagsOnce(t *testing.T) {
	h := newHarness("-test.bench=.")
	h.run(fakeM{})
	assert.NotPanics(t, func() { Run(fakeM{events: &h.events}, nil, h.deps) }, "a second call reuses the flags")
	assert.NotNil(t, h.deps.fs.Lookup("benchkit.json"))
}

// The settings MainOption's constructors apply, as the session sees them.
var optStrict = func(c *settings.Config) { c.Strict = true }

func optWarmup(d time.Duration) func(*settings.Config) {
	return func(c *settings.Config) { c.Warmup = d }
}
func optDelta(p float64) func(*settings.Config) { return func(c *settings.Config) { c.Delta = p } }
func optJSON(p string) func(*settings.Config)   { return func(c *settings.Config) { c.JSONPath = p } }
func optSamples(p string) func(*settings.Config) {
	return func(c *settings.Config) { c.SamplesPath = p }
}
func optReport(d string) func(*settings.Config) {
	return func(c *settings.Config) { c.Report = settings.ReportDest(d) }
}

// TestAgainstFailedTestsMeasureNothing: as go test, no benchmark runs
// after a failed test; Main returns the tests' code, runs no warm-up and
// starts no process.
func TestAgainstFailedTestsMeasureNothing(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	h := newHarness("-test.bench=.", "-benchkit.against="+exe)
	h.deps.pkg = packagePath()
	code := Run(fakeM{code: 1, events: &h.events}, nil, h.deps)
	assert.Equal(t, 1, code)
	assert.Equal(t, []string{"probe", "run"}, h.events)
	assert.Contains(t, h.stderr.String(), "measured nothing: the tests failed")
	assert.Empty(t, h.stdout.String())
}

// TestProgressLines: a line once every has passed in its phase, naming
// the benchmark and its triple (or the round), with the time left at the
// pace so far over the planned cost; the first says how to turn them
// off; each carries the report's prefix.
func TestProgressLines(t *testing.T) {
	var buf strings.Builder
	p := progressLines(&buf, 5*time.Second)
	// Two benchmarks planned at 30 s and 10 s; the run goes at half the
	// planned pace.
	tr := func(bench string, i, triple int, work, el time.Duration) {
		p(against.Progress{Unit: "triple", Bench: bench, Index: i, Benches: 2, Done: triple, Total: 10, Work: work, Planned: 40 * time.Second, Elapsed: el})
	}
	rd := func(done int, el time.Duration) {
		p(against.Progress{Unit: "round", Done: done, Total: 10, Work: time.Duration(done), Planned: 10, Elapsed: el})
	}
	tr("Slow-2", 1, 1, time.Second, 2*time.Second)
	assert.Empty(t, buf.String(), "too soon")
	tr("Slow-2", 1, 2, 3*time.Second, 6*time.Second)
	tr("Slow-2", 1, 3, 4*time.Second, 8*time.Second)
	tr("Fast-2", 2, 1, 32*time.Second, 64*time.Second)
	rd(1, 3*time.Second)
	rd(2, 6*time.Second)
	assert.Equal(t, "benchkit │ -benchkit.against: Slow-2 (benchmark 1 of 2), triple 2 of 10; 6s so far, about 1m14s to go (-benchkit.progress=off turns these lines off)\n"+
		"benchkit │ -benchkit.against: Fast-2 (benchmark 2 of 2), triple 1 of 10; 1m4s so far, about 16s to go\n"+
		"benchkit │ -benchkit.against: round 2 of 10 done; 6s so far, about 24s to go\n", buf.String(), "each phase keeps its own time")
}

// TestProgressSetting: -benchkit.progress and BENCHKIT_PROGRESS take on
// and off; progress is on by default.
func TestProgressSetting(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	settings.Register(fs, settings.Defaults())
	require.NoError(t, fs.Parse(nil))
	c, err := settings.Resolve(nil, func(string) string { return "" }, fs)
	require.NoError(t, err)
	assert.False(t, c.NoProgress)
	c, err = settings.Resolve(nil, func(k string) string { return map[string]string{"BENCHKIT_PROGRESS": "off"}[k] }, fs)
	require.NoError(t, err)
	assert.True(t, c.NoProgress)
	require.NoError(t, fs.Parse([]string{"-benchkit.progress=on"}))
	c, err = settings.Resolve(nil, func(k string) string { return map[string]string{"BENCHKIT_PROGRESS": "off"}[k] }, fs)
	require.NoError(t, err)
	assert.False(t, c.NoProgress, "the flag over the variable")
	_, err = settings.Resolve(nil, func(k string) string { return map[string]string{"BENCHKIT_PROGRESS": "sometimes"}[k] }, flag.NewFlagSet("u", flag.ContinueOnError))
	assert.ErrorContains(t, err, "BENCHKIT_PROGRESS")
}

// TestMainForksUpFront: a number of forks control.Compare would refuse
// is refused by Main before anything runs, with the one message of its
// one rule.
func TestMainForksUpFront(t *testing.T) {
	h := newHarness("-test.bench=.", "-benchkit.forks=150")
	assert.Equal(t, 2, h.run(fakeM{run: h.record}))
	assert.Empty(t, h.events, "nothing ran")
	assert.Equal(t, `benchkit: flag -benchkit.forks="150" is more than the 100 processes benchkit starts at most: use a whole number from 1 to 100, like 5`+"\n", h.stderr.String())
}
