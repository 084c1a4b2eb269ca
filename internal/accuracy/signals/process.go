package signals

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/report"
)

// row is what the table reads of one benchmark's row in a JSON report.
type row struct {
	Display         string    `json:"display"`
	Source          string    `json:"sample_source"`
	Samples         []float64 `json:"samples_ns_per_op"`
	MedianNs        *float64  `json:"median_ns_per_op"`
	CVPct           *float64  `json:"cv_pct"`
	CIPct           *float64  `json:"median_ci_pct"`
	Grade           string    `json:"grade"`
	WaitPct         *float64  `json:"wait_pct"`
	RunsNeeded      *int      `json:"runs_needed"`
	RunsNeededBasis string    `json:"runs_needed_basis"`
	RunsNeededHi    *int      `json:"runs_needed_hi"`
	Regimes         *struct {
		Method string `json:"method"`
	} `json:"regimes"`
	ColdStart *float64 `json:"cold_start_ratio"`
	Drift     *struct {
		ChangePct float64 `json:"change_pct"`
	} `json:"drift"`
	Flags []struct {
		Kind string `json:"kind"`
	} `json:"flags"`
}

// hasFlag reports whether r carries a flag of kind k.
func (r row) hasFlag(k string) bool {
	for _, f := range r.Flags {
		if f.Kind == k {
			return true
		}
	}
	return false
}

// proc is one kind of process a repetition runs.
type proc struct {
	name string // for messages
	bin  string
	args []string
}

// procs returns the three processes of a repetition, JSON reports written
// under dir.
func (c config) procs(signalsBin, hogBin, dir string, rep int) []proc {
	j := func(what string) string {
		return "-benchkit.json=" + filepath.Join(dir, fmt.Sprintf("%s-%d.json", what, rep))
	}
	return []proc{
		{"steady", signalsBin, []string{"-test.run=^$", "-test.bench=^BenchmarkSteady$", "-test.count=1", "-test.benchtime=" + c.benchtime, j("steady")}},
		{"tiny", signalsBin, []string{"-test.run=^$", "-test.bench=^BenchmarkTiny$", "-test.count=1", "-test.benchtime=" + c.tinyBT, j("tiny")}},
		{"hog", hogBin, []string{"-test.run=^$", "-test.bench=^BenchmarkMakeBuffer_Correct$", "-test.count=1", "-test.benchtime=" + c.benchtime, j("hog")}},
	}
}

// runProc runs p and returns its report's rows. The environment sets
// BENCHKIT_SIGNALS=1 so that the signals workloads measure.
func runProc(p proc, timeout time.Duration) ([]row, time.Duration, error) {
	env := append(os.Environ(), "BENCHKIT_SIGNALS=1")
	if _, wall, err := harness.Run(p.bin, p.args, env, timeout); err != nil {
		return nil, wall, err
	}
	path := strings.TrimPrefix(p.args[len(p.args)-1], "-benchkit.json=")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: reading its JSON report: %v", p.name, err)
	}
	var rep struct {
		Schema     string `json:"schema"`
		Benchmarks []row  `json:"benchmarks"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, 0, fmt.Errorf("%s: %s: %v", p.name, path, err)
	}
	if rep.Schema != report.Schema {
		return nil, 0, fmt.Errorf("%s: %s: schema %q, want %s", p.name, path, rep.Schema, report.Schema)
	}
	return rep.Benchmarks, 0, nil
}
