package signals

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// config is the parsed command line.
type config struct {
	reps      int
	benchtime string // -test.benchtime for BenchmarkSteady and the hog
	tinyBT    string // -test.benchtime for BenchmarkTiny
	pkg       string
	hogPkg    string
	timeout   time.Duration
	verbose   bool
}

// parseFlags parses args (without the table's name) into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	err := harness.ParseFlags("signals", args, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&cfg.reps, "r", 20, "repetitions, each a fresh process per binary")
		fs.StringVar(&cfg.benchtime, "benchtime", "1s", "-test.benchtime for the steady workloads and the hog")
		fs.StringVar(&cfg.tinyBT, "tiny-benchtime", "300ms", "-test.benchtime for the 1–3 ns workloads")
		fs.StringVar(&cfg.pkg, "pkg", "./internal/accuracy/workloads/signals", "package holding BenchmarkSteady and BenchmarkTiny")
		fs.StringVar(&cfg.hogPkg, "hog-pkg", "./examples/seed001", "package holding seed 001's hog benchmark")
		fs.DurationVar(&cfg.timeout, "timeout", 5*time.Minute, "deadline of each process")
		fs.BoolVar(&cfg.verbose, "v", false, "print each process's rows to stderr")
	})
	if err != nil {
		return config{}, err
	}
	if cfg.reps < 1 || cfg.timeout <= 0 {
		return config{}, fmt.Errorf("-r %d, -timeout %v: want -r ≥ 1 and -timeout > 0", cfg.reps, cfg.timeout)
	}
	return cfg, nil
}

// commandLine returns the go run command that repeats this run.
func (c config) commandLine() string {
	return harness.CommandLine("signals", fmt.Sprintf("-r %d -benchtime %s -tiny-benchtime %s -pkg %s -hog-pkg %s -timeout %v",
		c.reps, c.benchtime, c.tinyBT, c.pkg, c.hogPkg, c.timeout), c.verbose)
}
