package wander

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/child"
)

// config is the parsed command line.
type config struct {
	procs, count, long int
	benchtime          string
	pkg, bench         string
	timeout            time.Duration
	verbose            bool
	// seeds runs a second set of -procs processes, interleaved with the
	// first, all started with one AT_RANDOM (child.AuxRandom).
	seeds bool
}

// parseFlags parses args (without the table's name) into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	err := harness.ParseFlags("wander", args, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&cfg.procs, "procs", 12, "fresh processes, one after another")
		fs.IntVar(&cfg.count, "count", 3, "-test.count of each of those processes")
		fs.IntVar(&cfg.long, "long", 25, "-test.count of the one long process (0: skip it)")
		fs.StringVar(&cfg.benchtime, "benchtime", "1s", "-test.benchtime of every run")
		fs.StringVar(&cfg.pkg, "pkg", "./internal/accuracy/workloads/signals", "package to build and run")
		fs.StringVar(&cfg.bench, "bench", "^BenchmarkSteady$", "-test.bench pattern: the benchmarks to measure (the first, sum if present, is the correlation's reference)")
		fs.DurationVar(&cfg.timeout, "timeout", 10*time.Minute, "deadline of each process")
		fs.BoolVar(&cfg.verbose, "v", false, "print each process's runs to stderr")
		fs.BoolVar(&cfg.seeds, "seeds", false, "also run -procs processes that all start with one AT_RANDOM (the same runtime seeds), interleaved with the others (Linux)")
	})
	if err != nil {
		return config{}, err
	}
	if cfg.bench == "" {
		return config{}, fmt.Errorf("-bench is empty: give a -test.bench pattern such as ^BenchmarkSteady$")
	}
	if cfg.procs < 2 || cfg.count < 2 || cfg.long < 0 || cfg.long == 1 || cfg.timeout <= 0 {
		return config{}, fmt.Errorf("-procs %d -count %d -long %d -timeout %v: want -procs ≥ 2, -count ≥ 2, -long 0 or ≥ 2, -timeout > 0",
			cfg.procs, cfg.count, cfg.long, cfg.timeout)
	}
	if cfg.seeds && !child.AuxRandom() {
		return config{}, fmt.Errorf("-seeds: this platform cannot set a process's AT_RANDOM bytes (Linux only)")
	}
	return cfg, nil
}

// commandLine returns the go run command that repeats this run.
func (c config) commandLine() string {
	seeds := ""
	if c.seeds {
		seeds = " -seeds"
	}
	return harness.CommandLine("wander", fmt.Sprintf("-procs %d -count %d -long %d -benchtime %s -pkg %s -bench '%s' -timeout %v%s",
		c.procs, c.count, c.long, c.benchtime, c.pkg, c.bench, c.timeout, seeds), c.verbose)
}
