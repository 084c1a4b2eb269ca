package against

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// outcome is one method's answer on one workload in one repetition: the
// verdict, Δ in percent and its interval (NaN bounds when there is none:
// always for plain, and for -benchkit.against when too few rounds or
// triples gave one). In lockstep it holds, too, how many triples were run,
// why they stopped, and the between-process and within-process CVs in
// percent (NaN unknown); elsewhere triples is 0 and stop "".
type outcome struct {
	verdict         string
	delta           float64
	lo, hi          float64
	hasInterval     bool
	triples         int
	stop            string
	between, within float64
	// mutator and cycles are lockstep's collector parts of an allocating
	// row in percent: new over base at equal collections, and new's
	// collections per op over base's; NaN unknown.
	mutator, cycles float64
}

// noComponents is an outcome without lockstep's fields, for verdict and
// Δ: a plain or rounds answer.
func noComponents(verdict string, delta float64) outcome {
	return outcome{verdict: verdict, delta: delta, lo: math.NaN(), hi: math.NaN(), between: math.NaN(), within: math.NaN(),
		mutator: math.NaN(), cycles: math.NaN()}
}

// env is every run's environment: this process's, with the workloads let
// run at a -benchtime duration.
func env() []string { return append(os.Environ(), "BENCHKIT_AGAINST_TABLE=1") }

// benchFlag selects workload w alone: -test.bench=^Benchmark<w>$.
func benchFlag(w string) string { return "-test.bench=^Benchmark" + w + "$" }

// measure runs one repetition of method on workload w, cand against base,
// in a process (or, plain, a pair of processes) of its own, and returns
// the outcome and the wall time.
func measure(c config, method, w, base, cand, dir string) (outcome, time.Duration, error) {
	if method == "plain" {
		return measurePlain(c, w, base, cand)
	}
	return measureAgainst(c, method, w, base, cand, dir)
}

// againstArgs are the flags of a -benchkit.against run of workload w with
// pairing: -benchkit.rounds in rounds pairing always, in lockstep only
// when the table's -rounds was given.
func againstArgs(c config, pairing, w string) []string {
	args := []string{benchFlag(w), "-test.benchtime=" + c.benchtime, "-benchkit.pairing=" + pairing}
	if pairing == "rounds" || c.roundsSet {
		args = append(args, "-benchkit.rounds="+strconv.Itoa(c.rounds))
	}
	return args
}

func measureAgainst(c config, pairing, w, base, cand, dir string) (outcome, time.Duration, error) {
	res, wall, err := harness.RunAgainst(cand, base, dir, againstArgs(c, pairing, w), env(), c.timeout)
	if err != nil {
		return outcome{}, wall, err
	}
	o, ok := res[w]
	switch {
	case !ok:
		return outcome{}, wall, fmt.Errorf("no Benchmark%s in the report", w)
	case o.Mode != pairing:
		return outcome{}, wall, fmt.Errorf("the report measured Benchmark%s in %s, not %s: %s", w, o.Mode, pairing, o.ModeNote)
	case math.IsNaN(o.Delta):
		return outcome{}, wall, fmt.Errorf("no estimate of Benchmark%s in the report (%s)", w, o.Verdict)
	}
	out := noComponents(o.Verdict, o.Delta)
	if o.HasCI { // else too few rounds or triples for an interval
		out.lo, out.hi, out.hasInterval = o.Lo, o.Hi, true
	}
	out.triples, out.stop, out.between, out.within = o.Triples, o.Stop, o.BetweenPct, o.WithinPct
	out.mutator, out.cycles = o.MutatorPct, o.CyclesPct
	return out, wall, nil
}

// plainArgs are the flags of a plain go test run of workload w: count
// runs of benchtime each, without benchkit's warm-up.
func plainArgs(w, benchtime string, count int) []string {
	return []string{"-test.run=^$", benchFlag(w), "-test.benchtime=" + benchtime, "-test.count=" + strconv.Itoa(count), "-benchkit.warmup=off"}
}

func measurePlain(c config, w, base, cand string) (outcome, time.Duration, error) {
	var samples [2][]float64
	var wall time.Duration
	for i, bin := range []string{base, cand} {
		out, t, err := harness.Run(bin, plainArgs(w, c.benchtime, c.count), env(), c.timeout)
		wall += t
		if err != nil {
			return outcome{}, wall, err
		}
		if samples[i], err = benchSamples(out, w); err != nil {
			return outcome{}, wall, err
		}
	}
	e := harness.ComparePlain(samples[0], samples[1])
	return noComponents(e.Verdict, e.Delta), wall, nil
}
