package benchkit

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/warmup"
)

// MainOption configures [Main] and [Run]. Options are built by [MainJSON],
// [MainSamples], [MainReport], [MainWarmup], [MainDelta], [MainStrict] and
// [MainMetrics]; the interface is sealed.
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

// Report destinations for [MainReport], -benchkit.report and
// BENCHKIT_REPORT; any other value is a file path.
const (
	ReportStdout = "stdout" // the default: after go test's output
	ReportStderr = "stderr" // keeps stdout to go test's own lines
	ReportOff    = "off"    // no text report (the files are still written)
)

// MainReport sends the text report to dest: [ReportStdout] (the default),
// [ReportStderr], [ReportOff], or a file path, created or truncated, with
// the same rules as [MainJSON]'s (relative to the package directory; a
// directory gets one file per package, named after the import path with
// the extension ".report.txt"). With ReportOff or a file, the reasons the
// run fails, if it does, are still printed to stderr, one line each. An
// empty dest is ReportStdout.
func MainReport(dest string) MainOption {
	return mainOptionFunc(func(c *mainConfig) { c.report = reportDest(dest) })
}

// reportDest returns dest, or "" (the zero value, ReportStdout) for
// ReportStdout and blank text.
func reportDest(dest string) string {
	if strings.TrimSpace(dest) == "" || dest == ReportStdout {
		return ""
	}
	return dest
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
// misuse, setup cost, ...) fail the run: Main exits 1 when m passed. Each
// such flag also fails its benchmark when raised (b.Error), so that go
// test -json names it; a kind the benchmark accepted with [Allow] fails
// nothing.
func MainStrict() MainOption {
	return mainOptionFunc(func(c *mainConfig) { c.strict = true })
}

// mainConfig is Main's resolved settings.
type mainConfig struct {
	jsonPath    string
	samplesPath string
	report      string        // "" (ReportStdout), ReportStderr, ReportOff or a path
	warmup      time.Duration // 0: off
	delta       float64
	strict      bool
	forks       int  // 0: control's own default (control.DefaultForks)
	noMetrics   bool // -benchkit.metrics=off: validated here, read by testflag.Metrics
	// -benchkit.against and its companions (see againstRun).
	against    string  // the base test binary, "" off
	rounds     int     // 0: DefaultAgainstRounds
	gate       float64 // percent, 0 off
	gateAllocs bool
}

func mainDefaults() mainConfig {
	return mainConfig{warmup: warmup.DefaultLimit, delta: report.DefaultDeltaPct}
}

// mainSetting is one setting's flag and environment variable. A boolean
// one's flag can be given without a value (-benchkit.strict).
type mainSetting struct {
	flag, env, usage string
	boolean          bool
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
		flag: "benchkit.report", env: "BENCHKIT_REPORT",
		usage: "where the text report goes: stdout, stderr, off, or a file `path` (env BENCHKIT_REPORT)",
		def: func(c mainConfig) string {
			if c.report == "" {
				return ReportStdout
			}
			return c.report
		},
		set: func(c *mainConfig, v string) error { c.report = reportDest(v); return nil },
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
		flag: testflag.MetricsFlag, env: testflag.MetricsEnv, boolean: true,
		usage: "add benchkit's and control's extra metrics (cv%, wait%, per-implementation times, ...) to benchmark lines: on or off (env BENCHKIT_METRICS)",
		def:   func(c mainConfig) string { return strconv.FormatBool(!c.noMetrics) },
		set: func(c *mainConfig, v string) error {
			on, err := testflag.ParseSwitch(v)
			c.noMetrics = !on
			return err
		},
	},
	{
		flag: "benchkit.strict", env: "BENCHKIT_STRICT", boolean: true,
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
	{
		flag: "benchkit.forks", env: "BENCHKIT_FORKS",
		usage: "`n` fresh processes control.Compare spreads its rounds over; 1 measures within one process (env BENCHKIT_FORKS)",
		def: func(c mainConfig) string {
			if c.forks == 0 {
				return ""
			}
			return strconv.Itoa(c.forks)
		},
		set: func(c *mainConfig, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return fmt.Errorf("%q is not a number of processes: use a whole number ≥ 1, like 5 (1 measures within one process)", v)
			}
			c.forks = n
			return nil
		},
	},
	{
		flag: "benchkit.against", env: "BENCHKIT_AGAINST",
		usage: "compare the selected benchmarks with the same package's test binary at `path`, built at another commit (env BENCHKIT_AGAINST)",
		def:   func(c mainConfig) string { return c.against },
		set:   func(c *mainConfig, v string) error { c.against = strings.TrimSpace(v); return nil },
	},
	{
		flag: "benchkit.rounds", env: "BENCHKIT_ROUNDS",
		usage: "`n` rounds of processes for -benchkit.against (default 10) (env BENCHKIT_ROUNDS)",
		def: func(c mainConfig) string {
			if c.rounds == 0 {
				return ""
			}
			return strconv.Itoa(c.rounds)
		},
		set: func(c *mainConfig, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return fmt.Errorf("%q is not a number of rounds: use a whole number ≥ 1, like 10 (an interval needs at least 2)", v)
			}
			c.rounds = n
			return nil
		},
	},
	{
		flag: "benchkit.gate", env: "BENCHKIT_GATE",
		usage: "with -benchkit.against, fail on a decided slowdown beyond `percent` (env BENCHKIT_GATE)",
		def:   func(c mainConfig) string { return strconv.FormatFloat(c.gate, 'g', -1, 64) },
		set: func(c *mainConfig, v string) error {
			f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "%"), 64)
			if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
				return fmt.Errorf("%q is not a percentage: use a number such as 5 (0 turns the gate off)", v)
			}
			c.gate = f
			return nil
		},
	},
	{
		flag: "benchkit.gate.allocs", env: "BENCHKIT_GATE_ALLOCS", boolean: true,
		usage: "with -benchkit.against, fail on any increase in allocs/op (env BENCHKIT_GATE_ALLOCS)",
		def:   func(c mainConfig) string { return strconv.FormatBool(c.gateAllocs) },
		set: func(c *mainConfig, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("%q is not a boolean: use true or false", v)
			}
			c.gateAllocs = b
			return nil
		},
	},
}

// mainFlag is the flag.Value of every setting: it keeps the text, which
// mainResolve checks after parsing with the setting's own message. A
// boolean one (-benchkit.strict) can be given without a value.
type mainFlag struct {
	v      string
	isBool bool
}

func (f *mainFlag) String() string {
	if f == nil {
		return ""
	}
	return f.v
}
func (f *mainFlag) Set(v string) error { f.v = v; return nil }
func (f *mainFlag) IsBoolFlag() bool   { return f.isBool }

// mainRegister defines the -benchkit.* flags on fs unless they already
// are (Main called twice, or a FlagSet reused), with the defaults of c.
func mainRegister(fs *flag.FlagSet, c mainConfig) {
	for _, s := range mainSettings {
		if fs.Lookup(s.flag) != nil {
			continue
		}
		fs.Var(&mainFlag{v: s.def(c), isBool: s.boolean}, s.flag, s.usage)
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

// metricsOn reports whether Track and Loop add their metrics (cv%, wait%,
// batchcv%) to the benchmark's line: -benchkit.metrics, else
// BENCHKIT_METRICS, else on (see testflag.Metrics).
func metricsOn() bool { return testflag.Metrics(os.Getenv, flag.CommandLine) }
