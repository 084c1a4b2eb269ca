package session

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
		name := strings.TrimSuffix(b.Name, procsSuffix(b.Runs[len(b.Runs)-1].Procs))
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

// procsSuffix is the suffix testing adds to a name run at procs: "-P",
// or "" for 1 (or unknown).
func procsSuffix(procs int) string {
	if procs > 1 {
		return "-" + strconv.Itoa(procs)
	}
	return ""
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

// countDrop are the flags a count's processes do not get: the go test
// flags package count sets, the output format and the test timeout (each
// process has its deadline), the file-writing ones, whose files the
// processes would overwrite, and -benchkit.count itself.
var countDrop = []string{
	"benchkit.count",
	"test.run", "test.bench", "test.list", "test.skip", "test.count", "test.benchtime", "test.cpu", "test.benchmem",
	"test.v", "test.testlogfile", "test.outputdir", "test.timeout",
	"test.cpuprofile", "test.memprofile", "test.blockprofile", "test.mutexprofile", "test.trace", "test.coverprofile",
}

// countArgs returns every flag set on fs but countDrop's, as
// "-name=value": the user's -test.short and the package's own flags
// reach the counted benchmark as they reached the measured one.
func countArgs(fs *flag.FlagSet) []string {
	var args []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(countDrop, f.Name) {
			args = append(args, "-"+f.Name+"="+f.Value.String())
		}
	})
	return args
}

// countTracked counts the instructions per op of every benchmark Track
// or Loop recorded in d.reg, one after another, each in processes of
// this test binary under valgrind, and records each count (or why it
// failed) under every key of the benchmark. It says on stderr what it is
// doing, since each benchmark takes seconds.
func countTracked(d Deps) {
	targets := countTargets(d.reg.Benchmarks())
	if len(targets) == 0 {
		return
	}
	vg, bin, err := countSetup(d.counter)
	if err != nil {
		for _, t := range targets {
			recordCount(d.reg, t, count.Result{}, err)
		}
		return
	}
	fmt.Fprintf(d.stderr, "benchkit: counting the instructions per op of %s under %s, one at a time (seconds each; docs/counts.md)\n",
		textfmt.Plural(len(targets), "benchmark"), vg.Version)
	args := countArgs(d.fs)
	for _, t := range targets {
		res, err := d.counter.instructions(vg, count.Target{Binary: bin, Benchmark: t.name, Args: args}, count.Limits{NsPerOp: t.nsPerOp})
		recordCount(d.reg, t, res, err)
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

// recordCount records t's count res, or err, under each of t's keys.
func recordCount(reg *registry.Registry, t countTarget, res count.Result, err error) {
	c := registry.InstrCount{
		PerOp: res.PerOp, N1: res.N1, N2: res.N2, Total1: res.Total1, Total2: res.Total2, ResolutionPct: res.ResolutionPct,
		Capped: res.Capped, Processes: len(res.Runs), Wall: res.Wall, Valgrind: res.Valgrind,
	}
	if err != nil {
		c.PerOp, c.Reason, c.Error = -1, string(count.ReasonFailed), err.Error()
		var ce *count.Error
		if errors.As(err, &ce) {
			c.Reason, c.Error, c.Output = string(ce.Reason), ce.Message, ce.Output
		}
	}
	for _, k := range t.keys {
		reg.SetCount(k, c)
	}
}
