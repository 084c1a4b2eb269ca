package harness

import (
	"fmt"
	"github.com/benchkit/go-benchkit/internal/benchname"
	"math"
	"strings"

	"github.com/benchkit/go-benchkit/internal/report"
)

// Estimate is one candidate's comparison with the baseline; see the
// package doc for the units.
type Estimate struct {
	Delta   float64 // percent of the baseline; NaN when a report holds none
	Lo, Hi  float64 // interval ends in percent; meaningful only when HasCI
	HasCI   bool    // there is an interval (control.Compare, -benchkit.against)
	Verdict string  // faster, slower, same or undecided
}

// comparePrefix starts the name of every control.Compare call the tables
// read: BenchmarkCompare/work=<w>, possibly with further sub-benchmarks.
const comparePrefix = "BenchmarkCompare/work="

// CompareOutcomes returns the estimate of every candidate of every
// control.Compare call in rep's "comparisons" whose benchmark is
// BenchmarkCompare/work=<w>[/...][-procs], keyed by workload and
// candidate: WorkImpl{w, <candidate's name>}. The control's estimate (the
// noise floor) and comparisons under other benchmarks are left out. It
// fails when a candidate has no estimate (delta_pct null) or a workload
// has two candidates of one name. Callers keep the keys they want and
// check for missing ones.
func CompareOutcomes(rep report.JSONReport) (map[WorkImpl]Estimate, error) {
	outs := map[WorkImpl]Estimate{}
	for _, c := range rep.Comparisons {
		rest, ok := strings.CutPrefix(benchname.Trim(c.Benchmark, c.Procs), comparePrefix)
		if !ok {
			continue
		}
		work, _, _ := strings.Cut(rest, "/")
		for _, cand := range c.Candidates {
			k, e := WorkImpl{Work: work, Impl: cand.Name}, estimateOf(cand)
			if math.IsNaN(e.Delta) {
				return nil, fmt.Errorf("%s %s: no estimate in the report (%s: %s)", c.Benchmark, cand.Name, cand.Verdict, cand.Reason)
			}
			if _, dup := outs[k]; dup {
				return nil, fmt.Errorf("work=%s %s: compared twice in the report", work, cand.Name)
			}
			outs[k] = e
		}
	}
	return outs, nil
}
