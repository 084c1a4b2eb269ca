package benchkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/verdict"
	"github.com/benchkit/go-benchkit/warmup"
)

// mainFakeM is a testing.M stand-in: Run records the call, lets the test
// fill the registry as benchmarks would, and returns code.
type mainFakeM struct {
	code   int
	events *[]string
	run    func()
}

func (m mainFakeM) Run() int {
	*m.events = append(*m.events, "run")
	if m.run != nil {
		m.run()
	}
	return m.code
}

type mainHarness struct {
	deps           mainDeps
	stdout, stderr bytes.Buffer
	events         []string
	reg            registry.Registry
	env            map[string]string
}

// newMainHarness returns deps for mainRun over a fresh FlagSet holding the
// test.bench and test.list flags, parsed from args by mainRun.
func newMainHarness(args ...string) *mainHarness {
	h := &mainHarness{env: map[string]string{}}
	fs := flag.NewFlagSet("fake.test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("test.bench", "", "")
	fs.String("test.list", "", "")
	fs.String("test.run", "", "")
	h.deps = mainDeps{
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

func (h *mainHarness) run(m mainFakeM, opts ...MainOption) int {
	m.events = &h.events
	return mainRun(m, opts, h.deps)
}

// record fills the registry like a clean and a bimodal benchmark would.
func (h *mainHarness) record() {
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
	h := newMainHarness("-test.run=.")
	code := h.run(mainFakeM{code: 3, run: h.record})
	assert.Equal(t, 3, code, "m's code")
	assert.Equal(t, []string{"run"}, h.events, "no probe, no warm-up")
	assert.Empty(t, h.stdout.String())
	assert.Empty(t, h.stderr.String())
}

func TestMainListDoesNotWarmUp(t *testing.T) {
	h := newMainHarness("-test.bench=.", "-test.list=.")
	assert.Equal(t, 0, h.run(mainFakeM{}))
	assert.Equal(t, []string{"run"}, h.events)
}

func TestMainReportAfterBenchmarks(t *testing.T) {
	h := newMainHarness("-test.bench=.")
	code := h.run(mainFakeM{run: h.record})
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
	h := newMainHarness("-test.bench=.")
	path := filepath.Join(t.TempDir(), "r.json")
	h.env["BENCHKIT_JSON"] = path
	assert.Equal(t, 0, h.run(mainFakeM{}))
	assert.Empty(t, h.stdout.String())
	b, err := os.ReadFile(path)
	require.NoError(t, err, "the requested file is written anyway")
	assert.Contains(t, string(b), `"benchmarks": []`)
}

func TestMainExitCode(t *testing.T) {
	gate := func(h *mainHarness, failed bool) func() {
		return func() {
			h.record()
			h.reg.AddComparison("BenchmarkCmp", registry.Comparison{Result: verdict.Result{Baseline: "old", Gate: 5, GateFailed: failed, Candidates: []verdict.Estimate{{Name: "new", DeltaPct: 9, LoPct: 8, HiPct: 10, Verdict: verdict.Slower}}}})
		}
	}
	h := newMainHarness("-test.bench=.")
	assert.Equal(t, 1, h.run(mainFakeM{run: gate(h, true)}), "a failed gate fails a passing run")
	assert.Contains(t, h.stdout.String(), "✗ benchkit: Cmp: gate 5% failed: new +9.0%")

	h = newMainHarness("-test.bench=.")
	assert.Equal(t, 0, h.run(mainFakeM{run: gate(h, false)}))

	h = newMainHarness("-test.bench=.")
	assert.Equal(t, 7, h.run(mainFakeM{code: 7, run: gate(h, true)}), "m's failure code wins")

	flagged := func(h *mainHarness) func() {
		return func() {
			h.record()
			h.reg.AddFlag("BenchmarkClean", registry.Flag{Kind: registry.FlagEliminated, Message: "benchkit: gone"})
		}
	}
	h = newMainHarness("-test.bench=.")
	assert.Equal(t, 0, h.run(mainFakeM{run: flagged(h)}), "flags only warn by default")
	h = newMainHarness("-test.bench=.", "-benchkit.strict")
	assert.Equal(t, 1, h.run(mainFakeM{run: flagged(h)}), "-benchkit.strict")
	assert.Contains(t, h.stdout.String(), "Clean-2 raised eliminated")
	h = newMainHarness("-test.bench=.")
	assert.Equal(t, 1, h.run(mainFakeM{run: flagged(h)}, MainStrict()), "MainStrict")
	h = newMainHarness("-test.bench=.", "-benchkit.strict=false")
	assert.Equal(t, 0, h.run(mainFakeM{run: flagged(h)}, MainStrict()), "the flag overrides the option")
}

// TestMainExitCodeFailedFlag: a flag that failed the benchmark (a stopped
// timer, any flag under FailOnFlags) makes Main exit 1 even when m.Run
// returned 0, as it does when the failure was in a later -count repeat,
// and the failures section says so; a flag that only warned does not.
func TestMainExitCodeFailedFlag(t *testing.T) {
	failed := func(h *mainHarness, kind registry.FlagKind) func() {
		return func() {
			h.record()
			h.reg.AddFlag("BenchmarkClean", registry.Flag{Kind: kind, Message: "benchkit: bad", Failed: true})
		}
	}
	h := newMainHarness("-test.bench=.")
	assert.Equal(t, 1, h.run(mainFakeM{run: failed(h, registry.FlagTimerStopped)}), "m passed, the flag failed the benchmark")
	assert.Contains(t, h.stdout.String(), "✗ benchkit: Clean-2: timer-stopped failed the benchmark")
	assert.Contains(t, h.stdout.String(), "a later -count repeat")

	h = newMainHarness("-test.bench=.")
	assert.Equal(t, 1, h.run(mainFakeM{run: failed(h, registry.FlagEliminated)}), "FailOnFlags")
	assert.Contains(t, h.stdout.String(), "✗ benchkit: Clean-2: eliminated failed the benchmark")

	h = newMainHarness("-test.bench=.")
	assert.Equal(t, 3, h.run(mainFakeM{code: 3, run: failed(h, registry.FlagTimerStopped)}), "m's failure code wins")

	h = newMainHarness("-test.bench=.", "-benchkit.strict")
	assert.Equal(t, 1, h.run(mainFakeM{run: failed(h, registry.FlagTimerStopped)}))
	assert.Equal(t, 1, strings.Count(h.stdout.String(), "✗ benchkit: Clean-2"), "one failure line per flag under strict mode too")
}

func TestMainPrecedence(t *testing.T) {
	resolve := func(env map[string]string, args []string, opts ...MainOption) mainConfig {
		t.Helper()
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		mainRegister(fs, mainDefaults())
		require.NoError(t, fs.Parse(args))
		c, err := mainResolve(opts, func(k string) string { return env[k] }, fs)
		require.NoError(t, err)
		return c
	}
	c := resolve(nil, nil)
	assert.Equal(t, mainConfig{warmup: warmup.DefaultLimit, delta: 5}, c, "defaults")
	c = resolve(nil, nil, MainDelta(10), MainWarmup(0), MainJSON("o.json"), MainSamples("o.txt"), MainStrict())
	assert.Equal(t, mainConfig{jsonPath: "o.json", samplesPath: "o.txt", delta: 10, strict: true}, c, "options")
	env := map[string]string{"BENCHKIT_DELTA": "20", "BENCHKIT_WARMUP": "300ms", "BENCHKIT_JSON": "e.json",
		"BENCHKIT_SAMPLES": "e.txt", "BENCHKIT_STRICT": "false"}
	c = resolve(env, nil, MainDelta(10), MainWarmup(0), MainJSON("o.json"), MainStrict())
	assert.Equal(t, mainConfig{jsonPath: "e.json", samplesPath: "e.txt", warmup: 300 * time.Millisecond, delta: 20}, c,
		"environment over options")
	c = resolve(env, []string{"-benchkit.delta=30", "-benchkit.warmup=off", "-benchkit.json=f.json", "-benchkit.strict"},
		MainDelta(10))
	assert.Equal(t, mainConfig{jsonPath: "f.json", samplesPath: "e.txt", delta: 30, strict: true}, c, "flags over all")
	c = resolve(map[string]string{"BENCHKIT_DELTA": "2.5%"}, nil)
	assert.Equal(t, 2.5, c.delta, "a trailing % is accepted")
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
		h := newMainHarness(append([]string{"-test.bench=."}, tc.args...)...)
		h.env = tc.env
		assert.Equal(t, 2, h.run(mainFakeM{}), tc.want)
		assert.Contains(t, h.stderr.String(), tc.want)
		assert.Empty(t, h.events, "nothing runs after a bad setting")
	}
	assert.PanicsWithValue(t, "benchkit: MainDelta(0): the change to resolve must be a positive percentage, e.g. 5",
		func() { MainDelta(0) })
	assert.Panics(t, func() { MainWarmup(-time.Second) })
	assert.PanicsWithValue(t, "benchkit: Main called with a nil m; pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }",
		func() { Main(nil) })
	// A typed nil used to crash with SIGSEGV inside m.Run (issue 11).
	var m *testing.M
	assert.PanicsWithValue(t, "benchkit: Main called with a nil *testing.M (a typed nil, which m.Run would dereference); "+
		"pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }",
		func() { Main(m) })
}

func TestMainWarmupOffAndLimit(t *testing.T) {
	h := newMainHarness("-test.bench=.", "-benchkit.warmup=off")
	h.run(mainFakeM{run: h.record}, MainWarmup(time.Second))
	assert.Equal(t, []string{"probe", "run"}, h.events)
	assert.Contains(t, h.stdout.String(), "off: the first benchmark paid")

	h = newMainHarness("-test.bench=.")
	h.run(mainFakeM{run: h.record}, MainWarmup(500*time.Millisecond))
	assert.Equal(t, []string{"probe", "warmup 500ms", "run"}, h.events)
	assert.NotContains(t, h.stdout.String(), "the warm-up limit (now")

	h = newMainHarness("-test.bench=.")
	h.deps.warm = func(limit time.Duration) warmup.Result {
		return warmup.Result{Duration: limit, Batches: 3, Streak: 5, Tolerance: 0.05}
	}
	h.run(mainFakeM{run: h.record}, MainWarmup(500*time.Millisecond))
	assert.Contains(t, h.stdout.String(), "⚠ benchkit: under benchkit.Main the warm-up limit (now 500ms) is set with -benchkit.warmup")
}

func TestMainFiles(t *testing.T) {
	dir := t.TempDir()
	js, samples := filepath.Join(dir, "r.json"), filepath.Join(dir, "s.txt")
	h := newMainHarness("-test.bench=.", "-benchkit.json="+js, "-benchkit.samples="+samples)
	require.Equal(t, 0, h.run(mainFakeM{run: h.record}))
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

	h = newMainHarness("-test.bench=.", "-benchkit.json="+dir, "-benchkit.samples="+filepath.Join(dir, "s")+"/")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "s"), 0o755))
	require.Equal(t, 0, h.run(mainFakeM{run: h.record}))
	_, err = os.Stat(filepath.Join(dir, "example.com_fake.json"))
	assert.NoError(t, err, "a directory gets a file named after the package")
	_, err = os.Stat(filepath.Join(dir, "s", "example.com_fake.txt"))
	assert.NoError(t, err, "so does a path ending with a separator")

	// A path that cannot be written stops Main before anything runs
	// (issue 11: it used to be found after the whole run).
	h = newMainHarness("-test.bench=.", "-benchkit.json="+filepath.Join(dir, "missing", "r.json"))
	assert.Equal(t, 2, h.run(mainFakeM{run: h.record}), "a file that cannot be written stops the run")
	assert.Empty(t, h.events, "nothing ran")
	assert.Contains(t, h.stderr.String(), "the directory "+filepath.Join(dir, "missing")+" does not exist")
	assert.Contains(t, h.stderr.String(), "fix the path given by -benchkit.json or BENCHKIT_JSON (checked before the run: nothing ran)")

	// The file Main creates still fails the run when writing fails at
	// the end (a disk that filled up meanwhile).
	h = newMainHarness("-test.bench=.", "-benchkit.samples="+filepath.Join(dir, "late.txt"))
	h.deps.create = func(string) (io.WriteCloser, error) { return nil, errors.New("disk full") }
	assert.Equal(t, 1, h.run(mainFakeM{run: h.record}))
	assert.Contains(t, h.stderr.String(), "benchkit: cannot write the samples file: disk full")
}

func TestMainUnwritablePath(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("directory permissions do not stop this user")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	require.NoError(t, os.Mkdir(dir, 0o555))
	h := newMainHarness("-test.bench=.", "-benchkit.samples="+filepath.Join(dir, "s.txt"))
	assert.Equal(t, 2, h.run(mainFakeM{run: h.record}))
	assert.Empty(t, h.events, "nothing ran")
	assert.Contains(t, h.stderr.String(), "fix the path given by -benchkit.samples or BENCHKIT_SAMPLES")
}

// TestMainSamePathTwoPackages: a file path given to two packages (go test
// ./... with a file, not a directory) is said, not overwritten silently
// (issue 11).
func TestMainSamePathTwoPackages(t *testing.T) {
	dir := t.TempDir()
	js, samples := filepath.Join(dir, "r.json"), filepath.Join(dir, "s.txt")
	args := []string{"-test.bench=.", "-benchkit.json=" + js, "-benchkit.samples=" + samples}
	h := newMainHarness(args...)
	require.Equal(t, 0, h.run(mainFakeM{run: h.record}))
	assert.Empty(t, h.stderr.String())

	h = newMainHarness(args...) // the same package again: its own file
	require.Equal(t, 0, h.run(mainFakeM{run: h.record}))
	assert.Empty(t, h.stderr.String(), "a package replacing its own output is not warned")

	h = newMainHarness(args...)
	h.deps.pkg = "example.com/other"
	require.Equal(t, 0, h.run(mainFakeM{run: h.record}))
	for _, p := range []string{js, samples} {
		assert.Contains(t, h.stderr.String(), "benchkit: "+p+" held the output of package example.com/fake (written ")
	}
	assert.Contains(t, h.stderr.String(), "give a directory")
}

func TestMainRegistersFlagsOnce(t *testing.T) {
	h := newMainHarness("-test.bench=.")
	h.run(mainFakeM{})
	assert.NotPanics(t, func() { mainRun(mainFakeM{events: &h.events}, nil, h.deps) }, "a second call reuses the flags")
	assert.NotNil(t, h.deps.fs.Lookup("benchkit.json"))
}

func TestMainRegistersNothingAtImport(t *testing.T) {
	// The flags are on flag.CommandLine only once Main is called, which
	// this test binary never does.
	for _, s := range mainSettings {
		assert.Nil(t, flag.CommandLine.Lookup(s.flag), s.flag)
	}
}
