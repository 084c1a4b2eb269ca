package benchkit

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/report"
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
//  4. prints the hygiene report to stdout, every line starting with
//     "benchkit │ " so that the output stays readable by benchstat;
//  5. writes the JSON report and the samples file if asked;
//  6. exits with m.Run's code, or 1 when m passed but a gate the user
//     enabled failed (a control comparison gate, or any flag with
//     -benchkit.strict), or a requested file could not be written.
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
//	-benchkit.warmup=d|off      BENCHKIT_WARMUP    MainWarmup       warmup.DefaultLimit
//	-benchkit.delta=pct         BENCHKIT_DELTA     MainDelta        5 (Δ% for runs needed)
//	-benchkit.strict            BENCHKIT_STRICT    MainStrict       false
//
// A file path is relative to the package directory (go test runs the test
// binary there). A path that ends with a separator or names an existing
// directory gets one file per package in it, named after the import path
// with '/' replaced by '_' (".json" or ".txt"): use that with
// `go test ./...`, where every package's binary would otherwise overwrite
// the same file. Across several packages prefer the environment variables:
// the test binary of a package whose TestMain does not call Main rejects an
// unknown -benchkit.* flag.
//
// Precedence, lowest first: the default, the options passed to Main, the
// environment variable, the flag. The person running the command (flag or
// variable) overrides the code (option). An invalid environment variable
// or flag value stops Main before anything runs, with a message naming the
// fix, and exit code 2.
//
// Main calls flag.Parse if the flags are not parsed yet; do not call
// flag.Parse in TestMain before Main, or the -benchkit.* flags are
// unknown to it. Main calls os.Exit and does not return. It panics if m is
// nil.
func Main(m interface{ Run() int }, opts ...MainOption) {
	mainCheck(m)
	os.Exit(mainRun(m, opts, mainLive()))
}

func mainCheck(m interface{ Run() int }) {
	if m == nil {
		panic("benchkit: Main called with a nil m; pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }")
	}
}

// MainOption configures [Main]. Options are built by [MainJSON],
// [MainSamples], [MainWarmup], [MainDelta] and [MainStrict]; the interface
// is sealed.
type MainOption interface{ applyMain(*mainConfig) }

type mainOptionFunc func(*mainConfig)

func (f mainOptionFunc) applyMain(c *mainConfig) { f(c) }

// MainJSON writes the JSON report (schema "benchkit-report/v1", described
// in the README and in internal/report) to path after the benchmarks.
// The file is created or truncated. An empty path writes no file.
func MainJSON(path string) MainOption {
	return mainOptionFunc(func(c *mainConfig) { c.jsonPath = path })
}

// MainSamples writes every sample (one benchmark result line per run, and
// the Loop batches of single-run benchmarks in a separate block) to path
// in the Go benchmark format, for `benchstat path`. An empty path writes no
// file.
func MainSamples(path string) MainOption {
	return mainOptionFunc(func(c *mainConfig) { c.samplesPath = path })
}

// MainWarmup sets the warm-up's time limit; 0 turns the warm-up off. The
// warm-up stops earlier, as soon as its batch times are stable (see
// package warmup). It panics if limit is negative.
func MainWarmup(limit time.Duration) MainOption {
	if limit < 0 {
		panic(fmt.Sprintf("benchkit: MainWarmup(%v): the warm-up limit must be positive, or 0 to turn it off", limit))
	}
	return mainOptionFunc(func(c *mainConfig) { c.warmup = limit })
}

// MainDelta sets the change, in percent, that the report's runs-needed
// column sizes for (Lehr's rule, runs ≈ 16·(cv/Δ)²). It panics unless pct
// is positive and finite.
func MainDelta(pct float64) MainOption {
	if !(pct > 0) || math.IsInf(pct, 0) {
		panic(fmt.Sprintf("benchkit: MainDelta(%v): the change to resolve must be a positive percentage, e.g. 5", pct))
	}
	return mainOptionFunc(func(c *mainConfig) { c.delta = pct })
}

// MainStrict makes every flag a benchmark raised (eliminated work, timer
// misuse, setup cost, ...) fail the run: Main exits 1 when m passed.
func MainStrict() MainOption {
	return mainOptionFunc(func(c *mainConfig) { c.strict = true })
}

// mainConfig is Main's resolved settings.
type mainConfig struct {
	jsonPath    string
	samplesPath string
	warmup      time.Duration // 0: off
	delta       float64
	strict      bool
}

func mainDefaults() mainConfig {
	return mainConfig{warmup: warmup.DefaultLimit, delta: report.DefaultDeltaPct}
}

// mainSetting is one setting's flag and environment variable.
type mainSetting struct {
	flag, env, usage string
	def              func(c mainConfig) string
	set              func(c *mainConfig, v string) error
}

var mainSettings = []mainSetting{
	{
		flag: "benchkit.json", env: "BENCHKIT_JSON",
		usage: "write the benchkit JSON report (schema benchkit-report/v1) to `path` (env BENCHKIT_JSON)",
		def:   func(c mainConfig) string { return c.jsonPath },
		set:   func(c *mainConfig, v string) error { c.jsonPath = v; return nil },
	},
	{
		flag: "benchkit.samples", env: "BENCHKIT_SAMPLES",
		usage: "write every benchmark sample to `path` in the Go benchmark format, for benchstat (env BENCHKIT_SAMPLES)",
		def:   func(c mainConfig) string { return c.samplesPath },
		set:   func(c *mainConfig, v string) error { c.samplesPath = v; return nil },
	},
	{
		flag: "benchkit.warmup", env: "BENCHKIT_WARMUP",
		usage: "warm-up time `limit` before the benchmarks (e.g. 2s), or off (env BENCHKIT_WARMUP)",
		def: func(c mainConfig) string {
			if c.warmup == 0 {
				return "off"
			}
			return c.warmup.String()
		},
		set: func(c *mainConfig, v string) error {
			v = strings.TrimSpace(v)
			if v == "off" || v == "0" {
				c.warmup = 0
				return nil
			}
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return fmt.Errorf("%q is not a duration: use a limit such as 2s or 500ms, or off", v)
			}
			c.warmup = d
			return nil
		},
	},
	{
		flag: "benchkit.delta", env: "BENCHKIT_DELTA",
		usage: "the change in `percent` the report's runs-needed column sizes for (Lehr's rule) (env BENCHKIT_DELTA)",
		def:   func(c mainConfig) string { return strconv.FormatFloat(c.delta, 'g', -1, 64) },
		set: func(c *mainConfig, v string) error {
			f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "%"), 64)
			if err != nil || !(f > 0) || math.IsInf(f, 0) {
				return fmt.Errorf("%q is not a positive percentage: use a number such as 5", v)
			}
			c.delta = f
			return nil
		},
	},
	{
		flag: "benchkit.strict", env: "BENCHKIT_STRICT",
		usage: "exit non-zero when any benchmark raised a benchkit flag (env BENCHKIT_STRICT)",
		def:   func(c mainConfig) string { return strconv.FormatBool(c.strict) },
		set: func(c *mainConfig, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("%q is not a boolean: use true or false", v)
			}
			c.strict = b
			return nil
		},
	},
}

// mainBoolFlag is the flag.Value of -benchkit.strict, so that the flag can
// be given without a value.
type mainBoolFlag struct{ v string }

func (b *mainBoolFlag) String() string {
	if b == nil {
		return ""
	}
	return b.v
}
func (b *mainBoolFlag) Set(s string) error { b.v = s; return nil }
func (b *mainBoolFlag) IsBoolFlag() bool   { return true }

// mainStringFlag is the flag.Value of the other settings; values are
// checked after parsing, with the setting's own message.
type mainStringFlag struct{ v string }

func (s *mainStringFlag) String() string {
	if s == nil {
		return ""
	}
	return s.v
}
func (s *mainStringFlag) Set(v string) error { s.v = v; return nil }

// mainRegister defines the -benchkit.* flags on fs unless they already
// are (Main called twice, or a FlagSet reused), with the defaults of c.
func mainRegister(fs *flag.FlagSet, c mainConfig) {
	for _, s := range mainSettings {
		if fs.Lookup(s.flag) != nil {
			continue
		}
		if s.flag == "benchkit.strict" {
			fs.Var(&mainBoolFlag{v: s.def(c)}, s.flag, s.usage)
		} else {
			fs.Var(&mainStringFlag{v: s.def(c)}, s.flag, s.usage)
		}
	}
}

// mainResolve applies opts, then the environment, then the flags set on
// the (parsed) fs, over the defaults.
func mainResolve(opts []MainOption, getenv func(string) string, fs *flag.FlagSet) (mainConfig, error) {
	c := mainDefaults()
	for _, o := range opts {
		if o != nil {
			o.applyMain(&c)
		}
	}
	for _, s := range mainSettings {
		if v := getenv(s.env); v != "" {
			if err := s.set(&c, v); err != nil {
				return c, fmt.Errorf("benchkit: environment variable %s=%s", s.env, err)
			}
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, s := range mainSettings {
		if !set[s.flag] {
			continue
		}
		if err := s.set(&c, fs.Lookup(s.flag).Value.String()); err != nil {
			return c, fmt.Errorf("benchkit: flag -%s=%s", s.flag, err)
		}
	}
	return c, nil
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
func mainRun(m interface{ Run() int }, opts []MainOption, d mainDeps) int {
	mainRegister(d.fs, mainDefaults())
	if !d.fs.Parsed() {
		if err := d.fs.Parse(d.args); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: %v\n", err)
			return 2
		}
	}
	cfg, err := mainResolve(opts, d.getenv, d.fs)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return 2
	}
	if !mainBenchRequested(d.fs) {
		return m.Run()
	}

	snap := d.probe()
	var wu *report.Warmup
	if cfg.warmup > 0 {
		r := d.warm(cfg.warmup)
		wu = &report.Warmup{
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
	}

	code := m.Run()

	in := report.Input{
		Package: d.pkg, GOOS: snap.GOOS, GOARCH: snap.GOARCH, Warmup: wu,
		Benches: d.reg.Benchmarks(), Dropped: d.reg.Dropped(),
		Settings: report.Settings{DeltaPct: cfg.delta, Strict: cfg.strict},
	}
	if snap.CPUModelKnown {
		in.CPU = snap.CPUModel
	}
	for _, f := range snap.Facts() {
		in.Facts = append(in.Facts, report.Fact{Name: f.Name, Value: f.Value})
	}
	for _, w := range snap.Warnings() {
		in.Warnings = append(in.Warnings, report.Warning{Key: w.Key, Message: w.Message})
	}
	a := report.Analyze(in)

	failed := a.Failed()
	if len(in.Benches) > 0 {
		if err := report.TextAnalysis(d.stdout, in, a); err != nil {
			fmt.Fprintf(d.stderr, "benchkit: printing the report: %v\n", err)
		}
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
	if code == 0 && failed {
		code = 1
	}
	return code
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
