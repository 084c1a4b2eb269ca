package settings

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/warmup"
)

// Report destinations of Config.Report, -benchkit.report and
// BENCHKIT_REPORT; any other value is a file path.
const (
	ReportStdout = "stdout" // the default: after go test's output
	ReportStderr = "stderr" // the test binary's stderr, which go test merges into its output
	ReportOff    = "off"    // no text report (the files are still written)
)

// ReportFull asks for the full text report rather than the compact one:
// alone, on stdout; as the prefix "full:" of any other destination
// ("full:stderr", "full:report.txt"), there.
const ReportFull = "full"

// ReportDest returns dest, or "" (the zero value, ReportStdout) for
// ReportStdout and blank text.
func ReportDest(dest string) string {
	if strings.TrimSpace(dest) == "" || dest == ReportStdout {
		return ""
	}
	return dest
}

// ParseReport reads a value of -benchkit.report: its destination
// ([ReportDest] of what follows "full:", or of the whole value) and
// whether it asks for the full report ([ReportFull], alone or as that
// prefix). A file literally named "full" is written as "./full".
func ParseReport(v string) (dest string, full bool) {
	switch rest, ok := strings.CutPrefix(v, ReportFull+":"); {
	case strings.TrimSpace(v) == ReportFull:
		return "", true
	case ok:
		return ReportDest(rest), true
	}
	return ReportDest(v), false
}

// DefaultDeltaPct is the change, in percent, that the runs-needed column
// sizes for when none is set (-benchkit.delta, and the report's zero).
const DefaultDeltaPct = 5.0

// Config is Main's resolved settings; Defaults holds every default.
type Config struct {
	// JSONPath and SamplesPath are the JSON report's and the samples
	// file's paths, "" for none.
	JSONPath, SamplesPath string
	// HTMLPath is the HTML report's path; BMFPath and GABPath the
	// exports' for Bencher and github-action-benchmark; "" for none.
	HTMLPath, BMFPath, GABPath string
	// Report is "" (ReportStdout), ReportStderr, ReportOff or a path;
	// ReportFull asks for the full text report there, not the compact one.
	Report     string
	ReportFull bool
	// Warmup is the warm-up's limit, 0 off.
	Warmup time.Duration
	// Delta is the change in percent the runs-needed column sizes for.
	Delta float64
	// Strict makes every flag not allowed fail its benchmark and the run.
	Strict bool
	// NoProgress is -benchkit.progress=off: no progress lines on stderr
	// between the rounds of -benchkit.against.
	NoProgress bool
	// Against is the cross-build comparison's settings; none unless
	// Against.On.
	Against Against
	// Count is CountInstructions to count every tracked benchmark's
	// instructions per op under valgrind after the run, "" (CountOff)
	// not to.
	Count string
	// Shard is -benchkit.shard: the share of the selected benchmarks
	// this run measures; the zero value is all of them.
	Shard Shard
	// SummaryPath is the Markdown summary's path, "" for the default
	// (which the session resolves from the environment) and SummaryOff
	// for none.
	SummaryPath string
}

// SummaryOff is the value of -benchkit.summary and BENCHKIT_SUMMARY that
// writes no summary, not even the default one.
const SummaryOff = "off"

// Shard is shard K of N (1 ≤ K ≤ N) of a run's benchmarks; the zero
// value is no sharding.
type Shard struct{ K, N int }

// Set reports whether s shards the run.
func (s Shard) Set() bool { return s.N > 0 }

// String returns "K/N", or "" for no sharding.
func (s Shard) String() string {
	if !s.Set() {
		return ""
	}
	return strconv.Itoa(s.K) + "/" + strconv.Itoa(s.N)
}

// MaxShards bounds N in -benchkit.shard: more shards than that are more
// runners than any CI matrix starts.
const MaxShards = 256

// ParseShard reads "K/N" with 1 ≤ K ≤ N ≤ MaxShards; "" is no sharding.
// The error names the fix.
func ParseShard(v string) (Shard, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return Shard{}, nil
	}
	ks, ns, ok := strings.Cut(v, "/")
	k, kerr := strconv.Atoi(strings.TrimSpace(ks))
	n, nerr := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case !ok || kerr != nil || nerr != nil:
		return Shard{}, fmt.Errorf("%q is not a shard: use K/N, such as 1/4 for the first of four shards", v)
	case n < 1 || n > MaxShards:
		return Shard{}, fmt.Errorf("%q has %d shards: use 1 to %d shards, such as 1/4", v, n, MaxShards)
	case k < 1 || k > n:
		return Shard{}, fmt.Errorf("%q asks for shard %d of %d: K counts from 1 to N, so use 1/%d to %d/%d", v, k, n, n, n, n)
	}
	return Shard{K: k, N: n}, nil
}

// Against is the settings of -benchkit.against: the one struct they
// travel in, from the flags to the comparison's plan.
type Against struct {
	// Base is the base test binary's path; Rev the git revision whose
	// merge base with HEAD the base is built at (AgainstTarget's rule
	// splits the setting); both "" for no comparison.
	Base, Rev string
	// Rounds is the number of triples or rounds of processes, 0 for the
	// comparison's default.
	Rounds int
	// Gate is the time gate in percent (0: none); GateAllocs fails on any
	// increase in allocs/op; GateInstr on a rise in instructions per op
	// beyond it, in percent (0: none; it needs Count).
	Gate       float64
	GateAllocs bool
	GateInstr  float64
	// Pairing is how the builds are paired: "lockstep" (the default,
	// also for "") or "rounds".
	Pairing string
}

// On reports whether a comparison is asked for: a base binary or a
// revision.
func (a Against) On() bool { return a.Base != "" || a.Rev != "" }

// Gated reports whether any gate is set.
func (a Against) Gated() bool { return a.Gate > 0 || a.GateAllocs || a.GateInstr > 0 }

// Values of Config.Count, -benchkit.count and BENCHKIT_COUNT.
const (
	CountOff          = "off"          // the default: no counts
	CountInstructions = "instructions" // instructions per op under valgrind (docs/counts.md)
)

// Defaults returns the settings before any option, variable or flag.
func Defaults() Config {
	return Config{Warmup: warmup.DefaultLimit, Delta: DefaultDeltaPct}
}

// setting is one setting's flag and environment variable. A boolean
// one's flag can be given without a value (-benchkit.strict).
type setting struct {
	flag, env, usage string
	boolean          bool
	def              func(c Config) string
	set              func(c *Config, v string) error
}

var settings = []setting{
	pathSetting("benchkit.json", "BENCHKIT_JSON",
		"write the benchkit JSON report (schema benchkit-report/v1) to `path`", func(c *Config) *string { return &c.JSONPath }),
	pathSetting("benchkit.samples", "BENCHKIT_SAMPLES",
		"write every benchmark sample to `path` in the Go benchmark format, for benchstat", func(c *Config) *string { return &c.SamplesPath }),
	pathSetting("benchkit.html", "BENCHKIT_HTML",
		"write the HTML report (one page, plots included, no script) to `path`", func(c *Config) *string { return &c.HTMLPath }),
	pathSetting("benchkit.bmf", "BENCHKIT_BMF",
		"write the results in Bencher Metric Format JSON to `path`, for bencher run --adapter json --file", func(c *Config) *string { return &c.BMFPath }),
	pathSetting("benchkit.gab", "BENCHKIT_GAB",
		"write the results as github-action-benchmark's customSmallerIsBetter JSON to `path`", func(c *Config) *string { return &c.GABPath }),
	{
		flag: "benchkit.report", env: "BENCHKIT_REPORT",
		usage: "where the text report goes: stdout, stderr, off, or a file `path`; full, or full: before any of them, " +
			"for the full report (the environment, the column legends, the strip plots, each finding explained) rather than the compact one (env BENCHKIT_REPORT)",
		def: func(c Config) string {
			dest := c.Report
			if dest == "" {
				dest = ReportStdout
			}
			switch {
			case c.ReportFull && dest == ReportStdout:
				return ReportFull
			case c.ReportFull:
				return ReportFull + ":" + dest
			}
			return dest
		},
		set: func(c *Config, v string) error { c.Report, c.ReportFull = ParseReport(v); return nil },
	},
	{
		flag: "benchkit.warmup", env: "BENCHKIT_WARMUP",
		usage: "warm-up time `limit` before the benchmarks (e.g. 2s), or off (env BENCHKIT_WARMUP)",
		def: func(c Config) string {
			if c.Warmup == 0 {
				return "off"
			}
			return c.Warmup.String()
		},
		set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if v == "off" || v == "0" {
				c.Warmup = 0
				return nil
			}
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return fmt.Errorf("%q is not a duration: use a limit such as 2s or 500ms, or off", v)
			}
			c.Warmup = d
			return nil
		},
	},
	pctSetting("benchkit.delta", "BENCHKIT_DELTA", "the change in `percent` the report's runs-needed column sizes for (Lehr's rule)",
		false, "is not a positive percentage: use a number such as 5", func(c *Config) *float64 { return &c.Delta }),
	checkSetting(MetricsFlag, MetricsEnv, "on",
		"add benchkit's and control's extra metrics (cv%, wait%, per-implementation times, ...) to benchmark lines: on or off (env "+MetricsEnv+"; read where the metrics are reported)",
		func(v string) error { _, err := ParseSwitch(v); return err }),
	switchSetting("benchkit.progress", "BENCHKIT_PROGRESS", "print progress on stderr between the rounds of -benchkit.against",
		func(c *Config) *bool { return &c.NoProgress }),
	boolSetting("benchkit.strict", "BENCHKIT_STRICT", "exit non-zero when any benchmark raised a benchkit flag",
		func(c *Config) *bool { return &c.Strict }),
	checkSetting(ForksFlag, ForksEnv, "",
		"`n` fresh processes control.Compare spreads its rounds over, 1 to "+strconv.Itoa(MaxForks)+"; 1 measures within one process (env "+ForksEnv+")",
		func(v string) error { _, err := parseForks(v); return err }),
	{
		flag: "benchkit.against", env: "BENCHKIT_AGAINST",
		usage: "compare the selected benchmarks with the same package built at the merge base of a git `revision` and HEAD (origin/main), " +
			"or with its test binary at a path (base.test; path: and rev: force either) (env BENCHKIT_AGAINST)",
		def: func(c Config) string {
			if c.Against.Rev != "" {
				return RevPrefix + c.Against.Rev
			}
			return c.Against.Base
		},
		set: func(c *Config, v string) error {
			c.Against.Base, c.Against.Rev = AgainstTarget(v, exists)
			return nil
		},
	},
	choiceSetting("benchkit.pairing", "BENCHKIT_PAIRING",
		"how -benchkit.against pairs the builds: lockstep (runs interleaved across live processes, the default) or rounds (rounds of whole processes) (env BENCHKIT_PAIRING)",
		"lockstep", "", []string{"lockstep", "rounds"}, "is not a pairing: use lockstep or rounds", func(c *Config) *string { return &c.Against.Pairing }),
	countSetting("benchkit.rounds", "BENCHKIT_ROUNDS", "`n` fresh triples of processes (lockstep; unset, each benchmark's budget of 16 × -benchtime decides) or rounds of processes (default 10) for -benchkit.against",
		"is not a number of rounds: use a whole number ≥ 1, like 10 (an interval needs at least 2)", func(c *Config) *int { return &c.Against.Rounds }),
	pctSetting("benchkit.gate", "BENCHKIT_GATE", "with -benchkit.against, fail on a decided slowdown beyond `percent`",
		true, "is not a percentage: use a number such as 5 (0 turns the gate off)", func(c *Config) *float64 { return &c.Against.Gate }),
	boolSetting("benchkit.gate.allocs", "BENCHKIT_GATE_ALLOCS", "with -benchkit.against, fail on any increase in allocs/op",
		func(c *Config) *bool { return &c.Against.GateAllocs }),
	pctSetting("benchkit.gate.instructions", "BENCHKIT_GATE_INSTRUCTIONS",
		"with -benchkit.against and -benchkit.count=instructions, fail on a rise in instructions per op beyond `percent`",
		true, "is not a percentage: use a number such as 1 (0 turns the gate off)", func(c *Config) *float64 { return &c.Against.GateInstr }),
	{
		flag: "benchkit.shard", env: "BENCHKIT_SHARD",
		usage: "measure shard `K/N` of the selected benchmarks (1 ≤ K ≤ N), by a hash of the package and the top-level benchmark's name, for a CI matrix of N jobs (env BENCHKIT_SHARD)",
		def:   func(c Config) string { return c.Shard.String() },
		set: func(c *Config, v string) (err error) {
			c.Shard, err = ParseShard(v)
			return err
		},
	},
	pathSetting("benchkit.summary", "BENCHKIT_SUMMARY",
		"add this package's part to the run's Markdown summary at `path`, or off (default: under -benchkit.against in GitHub Actions, $GITHUB_STEP_SUMMARY)",
		func(c *Config) *string { return &c.SummaryPath }),
	choiceSetting("benchkit.count", "BENCHKIT_COUNT",
		"after the benchmarks, count the instructions per op of each tracked one under valgrind: `instructions` or off (env BENCHKIT_COUNT)",
		CountOff, CountOff, []string{CountOff, CountInstructions}, "is not a count: use instructions (counted under valgrind, docs/counts.md) or off",
		func(c *Config) *string { return &c.Count }),
}

// The number of processes control.Compare spreads a comparison over:
// the flag (registered by benchkit.Main), the environment variable, and
// the bound beyond which each fork's share of the budget is too small to
// measure anything.
const (
	ForksFlag = "benchkit.forks"
	ForksEnv  = "BENCHKIT_FORKS"
	MaxForks  = 100
)

// parseForks reads a number of processes: a whole number from 1 to
// MaxForks.
func parseForks(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	switch {
	case err != nil || n < 1:
		return 0, fmt.Errorf("%q is not a number of processes: use a whole number from 1 to %d, like 5 (1 measures within one process)", v, MaxForks)
	case n > MaxForks:
		return 0, fmt.Errorf("%q is more than the %d processes benchkit starts at most: use a whole number from 1 to %d, like 5", v, MaxForks, MaxForks)
	}
	return n, nil
}

// Forks returns the number of processes -benchkit.forks (when set on fs)
// or BENCHKIT_FORKS asks for, the flag over the variable; set is false
// when neither does. A value that is not one is an error naming the fix,
// the same one Resolve gives before anything runs under benchkit.Main.
func Forks(getenv func(string) string, fs *flag.FlagSet) (n int, set bool, err error) {
	if testflag.IsSet(fs, ForksFlag) {
		n, err = parseForks(fs.Lookup(ForksFlag).Value.String())
		if err != nil {
			return 0, true, fmt.Errorf("benchkit: flag -%s=%w", ForksFlag, err)
		}
		return n, true, nil
	}
	if v := getenv(ForksEnv); v != "" {
		n, err = parseForks(v)
		if err != nil {
			return 0, true, fmt.Errorf("benchkit: environment variable %s=%w", ForksEnv, err)
		}
		return n, true, nil
	}
	return 0, false, nil
}

// CheckAgainstOnly returns an error naming the fix when a setting that
// only applies to -benchkit.against is given without it: a gate that
// silently applies to nothing would pass every run.
func (c Config) CheckAgainstOnly() error {
	a := c.Against
	if a.On() {
		return nil
	}
	var given []string
	if a.Gate > 0 {
		given = append(given, "-benchkit.gate")
	}
	if a.GateAllocs {
		given = append(given, "-benchkit.gate.allocs")
	}
	if a.GateInstr > 0 {
		given = append(given, "-benchkit.gate.instructions")
	}
	if a.Rounds > 0 {
		given = append(given, "-benchkit.rounds")
	}
	if a.Pairing != "" {
		given = append(given, "-benchkit.pairing")
	}
	if len(given) == 0 {
		return nil
	}
	return fmt.Errorf("benchkit: %s applies to a cross-build comparison, and none was asked for: add -benchkit.against=origin/main (docs/ci.md), or drop %s (or its environment variable) (checked before the run: nothing ran)",
		strings.Join(given, ", "), map[bool]string{true: "them", false: "it"}[len(given) > 1])
}

// choiceSetting is one of values. The field's zero value "" shows as
// def; the value zero (when not "") is stored as "". bad ends the message
// for a value that is none of them.
func choiceSetting(flag, env, usage, def, zero string, values []string, bad string, field func(*Config) *string) setting {
	return setting{flag: flag, env: env, usage: usage,
		def: func(c Config) string {
			if v := *field(&c); v != "" {
				return v
			}
			return def
		},
		set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if !slices.Contains(values, v) {
				return fmt.Errorf("%q %s", v, bad)
			}
			if v == zero {
				v = ""
			}
			*field(c) = v
			return nil
		}}
}

// pathSetting is a setting that holds a file path as given.
func pathSetting(flag, env, usage string, field func(*Config) *string) setting {
	return setting{flag: flag, env: env, usage: usage + " (env " + env + ")",
		def: func(c Config) string { return *field(&c) },
		set: func(c *Config, v string) error { *field(c) = v; return nil }}
}

// checkSetting is a setting Main only checks before anything runs: its
// value is read where it is used (Forks, Metrics), with the same check.
func checkSetting(flag, env, def, usage string, check func(string) error) setting {
	return setting{flag: flag, env: env, usage: usage,
		def: func(Config) string { return def },
		set: func(_ *Config, v string) error { return check(v) }}
}

// switchSetting is an on/off setting (ParseSwitch), on by
// default: off is the field, true when the setting is off.
func switchSetting(flag, env, usage string, off func(*Config) *bool) setting {
	return setting{flag: flag, env: env, usage: usage + ": on or off (env " + env + ")", boolean: true,
		def: func(c Config) string { return strconv.FormatBool(!*off(&c)) },
		set: func(c *Config, v string) error {
			on, err := ParseSwitch(v)
			*off(c) = !on
			return err
		}}
}

// boolSetting is a true/false setting; its flag can be given without a
// value.
func boolSetting(flag, env, usage string, field func(*Config) *bool) setting {
	return setting{flag: flag, env: env, usage: usage + " (env " + env + ")", boolean: true,
		def: func(c Config) string { return strconv.FormatBool(*field(&c)) },
		set: func(c *Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("%q is not a boolean: use true or false", v)
			}
			*field(c) = b
			return nil
		}}
}

// countSetting is a whole number ≥ 1; 0 (its zero value) means "not
// given", shown as no default. bad ends the message for a value that is
// not one.
func countSetting(flag, env, usage, bad string, field func(*Config) *int) setting {
	return setting{flag: flag, env: env, usage: usage + " (env " + env + ")",
		def: func(c Config) string {
			if n := *field(&c); n != 0 {
				return strconv.Itoa(n)
			}
			return ""
		},
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return fmt.Errorf("%q %s", v, bad)
			}
			*field(c) = n
			return nil
		}}
}

// pctSetting is a finite percentage, a trailing "%" allowed: positive, or
// with zero non-negative. bad ends the message for a value that is not
// one.
func pctSetting(flag, env, usage string, zero bool, bad string, field func(*Config) *float64) setting {
	return setting{flag: flag, env: env, usage: usage + " (env " + env + ")",
		def: func(c Config) string { return strconv.FormatFloat(*field(&c), 'g', -1, 64) },
		set: func(c *Config, v string) error {
			f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "%"), 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f < 0 || (f == 0 && !zero) {
				return fmt.Errorf("%q %s", v, bad)
			}
			*field(c) = f
			return nil
		}}
}

// flagValue is the flag.Value of every setting: it keeps the text, which
// Resolve checks after parsing with the setting's own message. A
// boolean one (-benchkit.strict) can be given without a value.
type flagValue struct {
	v      string
	isBool bool
}

func (f *flagValue) String() string {
	if f == nil {
		return ""
	}
	return f.v
}

func (f *flagValue) Set(v string) error { f.v = v; return nil }

func (f *flagValue) IsBoolFlag() bool { return f.isBool }

// Register defines the -benchkit.* flags on fs unless they already
// are (Main called twice, or a FlagSet reused), with the defaults of c.
func Register(fs *flag.FlagSet, c Config) {
	for _, s := range settings {
		if fs.Lookup(s.flag) != nil {
			continue
		}
		fs.Var(&flagValue{v: s.def(c), isBool: s.boolean}, s.flag, s.usage)
	}
}

// Resolve applies opts, then the environment, then the flags set on
// the (parsed) fs, over the defaults.
func Resolve(opts []func(*Config), getenv func(string) string, fs *flag.FlagSet) (Config, error) {
	c := Defaults()
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	for _, s := range settings {
		if v := getenv(s.env); v != "" {
			if err := s.set(&c, v); err != nil {
				return c, fmt.Errorf("benchkit: environment variable %s=%s", s.env, err)
			}
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, s := range settings {
		if !set[s.flag] {
			continue
		}
		if err := s.set(&c, fs.Lookup(s.flag).Value.String()); err != nil {
			return c, fmt.Errorf("benchkit: flag -%s=%s", s.flag, err)
		}
	}
	return c, nil
}
