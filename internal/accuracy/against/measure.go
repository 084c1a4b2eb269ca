package against

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// workloads are the benchmarks every run measures, by the name the table
// shows.
var workloads = []string{"Compute", "Alloc"}

const benchPattern = "^Benchmark(Compute|Alloc)$"

// outcome is one method's answer on one workload in one repetition: the
// verdict, Δ in percent and its interval (NaN bounds when there is none:
// always for plain, and for -benchkit.against when too few rounds or
// triples gave one).
type outcome struct {
	verdict     string
	delta       float64
	lo, hi      float64
	hasInterval bool
}

// env is every run's environment: this process's, with the workloads let
// run at a -benchtime duration.
func env() []string { return append(os.Environ(), "BENCHKIT_AGAINST_TABLE=1") }

// measure runs one repetition of method on cand against base and returns
// the outcome per workload and the wall time.
func measure(c config, method, base, cand, dir string) (map[string]outcome, time.Duration, error) {
	if method == "plain" {
		return measurePlain(c, base, cand)
	}
	return measureAgainst(c, method, base, cand, dir)
}

func measureAgainst(c config, pairing, base, cand, dir string) (map[string]outcome, time.Duration, error) {
	res, wall, err := harness.RunAgainst(cand, base, dir, []string{"-test.bench=" + benchPattern, "-test.benchtime=" + c.benchtime,
		"-benchkit.pairing=" + pairing, "-benchkit.rounds=" + strconv.Itoa(c.rounds)}, env(), c.timeout)
	if err != nil {
		return nil, wall, err
	}
	outs := map[string]outcome{}
	for _, w := range workloads {
		o, ok := res[w]
		switch {
		case !ok:
			return nil, wall, fmt.Errorf("no Benchmark%s in the report", w)
		case o.Mode != pairing:
			return nil, wall, fmt.Errorf("the report measured Benchmark%s in %s, not %s: %s", w, o.Mode, pairing, o.ModeNote)
		case math.IsNaN(o.Delta):
			return nil, wall, fmt.Errorf("no estimate of Benchmark%s in the report (%s)", w, o.Verdict)
		}
		out := outcome{verdict: o.Verdict, delta: o.Delta, lo: math.NaN(), hi: math.NaN()}
		if o.HasCI { // else too few rounds or triples for an interval
			out.lo, out.hi, out.hasInterval = o.Lo, o.Hi, true
		}
		outs[w] = out
	}
	return outs, wall, nil
}

func measurePlain(c config, base, cand string) (map[string]outcome, time.Duration, error) {
	args := []string{"-test.run=^$", "-test.bench=" + benchPattern, "-test.benchtime=" + c.benchtime,
		"-test.count=" + strconv.Itoa(c.count), "-benchkit.warmup=off"}
	var samples [2]map[string][]float64
	var wall time.Duration
	for i, bin := range []string{base, cand} {
		out, w, err := harness.Run(bin, args, env(), c.timeout)
		wall += w
		if err != nil {
			return nil, wall, err
		}
		if samples[i], err = benchSamples(out); err != nil {
			return nil, wall, err
		}
	}
	outs := map[string]outcome{}
	for _, w := range workloads {
		e := harness.ComparePlain(samples[0][w], samples[1][w])
		outs[w] = outcome{verdict: e.Verdict, delta: e.Delta, lo: math.NaN(), hi: math.NaN()}
	}
	return outs, wall, nil
}
