package signals

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/report"
)

// hasFlag reports whether r carries a flag of kind k.
func hasFlag(r report.JSONBenchmark, k string) bool {
	return slices.ContainsFunc(r.Flags, func(f report.JSONFlag) bool { return f.Kind == k })
}

// proc is one kind of process a repetition runs.
type proc struct {
	name string // for messages
	bin  string
	args []string
	json string // the path of its JSON report
}

// procs returns the three processes of a repetition, JSON reports written
// under dir.
func (c config) procs(signalsBin, hogBin, dir string, rep int) []proc {
	j := func(what string) string { return filepath.Join(dir, fmt.Sprintf("%s-%d.json", what, rep)) }
	return []proc{
		{"steady", signalsBin, []string{"-test.run=^$", "-test.bench=^BenchmarkSteady$", "-test.count=1", "-test.benchtime=" + c.benchtime}, j("steady")},
		{"tiny", signalsBin, []string{"-test.run=^$", "-test.bench=^BenchmarkTiny$", "-test.count=1", "-test.benchtime=" + c.tinyBT}, j("tiny")},
		{"hog", hogBin, []string{"-test.run=^$", "-test.bench=^BenchmarkMakeBuffer_Correct$", "-test.count=1", "-test.benchtime=" + c.benchtime}, j("hog")},
	}
}

// runProc runs p and returns its report's rows. The environment sets
// BENCHKIT_SIGNALS=1 so that the signals workloads measure.
func runProc(p proc, timeout time.Duration) ([]report.JSONBenchmark, error) {
	env := append(os.Environ(), "BENCHKIT_SIGNALS=1")
	rep, _, _, err := harness.RunReport(p.bin, p.json, p.args, env, timeout)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	return rep.Benchmarks, nil
}
