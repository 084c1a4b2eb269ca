package against

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// config is the parsed command line.
type config struct {
	r         int
	benchtime string
	rounds    int
	count     int
	timeout   time.Duration
}

// row is one scenario × method: the verdicts, deltas and wall times of
// its repetitions.
type row struct {
	scenario, method string
	zero             bool // the truth is 0 (A/A)
	verdicts         []string
	deltas           []float64
	walls            []time.Duration
}

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, progress and errors
// to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("against", args, stdout, stderr, parseFlags, run)
}

// parseFlags parses args into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	err := harness.ParseFlags("against", args, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&c.r, "r", 20, "repetitions")
		fs.StringVar(&c.benchtime, "benchtime", "100ms", "-test.benchtime of every run (against gives each process 2/3 of it)")
		fs.IntVar(&c.rounds, "rounds", 10, "-benchkit.rounds")
		fs.IntVar(&c.count, "count", 10, "plain: -test.count of each side")
		fs.DurationVar(&c.timeout, "timeout", 10*time.Minute, "deadline of each process")
	})
	return c, err
}

// run builds the two binaries, runs the repetitions and prints the table.
func run(c config, stdout, stderr io.Writer) error {
	dir, err := os.MkdirTemp("", "against-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	const pkg = "./benchkit/testdata/against"
	base, err := harness.BuildAs(pkg, dir, "base")
	if err != nil {
		return err
	}
	plus5, err := harness.BuildAs(pkg, dir, "plus5", "-tags=against_plus5")
	if err != nil {
		return err
	}
	load := harness.MachineLine()
	rows := []*row{
		{scenario: "A/A", method: "against", zero: true}, {scenario: "A/A", method: "plain", zero: true},
		{scenario: "+5%", method: "against"}, {scenario: "+5%", method: "plain"},
	}
	cands := map[string]string{"A/A": base, "+5%": plus5}
	for i := range c.r {
		for k := range rows {
			rw := rows[(k+i)%len(rows)] // rotate the order between repetitions
			v, d, wall, err := measure(c, rw.method, base, cands[rw.scenario], dir)
			if err != nil {
				fmt.Fprintf(stderr, "against: repetition %d, %s %s left out: %v\n", i+1, rw.scenario, rw.method, err)
				continue
			}
			rw.verdicts, rw.deltas, rw.walls = append(rw.verdicts, v), append(rw.deltas, d), append(rw.walls, wall)
		}
		fmt.Fprintf(stderr, "against: repetition %d of %d done\n", i+1, c.r)
	}
	printTable(stdout, rows)
	fmt.Fprintf(stdout, "\n%s\n%s\n", load, harness.CommandLine("against",
		fmt.Sprintf("-r %d -benchtime %s -rounds %d -count %d", c.r, c.benchtime, c.rounds, c.count), false))
	return nil
}

// measure runs one repetition of method and returns its verdict on
// BenchmarkWork, its Δ in percent and its wall time.
func measure(c config, method, base, cand, dir string) (string, float64, time.Duration, error) {
	if method == "against" {
		return measureAgainst(c, base, cand, dir)
	}
	return measurePlain(c, base, cand)
}

func measureAgainst(c config, base, cand, dir string) (string, float64, time.Duration, error) {
	js := dir + "/r.json"
	_, wall, err := harness.Run(cand, []string{"-test.run=^$", "-test.bench=^BenchmarkWork$", "-test.benchtime=" + c.benchtime,
		"-benchkit.against=" + base, "-benchkit.rounds=" + strconv.Itoa(c.rounds), "-benchkit.json=" + js, "-benchkit.warmup=off"}, nil, c.timeout)
	if err != nil {
		return "", 0, wall, err
	}
	b, err := os.ReadFile(js)
	if err != nil {
		return "", 0, wall, err
	}
	var rep struct {
		Against struct {
			Benchmarks []struct {
				Name     string `json:"name"`
				Estimate struct {
					DeltaPct float64 `json:"delta_pct"`
					Verdict  string  `json:"verdict"`
				} `json:"estimate"`
			} `json:"benchmarks"`
		} `json:"against"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return "", 0, wall, err
	}
	for _, bm := range rep.Against.Benchmarks {
		if strings.HasPrefix(bm.Name, "Work") {
			return bm.Estimate.Verdict, bm.Estimate.DeltaPct, wall, nil
		}
	}
	return "", 0, wall, fmt.Errorf("no BenchmarkWork in the report")
}

func measurePlain(c config, base, cand string) (string, float64, time.Duration, error) {
	args := []string{"-test.run=^$", "-test.bench=^BenchmarkWork$", "-test.benchtime=" + c.benchtime,
		"-test.count=" + strconv.Itoa(c.count), "-benchkit.warmup=off"}
	var samples [2][]float64
	var wall time.Duration
	for i, bin := range []string{base, cand} {
		out, w, err := harness.Run(bin, args, nil, c.timeout)
		wall += w
		if err != nil {
			return "", 0, wall, err
		}
		samples[i], err = workSamples(out)
		if err != nil {
			return "", 0, wall, err
		}
	}
	e := harness.ComparePlain(samples[0], samples[1])
	return e.Verdict, e.Delta, wall, nil
}

// printTable writes the table of rows, aligned in columns.
func printTable(out io.Writer, rows []*row) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "scenario\tmethod\tflagged / caught\twrong sign\tundecided\tmedian Δ\twall / rep")
	for _, rw := range rows {
		t := harness.TallyVerdicts(rw.verdicts, rw.zero)
		und := strconv.Itoa(t.Undecided)
		if rw.method == "plain" {
			und = "–"
		}
		med, _ := stats.Median(rw.deltas) // 0 for no repetitions
		fmt.Fprintf(w, "%s\t%s\t%d/%d\t%d\t%s\t%+.2f%%\t%s\n", rw.scenario, rw.method, t.Flagged, t.N, t.Wrong, und,
			med, harness.MedianDuration(rw.walls).Round(10*time.Millisecond))
	}
	_ = w.Flush()
}
