package against

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// truthLine is the truth of a table, a line of the -log file of its own
// kind: each build's cost per op, measured by plain go test in fresh
// processes at a long -benchtime, so that a resumed table reads it back
// rather than measuring it again.
type truthLine struct {
	Kind string `json:"kind"` // "truth"
	// Settings are the table's ([settingsOf]), as its repetitions' are;
	// Truth the flags that shaped this measurement ([truthSetting]).
	Settings string    `json:"settings"`
	Truth    string    `json:"truth"`
	Code     string    `json:"code"` // the base build's hash ([codeHash])
	Time     time.Time `json:"time"`
	Machine  string    `json:"machine"`
	// NsPerOp are each process's cost per op in nanoseconds, in the order
	// measured, by workload and build: "base", or the scenario's name.
	NsPerOp map[string]map[string][]float64 `json:"ns_per_op"`
}

// truthKind is the "kind" of a truth line.
const truthKind = "truth"

// truthSetting names the flags that shape the truth.
func truthSetting(c config) string {
	return fmt.Sprintf("-truth-benchtime %s -truth-procs %d", c.truthBenchtime, c.truthProcs)
}

// deltas are the truth Δs of t in percent: per workload, each scenario
// build's median cost per op over the base build's, minus 1. A build with
// no cost left out.
func (t truthLine) deltas() truths {
	out := truths{}
	for w, builds := range t.NsPerOp {
		base, ok := stats.Median(builds["base"])
		if !ok || base <= 0 {
			continue
		}
		out[w] = map[string]float64{}
		for b, xs := range builds {
			if m, ok := stats.Median(xs); ok && b != "base" {
				out[w][b] = (m/base - 1) * 100
			}
		}
	}
	return out
}

// truthBuilds are the scenarios whose truth t measures on workload w: the
// table's non-A/A scenarios that change w, by name.
func truthBuilds(c config, w string) []string {
	var out []string
	for _, n := range c.scenarios {
		if s := scenarioNamed(n); !s.aa() && s.measures(w) {
			out = append(out, n)
		}
	}
	return out
}

// needsTruth reports whether the table has a truth to measure: -truth-procs
// is not 0 and some scenario is not A/A.
func needsTruth(c config) bool {
	if c.truthProcs == 0 {
		return false
	}
	return slices.ContainsFunc(c.workloads, func(w string) bool { return len(truthBuilds(c, w)) > 0 })
}

// measureTruth measures the truth: c.truthProcs rounds, each running,
// per workload, the base build and then every scenario build that changes
// it (go test -run='^$' -bench='^Benchmark<w>$' -benchtime=<truth
// benchtime> -count=1, in a fresh process each), so that base and
// scenario builds alternate. bins are the builds by scenario.bin. It fails
// on the first run that fails.
func measureTruth(c config, bins map[string]string, stderr io.Writer) (map[string]map[string][]float64, error) {
	ns := map[string]map[string][]float64{}
	for i := range c.truthProcs {
		for _, w := range c.workloads {
			builds := truthBuilds(c, w)
			if len(builds) == 0 {
				continue
			}
			if ns[w] == nil {
				ns[w] = map[string][]float64{}
			}
			for _, b := range append([]string{"base"}, builds...) {
				bin := bins["base"]
				if b != "base" {
					bin = bins[scenarioNamed(b).bin]
				}
				x, err := truthRun(c, w, bin)
				if err != nil {
					return nil, fmt.Errorf("the truth of %s %s: %w", w, b, err)
				}
				ns[w][b] = append(ns[w][b], x)
			}
		}
		fmt.Fprintf(stderr, "against: truth, round %d of %d done\n", i+1, c.truthProcs)
	}
	return ns, nil
}

// truthRun runs workload w once in a fresh process of bin at the truth's
// -benchtime and returns its cost per op in nanoseconds, rounded to the
// picosecond (go test prints no finer; the rounding drops the float error
// of sec/op × 1e9).
func truthRun(c config, w, bin string) (float64, error) {
	out, _, err := harness.Run(bin, plainArgs(w, c.truthBenchtime, 1), env(), c.timeout)
	if err != nil {
		return 0, err
	}
	xs, err := benchSamples(out, w)
	if err != nil {
		return 0, err
	}
	return math.Round(xs[0]*1e12) / 1e3, nil
}

// describe says, for the table's footer, how t was measured and how much
// the base build's processes differed, per workload (their CV).
func (t truthLine) describe(workloads []string) string {
	var cvs []string
	for _, w := range workloads {
		if cv, ok := stats.CV(t.NsPerOp[w]["base"]); ok {
			cvs = append(cvs, fmt.Sprintf("%s %.1f%%", w, cv))
		}
	}
	spread := ""
	if len(cvs) > 0 {
		spread = "; the base build's processes differ by (CV) " + strings.Join(cvs, ", ")
	}
	return fmt.Sprintf("truth Δ: the median ns/op of each build over fresh plain go test processes (%s, base and scenario builds alternating), measured %s on code %s%s",
		t.Truth, t.Time.Format("2006-01-02 15:04 UTC"), t.Code, spread)
}
