package signals

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// deltaPct is the change the runs-needed columns are sized for (the
// report's default).
const deltaPct = 5.0

// grades are the counted grades, in column order.
var grades = []report.Grade{report.GradeExcellent, report.GradeAcceptable, report.GradeNoisy, report.GradeDoNotTrust}

// summary is one table row: a workload over its processes.
type summary struct {
	name                    string
	n                       int
	gradeNew, gradeOld      [4]int
	regimesNew, regimesOld  int
	drift, cold, eliminated int
	waitMed                 float64
	nsMed, runCV            float64
	printedMed              float64
	los, his                []int // printed runs-needed range per process without regimes
	oldMed, blockMed        float64
	truth                   int
	hasBatches              bool
}

// summarise computes the row of one workload from its processes' rows.
func summarise(name string, rs []report.JSONBenchmark) summary {
	s := summary{name: name, n: len(rs), truth: -1}
	var waits, meds, printed, old, block []float64
	for _, r := range rs {
		if i := slices.Index(grades, r.Grade); i >= 0 {
			s.gradeNew[i]++
		}
		if r.SampleSource == report.SourceBatches {
			s.hasBatches = true
			if r.CVPct != nil {
				if i := slices.Index(grades, report.GradeCV(*r.CVPct)); i >= 0 {
					s.gradeOld[i]++
				}
				if n, _ := stats.LehrRuns(*r.CVPct, deltaPct); n > 0 {
					old = append(old, float64(max(n, report.MinRunsForCI)))
				}
			}
			_, a := stats.TwoRegimes(r.Samples)
			_, b := stats.ShiftedBlock(r.Samples)
			if a || b {
				s.regimesOld++
			}
		}
		if r.Regimes != nil {
			s.regimesNew++
		}
		if r.Drift != nil {
			s.drift++
		}
		if r.ColdStartRatio != nil {
			s.cold++
		}
		if hasFlag(r, "eliminated") {
			s.eliminated++
		}
		if r.WaitPct != nil {
			waits = append(waits, *r.WaitPct)
		}
		if r.MedianNs != nil {
			meds = append(meds, *r.MedianNs)
		}
		if r.RunsNeeded != nil && r.Regimes == nil {
			lo, hi := *r.RunsNeeded, *r.RunsNeeded
			if r.RunsNeededHi != nil {
				hi = *r.RunsNeededHi
			}
			printed = append(printed, float64(lo))
			block = append(block, float64(hi))
			s.los, s.his = append(s.los, lo), append(s.his, hi)
		}
	}
	s.waitMed = harness.MedianOrNaN(waits)
	s.nsMed = harness.MedianOrNaN(meds)
	s.printedMed = harness.MedianOrNaN(printed)
	s.oldMed = harness.MedianOrNaN(old)
	s.blockMed = harness.MedianOrNaN(block)
	s.runCV = -1
	if cv, ok := stats.CV(meds); ok && len(meds) >= 2 {
		s.runCV = cv
		if n, _ := stats.LehrRuns(cv, deltaPct); n > 0 {
			s.truth = max(n, report.MinRunsForCI)
		} else if cv == 0 {
			s.truth = report.MinRunsForCI
		}
	}
	return s
}

// rank orders the rows: steady workloads, tiny ones, then the rest (the hog).
func rank(name string) int {
	switch {
	case strings.HasPrefix(name, "Steady/"):
		return 0
	case strings.HasPrefix(name, "Tiny/"):
		return 1
	}
	return 2
}

// printTable writes the markdown table of obs (display name → one row per
// process) and its footnote.
func printTable(w io.Writer, obs map[string][]report.JSONBenchmark) {
	names := make([]string, 0, len(obs))
	for n := range obs {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	fmt.Fprintln(w, "| workload | R | ns/op (median) | run-to-run CV (its grade) | grade E/A/N/D | before: grade of batch CV | regimes | before: regimes | drift | cold | eliminated | wait% | runs@5% printed lo–hi | before: Lehr on batch CV | runs@5% from run-to-run CV | hi / truth | truth within [lo/2, 2·hi] |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range names {
		s := summarise(n, obs[n])
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %d/%d | %s | %d/%d | %d/%d | %d/%d | %s | %s | %s | %s | %s | %s |\n",
			s.name, s.n, fmtNs(s.nsMed), runCVCell(s.runCV), counts(s.gradeNew), oldCell(s, counts(s.gradeOld)),
			s.regimesNew, s.n, oldCell(s, fmt.Sprintf("%d/%d", s.regimesOld, s.n)), s.drift, s.n, s.cold, s.n, s.eliminated, s.n,
			fmtNum(s.waitMed), printedCell(s), oldCell(s, fmtNum(s.oldMed)), truthCell(s.truth), ratioCell(s), withinCell(s))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "grade E/A/N/D: processes graded excellent/acceptable/noisy/do-not-trust (unknown left out); \"before\" columns recompute the report's earlier rules from the same JSON (seed 001's thresholds on the batch CV; TwoRegimes or ShiftedBlock on the batches without the sustained-level condition; Lehr's rule on the batch CV).")
	fmt.Fprintln(w, "runs@5% printed lo–hi: the medians over processes without a regime call of the range the report printed (lo from the run's standard error, hi from the CV of its 16 block medians); truth: ⌈16·(cv/5)²⌉, at least 6, with cv the CV of the R printed medians; the last column counts the processes whose printed range, widened by a factor 2 each way, holds the truth.")
}

// runCVCell is the run-to-run CV and the grade seed 001's thresholds
// give it: what the report's grade should agree with.
func runCVCell(cv float64) string {
	if cv < 0 || math.IsNaN(cv) {
		return "–"
	}
	return fmt.Sprintf("%.1f%% (%s)", cv, report.GradeCV(cv))
}

func counts(c [4]int) string {
	return fmt.Sprintf("%d/%d/%d/%d", c[0], c[1], c[2], c[3])
}

// oldCell is v for rows measured from batches, "–" otherwise.
func oldCell(s summary, v string) string {
	if !s.hasBatches {
		return "–"
	}
	return v
}

func printedCell(s summary) string {
	if math.IsNaN(s.printedMed) {
		return "–"
	}
	if s.printedMed == s.blockMed {
		return fmtNum(s.printedMed)
	}
	return fmtNum(s.printedMed) + "–" + fmtNum(s.blockMed)
}

// withinCell counts the processes whose printed range, widened by a
// factor 2 each way, holds the truth.
func withinCell(s summary) string {
	if len(s.los) == 0 || s.truth <= 0 {
		return "–"
	}
	k := 0
	for i := range s.los {
		if float64(s.truth) >= float64(s.los[i])/2 && float64(s.truth) <= 2*float64(s.his[i]) {
			k++
		}
	}
	return fmt.Sprintf("%d/%d", k, len(s.los))
}

func truthCell(n int) string {
	if n < 0 {
		return "–"
	}
	return strconv.Itoa(n)
}

func ratioCell(s summary) string {
	if math.IsNaN(s.printedMed) || s.truth <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", s.blockMed/float64(s.truth))
}

func fmtNum(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

func fmtNs(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "–"
	case ns >= 1e3:
		return fmt.Sprintf("%.3gµs", ns/1e3)
	}
	return fmt.Sprintf("%.3gns", ns)
}

func fmtPtr(x *float64) string {
	if x == nil {
		return "null"
	}
	return fmtNum(*x)
}

func fmtIntPtr(x *int) string {
	if x == nil {
		return "null"
	}
	return strconv.Itoa(*x)
}
