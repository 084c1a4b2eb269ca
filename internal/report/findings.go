package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// findingsOf returns the long-form findings of r: its flags' messages,
// then the regimes, outliers and grade explained with their fixes;
// virtualised as for [gradeFinding]. Contention, a drift and the grade
// carry their group ([finding]); the rest are r's own.
func findingsOf(r Row, virtualised bool) []finding {
	var out []string
	for _, f := range r.Flags {
		if !f.Parent { // all parents share one line: parentSummary
			out = append(out, flagFinding(f, r.Name))
		}
	}
	if stale := staleRuns(r.Runs); stale != "" {
		out = append(out, stale)
	}
	unit := "runs"
	if r.Source == SourceBatches {
		unit = "batches"
	}
	if g := r.Regimes; g != nil {
		mean, _ := stats.Mean(r.Samples)
		how := fmt.Sprintf("separation %.1f", g.Separation)
		if r.Shift {
			how = fmt.Sprintf("a level shift in %s order (block test p %.3g), robust separation %.1f",
				strings.TrimSuffix(strings.TrimSuffix(unit, "es"), "s"), g.OrderP, g.Separation)
		}
		out = append(out, fmt.Sprintf(
			"two regimes in the %s: %d around %s (%s %s) and %d around %s (%s %s), %s; "+
				"the mean %s sits between them, and no run count removes that bias (Lehr's rule does not apply); "+
				"find what changed between them (other load, CPU frequency, core placement) and measure again on a quiet machine",
			unit, g.Low.Size, fmtNs(g.Low.Center), unit, segments(g.Low.Segments),
			g.High.Size, fmtNs(g.High.Center), unit, segments(g.High.Segments), how, fmtNs(mean)))
	}
	if o := r.Outliers; o != nil && o.Count() > 0 && r.Regimes == nil {
		out = append(out, fmt.Sprintf(
			"%s beyond Tukey's fences (%d high, %d low; %d severe), IQR %s; "+
				"outliers are kept in the median and CV: look for interference at those points of the plot",
			textfmt.Plural(o.Count(), "outlier "+strings.TrimSuffix(strings.TrimSuffix(unit, "es"), "s")), o.HighMild+o.HighSevere, o.LowMild+o.LowSevere, o.HighSevere+o.LowSevere, fmtNs(o.IQR)))
	}
	if st := r.HighStretch; st[1] > st[0] && r.Regimes == nil {
		slow, _ := stats.Median(r.Samples[st[0]:st[1]])
		rest, _ := stats.Median(append(slices.Clone(r.Samples[:st[0]]), r.Samples[st[1]:]...))
		out = append(out, fmt.Sprintf(
			"%d %s in a row above the upper fence (%s %s), median %s against %s for the rest: "+
				"the machine changed state for a stretch of the run (other load, frequency), not scattered spikes; "+
				"the median and CV mix two states: measure again when the machine is quiet",
			st[1]-st[0], unit, unit, segments([][2]int{st}), fmtNs(slow), fmtNs(rest)))
	}
	fs := make([]finding, 0, len(out)+3)
	for _, text := range out {
		fs = append(fs, finding{text: text})
	}
	fs = append(fs, causeFindings(r, unit)...)
	if g := gradeFinding(r, unit, virtualised); g != "" {
		fs = append(fs, finding{text: g, group: group{kind: kindGrade, causes: strings.Join(causeNames(r), " and ")}})
	}
	return fs
}

// trimSubject drops a leading "BenchmarkX: " from msg when it names the
// row's benchmark (the findings line already starts with its name).
func trimSubject(msg, name string) string {
	if !strings.HasPrefix(msg, "Benchmark") {
		return msg
	}
	if i := strings.Index(msg, ": "); i > 0 && strings.HasPrefix(name, msg[:i]) {
		return msg[i+2:]
	}
	return msg
}

// staleRuns describes the runs testing measured at another GOMAXPROCS
// than the -cpu value it printed them under (registry.Run.StaleProcs), or
// returns "" when there are none.
func staleRuns(runs []registry.Run) string {
	var idx []string
	procs := 0
	for i, run := range runs {
		if run.StaleProcs > 0 {
			idx = append(idx, strconv.Itoa(i+1))
			procs = run.StaleProcs
		}
	}
	if len(idx) == 0 {
		return ""
	}
	return fmt.Sprintf("run %s measured by testing at GOMAXPROCS=%d, not this row's -cpu value "+
		"(golang/go#49980: a benchmark's first run precedes the -cpu setting); it is kept in the samples, as go test printed it",
		strings.Join(idx, ", "), procs)
}

// flagFinding is a flag's findings line: its kind, whether timing or
// certainty raised it, the allowance, and the detail (or the headline).
func flagFinding(f registry.Flag, name string) string {
	text := f.Detail
	if text == "" {
		text = f.Message
	}
	msg := trimSubject(strings.TrimPrefix(text, "benchkit: "), name)
	if f.Count > 1 {
		msg += fmt.Sprintf(" (raised by %d runs)", f.Count)
	}
	kind := string(f.Kind)
	if !f.Kind.Certain() {
		kind += " (from timing)"
	}
	if f.Allowed != "" {
		kind += " (allowed: " + f.Allowed + ")"
	}
	return kind + ": " + msg
}

// The explanations and fixes of the findings that a row shares with
// others (the summary lines repeat them once for all the rows).
const (
	contentionWhy = "(other processes competed for the cores); more runs average the noise but keep its bias"
	contentionFix = "Fix: stop other work on the machine (other builds and tests; go test -p 1), " +
		"or give the benchmark its own cores (taskset, a pinned container)"
	driftWhy = "a clock ramping up or throttling, or state that grows across iterations (a cache, a map, the heap)"
	driftFix = "Fix: warm up before measuring (-benchkit.warmup=2s), check that every iteration starts from the same state, " +
		"and compare only runs taken after the level settles"
	causeFix  = "fix the cause rather than adding runs"
	noCause   = "no contention, regimes or drift to blame"
	ownSpread = "the spread is the benchmark's own (allocation and GC, input-dependent work) or interference too short to see"
	hostNote  = "; or, under this hypervisor, the host slowing this guest, which neither wait% nor steal shows (see the virtualisation warning)"
)

// causeFindings returns the findings that name a cause of spread other
// than regimes (which findingsOf explains itself), each with its own fix:
// a cold first sample (r's own), contention for the CPUs and a drift
// (grouped). unit is "runs" or "batches".
func causeFindings(r Row, unit string) []finding {
	var out []finding
	one := singular(unit)
	if r.ColdStart > 0 {
		rest := r.Samples[1:]
		med := r.Samples[0] / r.ColdStart
		out = append(out, finding{text: fmt.Sprintf(
			"cold start: the first %s took %s per op, %.0f× the median of the other %d (%s): the first iteration paid for page faults, "+
				"lazy initialisation or cold caches, not the machine; the ±, grade, regimes and drift here leave it out, but testing's ns/op includes it. "+
				"Fix: run the work once before the loop (b.Loop does not time what comes before it) or build the lazily-initialised state in the benchmark's setup; "+
				"a longer -benchtime only dilutes it",
			one, fmtNs(r.Samples[0]), r.ColdStart, len(rest), fmtNs(med))})
	}
	if contended(r) {
		out = append(out, finding{group: group{kind: kindContention}, text: fmt.Sprintf(
			"contention: the process waited for a CPU %.1f%% of the run's wall time %s. %s", r.WaitPct, contentionWhy, contentionFix)})
	}
	if d := r.Drift; d != nil {
		dir := "slower"
		if d.ChangePct < 0 {
			dir = "faster"
		}
		out = append(out, finding{group: group{kind: kindDrift}, text: fmt.Sprintf(
			"drift: the level moved %+.1f%% (%s) through the %s, steadily (Mann–Kendall p %.2g over %d blocks, Sen's slope): %s. %s",
			d.ChangePct, dir, unit, d.P, d.Blocks, driftWhy, driftFix)})
	}
	return out
}

// gradeFinding explains a noisy or do-not-trust grade: what was graded,
// and either the causes found (each with its own finding and fix) or,
// when there is none, that the spread is the benchmark's own and how many
// runs resolve a change; under a hypervisor (virtualised), that the host
// may be slowing the guest unseen. "" for better grades.
func gradeFinding(r Row, unit string, virtualised bool) string {
	if r.Grade != GradeNoisy && r.Grade != GradeDoNotTrust {
		return ""
	}
	what := fmt.Sprintf("cv %.1f%% over %s", r.CVPct, unit)
	if r.GradeBasis == BasisBatchCI {
		what = fmt.Sprintf("the run's median is known to ±%.1f%% (95%%, 16 blocks of its batches; batch spread %.1f%%)", r.CIPct, r.CVPct)
	}
	if cs := causes(r); len(cs) > 0 {
		return fmt.Sprintf("%s: %s, caused by %s (see above); %s", what, r.Grade, strings.Join(cs, " and "), causeFix)
	}
	more := fmt.Sprintf("resolving a small change needs %s runs per side (Lehr's rule on the run-to-run cv)", runsNeededCell(r))
	if r.RunsNeededBasis == BasisBatchCI {
		more = "a longer -benchtime narrows the interval, and -count=10 measures the run-to-run cv that sizes a comparison"
	}
	return fmt.Sprintf("%s: %s; %s; %s: %s%s", what, r.Grade, more, noCause, ownSpread, hostOf(virtualised))
}

// hostOf is [hostNote] under a hypervisor (virtualised), else "".
func hostOf(virtualised bool) string {
	if virtualised {
		return hostNote
	}
	return ""
}

// contentionSummary is the one line for rows that share contention:
// how many, the range of their wait%, the worst three, and the
// explanation and fix once.
func contentionSummary(rows []Row) string {
	lo, hi, top := extremes(rows, func(r Row) float64 { return r.WaitPct })
	worst := named(top, func(r Row) string { return pctCell(r.WaitPct) + "%" })
	return fmt.Sprintf("contention in %d benchmarks (wait%% %s–%s; worst: %s): their processes waited for a CPU that share of the run's wall time %s. %s",
		len(rows), pctCell(lo), pctCell(hi), worst, contentionWhy, contentionFix)
}

// driftSummary is the one line for rows that share a drift: how many, the
// range of the change, the three largest, and the explanation and fix
// once.
func driftSummary(rows []Row) string {
	change := func(r Row) float64 { return r.Drift.ChangePct }
	lo, hi, top := extremes(rows, change)
	largest := named(top, func(r Row) string { return fmt.Sprintf("%+.1f%%", change(r)) })
	return fmt.Sprintf("drift in %d benchmarks (the level moved %+.1f%% to %+.1f%% through the samples, steadily: Mann–Kendall, Sen's slope; largest: %s): %s. %s",
		len(rows), lo, hi, largest, driftWhy, driftFix)
}

// gradeSummary is the one line for rows whose noisy or do-not-trust
// grades share their causes (names joined with " and ", "" for none):
// the causes, how many rows of each grade, a few of their names, and the
// advice once; virtualised as for [gradeFinding].
func gradeSummary(rows []Row, causes string, virtualised bool) string {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Display
	}
	who := fmt.Sprintf("in %d benchmarks (%s): %s", len(rows), gradeCounts(rows), listNames(names, 4))
	if causes != "" {
		return fmt.Sprintf("grade caused by %s (see above) %s; each one's cv%% and ±%% are in the table; %s", causes, who, causeFix)
	}
	return fmt.Sprintf("grade with %s %s; %s%s. The table's runs@ column has the runs per side that resolve a change "+
		"(over batches its low end: -count=10 measures the run-to-run cv that sizes a comparison)", noCause, who, ownSpread, hostOf(virtualised))
}

// gradeCounts says how many of rows have each poor grade, worst first:
// "20 do-not-trust, 8 noisy".
func gradeCounts(rows []Row) string {
	var parts []string
	for _, g := range []Grade{GradeDoNotTrust, GradeNoisy} {
		n := 0
		for _, r := range rows {
			if r.Grade == g {
				n++
			}
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, g))
		}
	}
	return strings.Join(parts, ", ")
}

// parentSummary is the one line for every row with a Parent flag (Track
// in a benchmark that calls b.Run), or "" when there is none: which
// parents, whose sub-benchmarks ran untracked and whose call Track
// already (a row named parent/…), and the recipe.
func parentSummary(rows []Row) string {
	untracked, tracked := parents(rows)
	n := len(untracked) + len(tracked)
	if n == 0 {
		return ""
	}
	var parts []string
	if len(untracked) > 0 {
		parts = append(parts, "the sub-benchmarks of "+listNames(untracked, 6)+" ran untracked")
	}
	if len(tracked) > 0 {
		parts = append(parts, "those of "+listNames(tracked, 6)+" call Track already, so the parent's call can go")
	}
	return fmt.Sprintf("misuse: Track at the top of a benchmark that calls b.Run records nothing, as testing measures only its sub-benchmarks; in %s here: %s. "+
		"Fix: call benchkit.Track(b) at the top of the function given to b.Run",
		textfmt.Plural(n, "benchmark"), strings.Join(parts, "; "))
}

// parents returns the rows with a Parent flag (Track in a benchmark that
// calls b.Run): those whose sub-benchmarks ran untracked, and those with
// a row named parent/… (their sub-benchmarks call Track already).
func parents(rows []Row) (untracked, tracked []string) {
	for _, r := range rows {
		if !slices.ContainsFunc(r.Flags, func(f registry.Flag) bool { return f.Parent }) {
			continue
		}
		if slices.ContainsFunc(rows, func(sub Row) bool { return strings.HasPrefix(sub.Name, r.Name+"/") }) {
			tracked = append(tracked, r.Display)
		} else {
			untracked = append(untracked, r.Display)
		}
	}
	return untracked, tracked
}
