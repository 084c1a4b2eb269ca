package count

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
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

// measurement is one count of one workload in one build.
type measurement struct {
	workload, build string
	rep             int
	res             count.Result
}

// run builds the binaries, starts the busy loops, counts and prints the
// table.
func run(c config, stdout, stderr io.Writer) error {
	vg, err := count.Find()
	if err != nil {
		return err
	}
	machine := harness.MachineLine()
	dir, err := os.MkdirTemp("", "count-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
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
	ms := measure(c, vg, bins, hints, stderr)
	printTable(stdout, rows(ms, c.workloads, c.r))
	fmt.Fprintf(stdout, "\n%s; %d busy-loop processes while counting; %s\n%s\n", machine, c.busy, vg.Version, c.commandLine())
	return nil
}

// measure counts every workload of every build in each of c.r
// repetitions, the builds' order rotating between repetitions.
func measure(c config, vg count.Valgrind, bins map[string]string, hints map[string]float64, stderr io.Writer) []measurement {
	var ms []measurement
	lim := count.Limits{Budget: c.budget, Repeats: c.repeats}
	for rep := range c.r {
		for _, w := range c.workloads {
			for i := range builds {
				b := builds[(i+rep)%len(builds)]
				lim.NsPerOp = hints[b.name+"/"+w]
				res, err := count.Instructions(vg, count.Target{Binary: bins[b.name], Benchmark: "Benchmark" + w}, lim)
				if err != nil {
					fmt.Fprintf(stderr, "count: repetition %d, %s %s left out: %v\n", rep+1, w, b.name, err)
					continue
				}
				ms = append(ms, measurement{workload: w, build: b.name, rep: rep, res: res})
			}
		}
		fmt.Fprintf(stderr, "count: repetition %d of %d done\n", rep+1, c.r)
	}
	return ms
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
