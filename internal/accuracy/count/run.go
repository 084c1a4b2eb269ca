package count

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/count"
	"golang.org/x/perf/benchfmt"
)

// The workloads and the builds, in the table's order.
var (
	allWorkloads = []string{"Compute", "Alloc", "Map"}
	builds       = []build{{"base", "base", ""}, {"+1%", "plus1", "-tags=count_plus1"}, {"+5%", "plus5", "-tags=count_plus5"}}
)

// build is one way of building the workloads' package: its name in the
// table, its binary's name and its go test build flags.
type build struct{ name, file, flags string }

// measurement is one count of one workload in one build, the change
// from the base that count.Pair called (for the base, from a second
// count of it: A/A), and the verdict of -benchkit.against on the same
// build and workload in the same repetition ("" when none ran).
type measurement struct {
	workload, build string
	rep             int
	res             count.Result
	change          count.Change
	against         string
}

// run builds the binaries, starts the busy loops, counts and prints the
// table.
func run(c config, stdout, stderr io.Writer) error {
	vg, err := count.Find()
	if err != nil {
		return err
	}
	machine := harness.MachineLine()
	dir, remove, err := child.TempDir("count-") // removed on SIGINT too
	if err != nil {
		return err
	}
	defer remove()
	bins := map[string]string{}
	for _, b := range builds {
		var flags []string
		if b.flags != "" {
			flags = append(flags, b.flags)
		}
		if bins[b.name], err = harness.BuildAs(c.pkg, dir, b.file, flags...); err != nil {
			return err
		}
	}
	_, stop, err := harness.StartBusy(c.busy, 24*time.Hour)
	if err != nil {
		return err
	}
	defer stop()
	hints, err := nativeHints(c, bins)
	if err != nil {
		return err
	}
	ms := measure(c, vg, bins, hints, dir, stderr)
	printTable(stdout, rows(ms, c.workloads))
	fmt.Fprintf(stdout, "\n%s; %d busy-loop processes while counting; %s\n%s\n", machine, c.busy, vg.Version, c.commandLine())
	return nil
}

// measure counts every workload of every build in each of c.r
// repetitions and compares each build with the base as -benchkit.against
// does (count.Pair): first the base against a second count of itself
// (A/A), then +1% and +5%, in an order that rotates between
// repetitions, each against the A/A pair's first base count, continued
// where its pair needs more processes.
func measure(c config, vg count.Valgrind, bins map[string]string, hints map[string]float64, dir string, stderr io.Writer) []measurement {
	var ms []measurement
	countFn := func(t count.Target, lim count.Limits) (count.Result, error) { return count.Instructions(vg, t, lim) }
	for rep := range c.r {
		verdicts := againstVerdicts(c, bins, dir, rep, stderr)
		for _, w := range c.workloads {
			target := func(b build) count.Target { return count.Target{Binary: bins[b.name], Benchmark: "Benchmark" + w} }
			limits := func(b build) count.Limits {
				return count.Limits{Budget: c.budget, Repeats: c.repeats, NsPerOp: hints[b.name+"/"+w]}
			}
			aa := count.Pair(countFn, target(builds[0]), target(builds[0]), limits(builds[0]), limits(builds[0]))
			if err := errors.Join(aa.BaseErr, aa.NewErr); err != nil {
				fmt.Fprintf(stderr, "count: repetition %d, %s left out: %v\n", rep+1, w, err)
				continue
			}
			ms = append(ms, measurement{workload: w, build: builds[0].name, rep: rep, res: aa.New, change: aa.Change, against: verdicts[builds[0].name+"/"+w]})
			others := builds[1:]
			for i := range others {
				b := others[(i+rep)%len(others)]
				baseLim := limits(builds[0])
				baseLim.From = &aa.Base
				p := count.Pair(countFn, target(builds[0]), target(b), baseLim, limits(b))
				if err := errors.Join(p.BaseErr, p.NewErr); err != nil {
					fmt.Fprintf(stderr, "count: repetition %d, %s %s left out: %v\n", rep+1, w, b.name, err)
					continue
				}
				ms = append(ms, measurement{workload: w, build: b.name, rep: rep, res: p.New, change: p.Change, against: verdicts[b.name+"/"+w]})
			}
		}
		fmt.Fprintf(stderr, "count: repetition %d of %d done\n", rep+1, c.r)
	}
	return ms
}

// againstVerdicts runs every build against the base with
// -benchkit.against (the base against itself: A/A) on the table's
// workloads and returns the time verdicts, keyed "<build>/<workload>";
// none with -against-benchtime=off. A run that fails is said on stderr
// and left out.
func againstVerdicts(c config, bins map[string]string, dir string, rep int, stderr io.Writer) map[string]string {
	out := map[string]string{}
	if c.againstBT == "off" {
		return out
	}
	pattern := "^Benchmark(" + strings.Join(c.workloads, "|") + ")$"
	for _, b := range builds {
		res, _, err := harness.RunAgainst(bins[b.name], bins["base"], dir, []string{"-test.bench=" + pattern, "-test.benchtime=" + c.againstBT}, nil, c.timeout)
		if err != nil {
			fmt.Fprintf(stderr, "count: repetition %d, -benchkit.against of %s left out: %v\n", rep+1, b.name, err)
			continue
		}
		for w, o := range res {
			out[b.name+"/"+w] = o.Verdict
		}
	}
	return out
}

// nativeHints returns each build's native ns/op of each workload, keyed
// "<build>/<workload>", from one run of its binary with the busy loops
// running.
func nativeHints(c config, bins map[string]string) (map[string]float64, error) {
	hints := map[string]float64{}
	for _, b := range builds {
		out, _, err := harness.Run(bins[b.name], []string{"-test.run=^$", "-test.bench=.", "-test.benchtime=200ms", "-test.cpu=1",
			"-benchkit.warmup=off", "-benchkit.report=off"}, nil, c.timeout)
		if err != nil {
			return nil, err
		}
		r := benchfmt.NewReader(bytes.NewReader(out), b.name)
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				if v, ok := res.Value("sec/op"); ok {
					hints[b.name+"/"+res.Name.String()] = v * 1e9
				}
			}
		}
	}
	return hints, nil
}
