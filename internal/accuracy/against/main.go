package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

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

func main() {
	var c config
	flag.IntVar(&c.r, "r", 20, "repetitions")
	flag.StringVar(&c.benchtime, "benchtime", "100ms", "-test.benchtime of every run (against gives each process 2/3 of it)")
	flag.IntVar(&c.rounds, "rounds", 10, "-benchkit.rounds")
	flag.IntVar(&c.count, "count", 10, "plain: -test.count of each side")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Minute, "deadline of each process")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "againstcal:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	dir, err := os.MkdirTemp("", "againstcal-")
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
				fmt.Fprintf(os.Stderr, "againstcal: repetition %d, %s %s left out: %v\n", i+1, rw.scenario, rw.method, err)
				continue
			}
			rw.verdicts, rw.deltas, rw.walls = append(rw.verdicts, v), append(rw.deltas, d), append(rw.walls, wall)
		}
		fmt.Fprintf(os.Stderr, "againstcal: repetition %d of %d done\n", i+1, c.r)
	}
	printTable(rows)
	fmt.Printf("\n%s\ngo run ./examples/cmd/againstcal -r %d -benchtime %s -rounds %d -count %d\n", load, c.r, c.benchtime, c.rounds, c.count)
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

func printTable(rows []*row) {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "scenario\tmethod\tflagged / caught\twrong sign\tundecided\tmedian Δ\twall / rep")
	for _, rw := range rows {
		t := harness.TallyVerdicts(rw.verdicts, rw.zero)
		und := strconv.Itoa(t.Undecided)
		if rw.method == "plain" {
			und = "–"
		}
		fmt.Fprintf(w, "%s\t%s\t%d/%d\t%d\t%s\t%+.2f%%\t%s\n", rw.scenario, rw.method, t.Flagged, t.N, t.Wrong, und,
			harness.Quantile(rw.deltas, 0.5), harness.MedianDuration(rw.walls).Round(10*time.Millisecond))
	}
	_ = w.Flush()
}
