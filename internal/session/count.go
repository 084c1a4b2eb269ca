package session

import (
	"errors"
	"fmt"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// counter is what the count mode (-benchkit.count=instructions) calls:
// package count's Find and Instructions, and child.Self for the binary.
type counter struct {
	find         func() (count.Valgrind, error)
	instructions func(count.Valgrind, count.Target, count.Limits) (count.Result, error)
	self         func() (string, error)
}

// liveCounter counts with valgrind, in processes of this binary.
var liveCounter = counter{find: count.Find, instructions: count.Instructions, self: child.Self}

// countTarget is one benchmark to count: its name without the -procs
// suffix (what the processes select), the registry keys it was recorded
// under (one per -cpu value), and its native ns/op, the hint that sizes
// N2.
type countTarget struct {
	name    string
	keys    []string
	nsPerOp float64
}

// countTargets returns the benchmarks of benches that Track or Loop
// recorded runs of, once per name whatever the -cpu values, in the order
// they were first recorded.
func countTargets(benches []registry.Bench) []countTarget {
	var out []countTarget
	index := map[string]int{}
	for _, b := range benches {
		if len(b.Runs) == 0 {
			continue
		}
		name := benchname.Trim(b.Name, b.Runs[len(b.Runs)-1].Procs)
		i, seen := index[name]
		if !seen {
			i = len(out)
			index[name] = i
			out = append(out, countTarget{name: name, nsPerOp: medianNs(b.Runs)})
		}
		out[i].keys = append(out[i].keys, b.Name)
	}
	return out
}

// medianNs is the median ns/op of runs, 0 when none is known.
func medianNs(runs []registry.Run) float64 {
	ns := make([]float64, 0, len(runs))
	for _, r := range runs {
		if r.NsPerOp > 0 {
			ns = append(ns, r.NsPerOp)
		}
	}
	m, _ := stats.Median(ns)
	return m
}

// reasonCompareOnly is the count.Reason recorded for a benchmark that
// called control.Compare and neither Track nor Loop.
const reasonCompareOnly count.Reason = "compare-only"

// compareOnlyMessage says why such a benchmark is not counted, once for
// all of them in the report's findings.
const compareOnlyMessage = "control.Compare alone records no run to count: -benchkit.count=instructions counts the benchmarks " +
	"that call benchkit.Track or benchkit.Loop"

// compareOnly returns the names of the benchmarks of benches that
// recorded comparisons (control.Compare) and no run (Track or Loop).
func compareOnly(benches []registry.Bench) []string {
	var out []string
	for _, b := range benches {
		if len(b.Runs) == 0 && (len(b.Comparisons) > 0 || b.DroppedComparisons > 0) {
			out = append(out, b.Name)
		}
	}
	return out
}

// countTracked counts the instructions per op of every benchmark Track
// or Loop recorded in d.reg, one after another, each in processes of
// this test binary under valgrind, and returns each count (or why it
// failed) under every key of the benchmark; a benchmark that only called
// control.Compare is not counted, and says why. It says on stderr what
// it is doing, since each benchmark takes seconds.
func countTracked(d Deps) map[string]count.Result {
	counts := map[string]count.Result{}
	benches := d.reg.Benchmarks()
	for _, name := range compareOnly(benches) {
		counts[name] = count.Outcome(count.Result{}, &count.Error{Reason: reasonCompareOnly, Message: compareOnlyMessage})
	}
	targets := countTargets(benches)
	if len(targets) == 0 {
		return counts
	}
	vg, bin, err := countSetup(d.counter)
	if err != nil {
		for _, t := range targets {
			recordCount(counts, t, count.Result{}, err)
		}
		return counts
	}
	fmt.Fprintf(d.stderr, "benchkit: counting the instructions per op of %s under %s, one at a time (seconds each; docs/counts.md)\n",
		textfmt.Plural(len(targets), "benchmark"), vg.Version)
	args := count.Args(d.fs)
	for _, t := range targets {
		res, err := d.counter.instructions(vg, count.Target{Binary: bin, Benchmark: t.name, Args: args}, count.Limits{NsPerOp: t.nsPerOp})
		recordCount(counts, t, res, err)
	}
	return counts
}

// forAgainst is the counter of -benchkit.against: valgrind is found
// once, and when it cannot be, every count says why.
func (c counter) forAgainst() count.CountFunc {
	var vg count.Valgrind
	err := errors.New("count: no instruction counter in this session")
	if c.find != nil && c.instructions != nil {
		vg, err = c.find()
	}
	return func(t count.Target, lim count.Limits) (count.Result, error) {
		if err != nil {
			return count.Result{}, err
		}
		return c.instructions(vg, t, lim)
	}
}

// countSetup finds valgrind and this binary.
func countSetup(c counter) (count.Valgrind, string, error) {
	if c.find == nil || c.instructions == nil || c.self == nil {
		return count.Valgrind{}, "", errors.New("count: no instruction counter in this session")
	}
	vg, err := c.find()
	if err != nil {
		return vg, "", err
	}
	bin, err := c.self()
	if err != nil {
		return vg, "", &count.Error{Reason: count.ReasonFailed, Message: "cannot run this test binary again to count it: " + err.Error(), Err: err}
	}
	return vg, bin, nil
}

// recordCount puts t's count res, or err, under each of t's keys.
func recordCount(counts map[string]count.Result, t countTarget, res count.Result, err error) {
	c := count.Outcome(res, err)
	for _, k := range t.keys {
		counts[k] = c
	}
}
