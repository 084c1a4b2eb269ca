package against

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// A log's repetitions may span several versions of the code (code
// hashes): a change to benchkit that moves no number should not cost the
// hours of a table. When the code differs from every logged repetition's,
// the table first measures one check repetition and compares it with the
// logged ones (see [checkProblems]); only if it agrees is it kept, and the
// table goes on.

// checkProblems compares the check repetition check with the logged
// outcomes in cells (before check is added to them) and returns what
// disagrees, one line per cell and workload, and what the check could not
// measure. A cell and workload with no logged outcome is not compared.
// The check agrees on a cell and workload when
//
//   - its Δ lies within tolerance (see [tolerance]) of the logged
//     repetitions' median Δ, and
//   - its verdict is one that some logged repetition gave there (a
//     flagged A/A where the log never flagged one disagrees).
func checkProblems(c config, cells []*cell, check logged) (disagree, missing []string) {
	for _, cl := range cells {
		i := slices.IndexFunc(check.Cells, func(lc loggedRep) bool { return lc.Scenario == cl.scenario && lc.Method == cl.method })
		for _, w := range c.workloads {
			if !scenarioNamed(cl.scenario).measures(w) || len(cl.outs[w]) == 0 {
				continue
			}
			name := fmt.Sprintf("%s %s %s", w, cl.scenario, cl.method)
			o, ok := outcome{}, false
			if i >= 0 {
				o, ok = check.Cells[i].Outcomes[w]
			}
			if !ok {
				missing = append(missing, name)
				continue
			}
			if p := compareCheck(cl.outs[w], o); p != "" {
				disagree = append(disagree, name+": "+p)
			}
		}
	}
	return disagree, missing
}

// compareCheck compares the check's outcome o with the logged outcomes
// outs of one cell and workload and says how it disagrees, "" when it
// agrees (see [checkProblems]).
func compareCheck(outs []outcome, o outcome) string {
	var deltas []float64
	verdicts := map[string]int{}
	for _, l := range outs {
		deltas = append(deltas, l.delta)
		verdicts[l.verdict]++
	}
	var problems []string
	med, tol := harness.MedianOrNaN(deltas), tolerance(outs)
	if !(math.Abs(o.delta-med) <= tol) {
		problems = append(problems, fmt.Sprintf("Δ %s is %.2f points from the logged median %s (at most %.2f allowed)",
			signed(o.delta), math.Abs(o.delta-med), signed(med), tol))
	}
	if verdicts[o.verdict] == 0 {
		problems = append(problems, fmt.Sprintf("the verdict %s, which none of the %d logged repetitions gave (%s)",
			o.verdict, len(outs), tallyVerdicts(verdicts)))
	}
	return strings.Join(problems, "; ")
}

// tolerance is how far, in points, a check's Δ may lie from the logged
// median Δ of outs: the largest of 3 × the interquartile range of the
// logged Δs (type 7 quantiles), their median interval width (when they
// have intervals) and 1 point.
func tolerance(outs []outcome) float64 {
	var deltas, widths []float64
	for _, o := range outs {
		deltas = appendKnown(deltas, o.delta)
		if o.hasInterval {
			widths = append(widths, o.hi-o.lo)
		}
	}
	tol := 1.0
	q1, ok1 := stats.Quantile(deltas, 0.25)
	q3, ok3 := stats.Quantile(deltas, 0.75)
	if ok1 && ok3 {
		tol = max(tol, 3*(q3-q1))
	}
	if w, ok := stats.Median(widths); ok {
		tol = max(tol, w)
	}
	return tol
}

// tallyVerdicts formats verdict counts, sorted by verdict: "same 12,
// undecided 8".
func tallyVerdicts(n map[string]int) string {
	var parts []string
	for _, v := range slices.Sorted(maps.Keys(n)) {
		parts = append(parts, fmt.Sprintf("%s %d", v, n[v]))
	}
	return strings.Join(parts, ", ")
}
