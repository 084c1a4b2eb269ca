package benchkit

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/testingb"
	"github.com/benchkit/go-benchkit/warmup"
)

// Main runs the tests and benchmarks of a package and, when benchmarks were
// requested, the hygiene around them. Call it from TestMain:
//
//	func TestMain(m *testing.M) { benchkit.Main(m) }
//
// When -test.bench (go test -bench) is non-empty after flag parsing, Main
//
//  1. records the environment (load, CPU governor, turbo, GOMAXPROCS,
//     virtualisation and steal time, race/coverage/-N -l builds);
//  2. runs the warm-up (package warmup) before the first test or benchmark;
//  3. runs m.Run();
//  4. prints the hygiene report to stdout (or stderr, a file, or nowhere:
//     -benchkit.report), every line starting with "benchkit │ " so that
//     the output stays readable by benchstat;
//  5. writes the JSON report and the samples file if asked;
//  6. exits with m.Run's code, or 1 when m passed but a gate the user
//     enabled failed (a control comparison gate, or any flag with
//     -benchkit.strict), a flag failed its benchmark (a stopped timer
//     always does, any flag under [FailOnFlags]), or a requested file
//     could not be written. The flag case matters under -count above 1:
//     go test loses a failure in a later repeat (it prints --- FAIL, then
//     PASS, and m.Run returns 0), and Main, which recorded it, exits 1
//     and lists it in the report's failures section.
//
// Without -bench, Main only runs m and exits with its code: it adds nothing
// to the output. With -bench but no benchmark that called [Track], [Loop],
// [Setup] or control.Compare, it prints nothing either (the files, if
// requested, are still written, with no benchmarks). The report's sections
// and the JSON schema are described in the repository's docs/report.md.
//
// Settings, each with a flag (registered by Main on flag.CommandLine when
// it is called, never at import time), an environment variable and a
// [MainOption]:
//
//	flag                        env var            option           default
//	-benchkit.json=path         BENCHKIT_JSON      MainJSON         "" (no file)
//	-benchkit.samples=path      BENCHKIT_SAMPLES   MainSamples      "" (no file)
//	-benchkit.report=dest       BENCHKIT_REPORT    MainReport       stdout (or stderr, off, a path)
//	-benchkit.warmup=d|off      BENCHKIT_WARMUP    MainWarmup       warmup.DefaultLimit
//	-benchkit.delta=pct         BENCHKIT_DELTA     MainDelta        5 (Δ% for runs needed)
//	-benchkit.strict            BENCHKIT_STRICT    MainStrict       false
//	-benchkit.metrics=on|off    BENCHKIT_METRICS   -                on
//	-benchkit.forks=n           BENCHKIT_FORKS     control.Forks    control.DefaultForks
//	-benchkit.against=path      BENCHKIT_AGAINST   -                "" (off)
//	-benchkit.rounds=n          BENCHKIT_ROUNDS    -                DefaultAgainstRounds
//	-benchkit.gate=pct          BENCHKIT_GATE      -                0 (no gate)
//	-benchkit.gate.allocs       BENCHKIT_GATE_ALLOCS -              false
//
// -benchkit.against compares with another build of the package, and the
// other three apply to it: see the package doc, "Comparing with another
// build".
//
// -benchkit.forks is read by package control (see its "Forks" section);
// Main registers it so that go test accepts it, and checks its value.
// -benchkit.metrics=off leaves benchkit's and control's extra metrics off
// the benchmark lines (see the package doc's Track section); it is read
// where the metrics are reported, so BENCHKIT_METRICS=off works without
// Main too.
//
// In a child process started by control.Compare's forks, Main only runs
// m and exits with its code: no environment probe, no warm-up, no report,
// no files (the parent process reports). A TestMain's own setup before
// Main still runs in every fork.
// A file path is relative to the package directory (go test runs the test
// binary there). A path that ends with a separator or names an existing
// directory gets one file per package in it, named after the import path
// with '/' replaced by '_' (".json" or ".txt"): use that with
// `go test ./...`, where every package's binary would otherwise overwrite
// the same file (a file that holds another package's output is replaced
// with a warning on stderr naming it). Across several packages prefer the
// environment variables:
// the test binary of a package whose TestMain does not call Main rejects an
// unknown -benchkit.* flag.
//
// Precedence, lowest first: the default, the options passed to Main, the
// environment variable, the flag. The person running the command (flag or
// variable) overrides the code (option). An invalid environment variable
// or flag value stops Main before anything runs, with a message naming the
// fix, and exit code 2; so does, when benchmarks are requested, a file
// path that cannot be written (a missing or unwritable directory).
//
// Main calls flag.Parse if the flags are not parsed yet. A TestMain that
// calls flag.Parse itself before Main must call [RegisterFlags] first, or
// flag.Parse rejects a -benchkit.* flag ("flag provided but not defined")
// and exits 2; the environment variables work either way. Main calls
// os.Exit and does not return: a TestMain with teardown after the tests
// calls [Run] instead. It panics if m is nil.
func Main(m M, opts ...MainOption) {
	os.Exit(Run(m, opts...))
}

// M is what [Main] and [Run] need of the package's tests: a *testing.M,
// or a stand-in for it in a test of your own TestMain. Run runs the tests
// and benchmarks and returns the exit code, as testing.M.Run does.
type M interface{ Run() int }

// Run does everything [Main] does (the settings, the environment probe,
// the warm-up, m.Run, the report, the files, the exit code) and returns
// the exit code instead of calling os.Exit, for a TestMain that has
// teardown to do after the tests:
//
//	func TestMain(m *testing.M) {
//		db := startDB()
//		code := benchkit.Run(m)
//		db.Stop() // os.Exit skips deferred calls: tear down first
//		os.Exit(code)
//	}
//
// The code is m.Run's, or 1 or 2 as Main's doc lists. Run panics if m is
// nil.
func Run(m M, opts ...MainOption) int {
	mainCheck(m)
	return mainRun(m, opts, mainLive())
}

func mainCheck(m M) {
	if m == nil {
		panic("benchkit: Main called with a nil m; pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }")
	}
	if isNilValue(m) {
		panic(fmt.Sprintf("benchkit: Main called with a nil %T (a typed nil, which m.Run would dereference); "+
			"pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }", m))
	}
}

// mainDeps is what mainRun touches outside its arguments, so that tests
// can substitute every piece.
type mainDeps struct {
	fs     *flag.FlagSet
	args   []string // parsed when fs is not parsed yet
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
	probe  func() env.Snapshot
	warm   func(limit time.Duration) warmup.Result
	reg    *registry.Registry
	pkg    string
	create func(path string) (io.WriteCloser, error)
	// now, cpu and build feed the JSON report's metadata: the start time,
	// go test's cpu line (env.GoTestCPU) and the build information. Each
	// may be nil in a test's deps: no start time, no cpu, no VCS stamp.
	now   func() time.Time
	cpu   func() string
	build func() (*debug.BuildInfo, bool)
}

func mainLive() mainDeps {
	return mainDeps{
		fs:     flag.CommandLine,
		args:   os.Args[1:],
		getenv: os.Getenv,
		stdout: os.Stdout,
		stderr: os.Stderr,
		probe:  env.Probe,
		warm:   func(limit time.Duration) warmup.Result { return warmup.Run(warmup.Limit(limit)) },
		reg:    registry.Default(),
		pkg:    mainPackage(),
		create: func(path string) (io.WriteCloser, error) { return os.Create(path) },
		now:    time.Now,
		cpu:    env.GoTestCPU,
		build:  debug.ReadBuildInfo,
	}
}

// mainPackage returns the import path of the package under test: a test
// binary's main module path is "<pkg>.test" in its build information.
func mainPackage() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return strings.TrimSuffix(bi.Path, ".test")
}

// mainRun is Main without os.Exit: it returns the exit code.
func mainRun(m M, opts []MainOption, d mainDeps) int {
	cfg, code := mainSettingsOf(opts, d)
	if code != 0 {
		return code
	}
	strictFlags.Store(cfg.strict) // flags then fail their benchmark (raise)
	defer strictFlags.Store(false)
	if child.Is() {
		// A fork of control.Compare or a run of -benchkit.against: the
		// parent reports; this process only measures.
		child.Watch()
		return m.Run()
	}
	if cfg.against != "" {
		return againstRun(m, cfg, d)
	}
	if !mainBenchRequested(d.fs) {
		return m.Run()
	}
	if err := mainCheckPaths(cfg, d.pkg); err != nil {
		fmt.Fprintln(d.stderr, err)
		return 2
	}
	var start time.Time
	if d.now != nil {
		start = d.now()
	}
	snap := d.probe()
	wu := mainWarmup(cfg, d)
	code = m.Run()
	in := mainInput(cfg, d, snap, wu)
	in.Meta = mainMeta(d, start, snap)
	a := report.Analyze(in)
	if mainOutput(cfg, d, in, a) && code == 0 {
		code = 1
	}
	return code
}

// mainSettingsOf registers and parses the -benchkit.* flags and resolves
// the settings; a non-zero code (2) means they were invalid, and the
// message is on stderr.
func mainSettingsOf(opts []MainOption, d mainDeps) (mainConfig, int) {
	mainRegister(d.fs, mainDefaults())
	if !d.fs.Parsed() {
		if err := d.fs.Parse(d.args); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: %v\n", err)
			return mainConfig{}, 2
		}
	}
	cfg, err := mainResolve(opts, d.getenv, d.fs)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return cfg, 2
	}
	return cfg, 0
}

// mainWarmup runs the warm-up when it is on and returns its summary for
// the report, or nil.
func mainWarmup(cfg mainConfig, d mainDeps) *report.Warmup {
	if cfg.warmup <= 0 {
		return nil
	}
	r := d.warm(cfg.warmup)
	wu := &report.Warmup{
		Summary: r.String(), Duration: r.Duration, Batches: r.Batches,
		Converged: r.Converged, FirstToLast: r.FirstToLast,
	}
	for _, w := range r.Warnings {
		wu.Warnings = append(wu.Warnings, w.Error())
	}
	if !r.Converged {
		wu.Warnings = append(wu.Warnings, fmt.Sprintf(
			"benchkit: under benchkit.Main the warm-up limit (now %v) is set with -benchkit.warmup, BENCHKIT_WARMUP or MainWarmup", cfg.warmup))
	}
	return wu
}

// mainInput gathers what the report shows: the environment snapshot, the
// warm-up, the registry's records and the settings.
func mainInput(cfg mainConfig, d mainDeps, snap env.Snapshot, wu *report.Warmup) report.Input {
	in := report.Input{
		Package: d.pkg, GOOS: snap.GOOS, GOARCH: snap.GOARCH, Warmup: wu,
		Benches: d.reg.Benchmarks(), Dropped: d.reg.Dropped(), Against: d.reg.Against(),
		Settings: report.Settings{DeltaPct: cfg.delta, Strict: cfg.strict},
	}
	if d.cpu != nil {
		in.CPU = d.cpu() // go test's own cpu line, for the samples file and the JSON
	}
	in.Facts, in.Warnings = snap.Facts(), snap.Warnings()
	if msg := testingb.Note(); msg != "" {
		in.Warnings = append(in.Warnings, env.Warning{Key: "testing-internals", Message: msg})
	}
	return in
}

// mainOutput prints the report (when anything was recorded) and writes
// the requested files. It reports whether the run must fail: a gate or a
// strict-mode flag, or a file that could not be written.
func mainOutput(cfg mainConfig, d mainDeps, in report.Input, a report.Analysis) (failed bool) {
	failed = a.Failed()
	if !mainText(cfg, d, in, a) {
		failed = true
	}
	if cfg.jsonPath != "" {
		if err := mainWriteFile(d, mainFilePath(cfg.jsonPath, d.pkg, ".json"), func(w io.Writer) error { return report.JSONAnalysis(w, in, a) }); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: cannot write the JSON report: %v; fix the path given by -benchkit.json or BENCHKIT_JSON\n", err)
			failed = true
		}
	}
	if cfg.samplesPath != "" {
		if err := mainWriteFile(d, mainFilePath(cfg.samplesPath, d.pkg, ".txt"), func(w io.Writer) error { return report.SamplesAnalysis(w, in, a) }); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: cannot write the samples file: %v; fix the path given by -benchkit.samples or BENCHKIT_SAMPLES\n", err)
			failed = true
		}
	}
	return failed
}

// mainText sends the text report where cfg.report says: stdout or stderr
// when anything was recorded, nowhere when off, or to a file (always
// written, like the JSON report). With off or a file, the run's failures
// go to stderr, so that a non-zero exit is never unexplained. It reports
// false when the file could not be written.
func mainText(cfg mainConfig, d mainDeps, in report.Input, a report.Analysis) (ok bool) {
	write := func(w io.Writer) error { return report.TextAnalysis(w, in, a) }
	ok = true
	switch cfg.report {
	case "", ReportStderr:
		w := d.stdout
		if cfg.report == ReportStderr {
			w = d.stderr
		}
		if len(in.Benches) > 0 || in.Against != nil {
			if err := write(w); err != nil {
				fmt.Fprintf(d.stderr, "benchkit: printing the report: %v\n", err)
			}
		}
		return true
	case ReportOff:
	default:
		path := mainFilePath(cfg.report, d.pkg, ".report.txt")
		if err := mainWriteFile(d, path, write); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: cannot write the report: %v; fix the path given by -benchkit.report or BENCHKIT_REPORT\n", err)
			ok = false
		} else if a.Failed() {
			fmt.Fprintf(d.stderr, "benchkit: the run failed; the report is in %s\n", path)
		}
	}
	for _, f := range a.Failures {
		fmt.Fprintln(d.stderr, f)
	}
	return ok
}

// mainBenchRequested reports whether benchmarks will run: -test.bench is
// non-empty and -test.list is not given.
func mainBenchRequested(fs *flag.FlagSet) bool {
	get := func(name string) string {
		if f := fs.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	return get("test.bench") != "" && get("test.list") == ""
}

// mainFilePath returns path, or, when path ends with a path separator or
// names an existing directory, the file in it named after the package
// ("example.com/p" → "example.com_p"+ext), so that one setting serves every
// package of `go test ./...` without each overwriting the last.
func mainFilePath(path, pkg, ext string) string {
	dir := strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(os.PathSeparator))
	if !dir {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			dir = true
		}
	}
	if !dir {
		return path
	}
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' {
			return '_'
		}
		return r
	}, pkg)
	if name == "" {
		name = "benchkit"
	}
	return filepath.Join(path, name+ext)
}

func mainWriteFile(d mainDeps, path string, write func(io.Writer) error) error {
	if w := mainOtherPackage(path, d.pkg); w != "" {
		fmt.Fprintln(d.stderr, w)
	}
	f, err := d.create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
