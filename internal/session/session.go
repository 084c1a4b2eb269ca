package session

import (
	"flag"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/settings"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/testingb"
	"github.com/benchkit/go-benchkit/warmup"
)

// Deps is what Run touches outside its arguments, so that tests
// can substitute every piece.
type Deps struct {
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
	// counter counts instructions under -benchkit.count=instructions;
	// its zero value in a test's deps says there is no counter.
	counter counter
}

func Live() Deps {
	return Deps{
		fs:     flag.CommandLine,
		args:   os.Args[1:],
		getenv: os.Getenv,
		stdout: os.Stdout,
		stderr: os.Stderr,
		probe:  env.Probe,
		warm:   func(limit time.Duration) warmup.Result { return warmup.Run(warmup.Limit(limit)) },
		reg:    registry.Default(),
		pkg:    packagePath(),
		create: func(path string) (io.WriteCloser, error) { return os.Create(path) },
		now:    time.Now,
		cpu:    env.GoTestCPU,
		build:  debug.ReadBuildInfo,

		counter: liveCounter,
	}
}

// packagePath returns the import path of the package under test: a test
// binary's main module path is "<pkg>.test" in its build information.
func packagePath() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return strings.TrimSuffix(bi.Path, ".test")
}

// Run is benchkit.Main without os.Exit: it resolves the settings (the
// defaults, then opts, then the environment, then the flags), runs m and
// the hygiene around it as Main's doc describes, and returns the exit
// code.
func Run(m interface{ Run() int }, opts []func(*settings.Config), d Deps) int {
	cfg, code := settingsOf(opts, d)
	if code != 0 {
		return code
	}
	strict.Store(cfg.Strict) // flags then fail their benchmark (benchkit's raise)
	defer strict.Store(false)
	if child.Is() {
		// A fork of control.Compare, a run of -benchkit.against or a
		// process of a count: the parent reports; this process only
		// measures (and, in a count's, says what processes it started).
		child.Watch()
		if err := child.Announce(); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: cannot tell the parent process this binary speaks the lockstep protocol: %v\n", err)
		}
		code := m.Run()
		if err := count.WriteChildren(); err != nil {
			fmt.Fprintln(d.stderr, err)
		}
		return code
	}
	child.Pin() // the file forks re-execute, as it is now
	if w := child.Stray(); w != "" {
		fmt.Fprintln(d.stderr, w)
	}
	if !cfg.Against.On() && !benchRequested(d.fs) {
		return m.Run()
	}
	cfg, err := prepare(cfg, d)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return 2
	}
	if cfg.Against.On() {
		return againstRun(m, cfg, d)
	}
	shardNote, err := shardPlain(cfg, d, m)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return 2
	}
	var start time.Time
	if d.now != nil {
		start = d.now()
	}
	snap := d.probe()
	wu := warmUp(cfg, d)
	selected.Store(&selection{start: time.Now(), total: countSelected(testingb.BenchmarkNames(m), d.fs)})
	defer selected.Store(nil)
	code = m.Run()
	in := input(cfg, d, snap, wu)
	if cfg.Count == settings.CountInstructions {
		in.Counts = countTracked(d)
	}
	in.Meta = meta(d, start, snap)
	a := report.Analyze(in)
	note(cfg, d, shardNote)
	if output(cfg, d, in, a) && code == 0 {
		code = 1
	}
	return code
}

// prepare checks, before anything runs, the settings that need
// -benchkit.against and the files' paths, with the defaults the
// environment gives filled in (withDefaults); an error names the fix.
func prepare(cfg settings.Config, d Deps) (settings.Config, error) {
	if err := cfg.CheckAgainstOnly(); err != nil {
		return cfg, err
	}
	cfg, err := withDefaults(cfg, d)
	if err != nil {
		return cfg, err
	}
	return cfg, checkPaths(cfg, d.pkg)
}

// settingsOf registers and parses the -benchkit.* flags and resolves
// the settings; a non-zero code (2) means they were invalid, and the
// message is on stderr.
func settingsOf(opts []func(*settings.Config), d Deps) (settings.Config, int) {
	settings.Register(d.fs, settings.Defaults())
	if !d.fs.Parsed() {
		if err := d.fs.Parse(d.args); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: %v\n", err)
			return settings.Config{}, 2
		}
	}
	cfg, err := settings.Resolve(opts, d.getenv, d.fs)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return cfg, 2
	}
	return cfg, 0
}

// warmUp runs the warm-up when it is on and returns its summary for
// the report, or nil.
func warmUp(cfg settings.Config, d Deps) *report.Warmup {
	if cfg.Warmup <= 0 {
		return nil
	}
	r := d.warm(cfg.Warmup)
	wu := &report.Warmup{
		Summary: r.String(), Duration: r.Duration, Batches: r.Batches,
		Converged: r.Converged, FirstToLast: r.FirstToLast,
	}
	for _, w := range r.Warnings {
		wu.Warnings = append(wu.Warnings, w.Error())
	}
	if !r.Converged {
		wu.Warnings = append(wu.Warnings, fmt.Sprintf(
			"benchkit: under benchkit.Main the warm-up limit (now %v) is set with -benchkit.warmup, BENCHKIT_WARMUP or MainWarmup", cfg.Warmup))
	}
	return wu
}

// input gathers what the report shows: the environment snapshot, the
// warm-up, the registry's records and the settings.
func input(cfg settings.Config, d Deps, snap env.Snapshot, wu *report.Warmup) report.Input {
	in := report.Input{
		Package: d.pkg, GOOS: snap.GOOS, GOARCH: snap.GOARCH, Warmup: wu,
		Benches: d.reg.Benchmarks(), Dropped: d.reg.Dropped(),
		Settings: report.Settings{DeltaPct: cfg.Delta, Strict: cfg.Strict, Full: cfg.ReportFull, Shard: cfg.Shard},
	}
	if d.cpu != nil {
		in.CPU = d.cpu() // go test's own cpu line, for the samples file and the JSON
	}
	in.Facts, in.Warnings = snap.Facts(), snap.Warnings()
	if msg := testingb.Note(); msg != "" {
		in.Warnings = append(in.Warnings, env.Warning{Key: "testing-internals", Message: msg, Short: "testing.B lacks fields benchkit reads"})
	}
	return in
}

// output prints the report (when anything was recorded) and writes
// the requested files. It reports whether the run must fail: a gate or a
// strict-mode flag, or a file that could not be written.
func output(cfg settings.Config, d Deps, in report.Input, a report.Analysis) (failed bool) {
	failed = a.Failed()
	if !text(cfg, d, in, a) {
		failed = true
	}
	for _, f := range outputFiles(cfg) {
		if f.render == nil {
			continue
		}
		if err := writeFile(d, filePath(f.path, d.pkg, f.ext), func(w io.Writer) error { return f.render(w, in, a) }); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: cannot write %s: %v; fix the path given by %s\n", f.what, err, f.setting)
			failed = true
		}
	}
	if !addViews(cfg, d, in, a) {
		failed = true
	}
	return failed
}

// text sends the text report where cfg.Report says: stdout or stderr
// when anything was recorded, nowhere when off, or to a file (always
// written, like the JSON report). With off or a file, the run's failures
// go to stderr, so that a non-zero exit is never unexplained. It reports
// false when the file could not be written.
func text(cfg settings.Config, d Deps, in report.Input, a report.Analysis) (ok bool) {
	write := func(w io.Writer) error { return report.TextAnalysis(w, in, a) }
	ok = true
	switch cfg.Report {
	case "", settings.ReportStderr:
		w := d.stdout
		if cfg.Report == settings.ReportStderr {
			w = d.stderr
		}
		if len(in.Benches) > 0 || in.Against != nil {
			if err := write(w); err != nil {
				fmt.Fprintf(d.stderr, "benchkit: printing the report: %v\n", err)
			}
		}
		return true
	case settings.ReportOff:
	default:
		path := filePath(cfg.Report, d.pkg, ".report.txt")
		if err := writeFile(d, path, write); err != nil {
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

// benchRequested reports whether benchmarks will run: -test.bench is
// non-empty and -test.list is not given.
func benchRequested(fs *flag.FlagSet) bool {
	get := func(name string) string {
		if f := fs.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	return get("test.bench") != "" && get("test.list") == ""
}

// filePath returns path, or, when path ends with a path separator or
// names an existing directory, the file in it named after the package
// ("example.com/p" → "example.com_p"+ext), so that one setting serves every
// package of `go test ./...` without each overwriting the last.
func filePath(path, pkg, ext string) string {
	if !dirForm(path) {
		return path
	}
	return filepath.Join(path, report.PackageFile(pkg, ext))
}

// dirForm reports whether path names a directory: it ends with a path
// separator or names an existing directory.
func dirForm(path string) bool {
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(os.PathSeparator)) {
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func writeFile(d Deps, path string, write func(io.Writer) error) error {
	if w := otherPackage(path, d.pkg); w != "" {
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

// strict is settings.Config.Strict while Run runs m.
var strict atomic.Bool

// Strict reports whether strict mode is on: every flag a benchmark raises
// and does not allow then fails it (b.Error), so that go test -json names
// the benchmark, and fails the run.
func Strict() bool { return strict.Load() }

// selection is what a run selected: when its benchmarks began and how
// many top-level benchmarks -bench (less -skip) selects.
type selection struct {
	start time.Time
	total int
}

var selected atomic.Pointer[selection]

// Selected returns when the benchmarks began and how many top-level
// benchmarks the run selected; ok is false outside Run's m.Run, or when
// the count is unknown (m is not a *testing.M).
func Selected() (start time.Time, total int, ok bool) {
	s := selected.Load()
	if s == nil || s.total == 0 {
		return time.Time{}, 0, false
	}
	return s.start, s.total, true
}

// countSelected counts the names that -test.bench and -test.skip on fs
// select at the top level.
func countSelected(names []string, fs *flag.FlagSet) int {
	bench, skip := testflag.Value(fs, "test.bench"), testflag.Value(fs, "test.skip")
	n := 0
	for _, name := range names {
		if child.Selects(bench, skip, name) {
			n++
		}
	}
	return n
}
