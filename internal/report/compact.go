package report

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// compact writes the compact report: the header line, the benchmarks
// table without its legend, the warm-up's warnings and one line per
// finding that needs action ([compactFindings]), the comparisons with
// their verdicts, the cross-build comparison, and the failures. What it leaves out (the environment, the warm-up, the
// legends, the strip plots, the findings' explanations and the lesser
// findings) is in the full report, the JSON report and the HTML report.
func (p *printer) compact(in Input, a Analysis) {
	p.line(headerLine(in, p.width))
	if slices.ContainsFunc(a.Rows, Row.Shown) {
		p.benchmarkTable(a.Rows, in.Settings.delta())
	} else if in.Against == nil && len(a.Comparisons) == 0 {
		p.line("  " + noBenchmarks(a, false))
	}
	if wu := in.Warmup; wu != nil {
		for _, w := range wu.Warnings {
			p.line("  ⚠ " + w)
		}
	}
	for _, l := range compactFindings(a.Rows) {
		p.line("  ⚠ " + l)
	}
	for _, c := range uncountedFindings(a.Rows) {
		p.line("  ⚠ " + c.text)
		p.quote(c.output)
	}
	for _, c := range a.Comparisons {
		comparisonLines(p, c, false)
	}
	p.compactAgainst(in.Against)
	if in.Dropped > 0 {
		p.line("  " + droppedLine(in.Dropped))
	}
	for _, f := range a.Failures {
		p.line("  ✗ " + f)
	}
}

// headerLine is the compact report's first line: the package, the shard
// of a sharded run (-benchkit.shard), the base of a cross-build
// comparison (the binary's path, or the revision and its merge base with
// HEAD), the Go version, the CPU and how many, the load unless a warning
// names it, and the environment's warnings in a few words, worst first.
// A fact not known is left out. When the line would be wider than cols
// (> 0), the warnings after the worst are left out from the last, and
// counted ("+2 more"); then a base binary's path is cut to its file name
// (the failures and the full report name it whole), and then the CPU's
// name is left out. The full report, the JSON and the HTML report have
// all of it.
func headerLine(in Input, cols int) string {
	line := headerWith(in, len(in.Warnings), 0)
	for shown := len(in.Warnings) - 1; shown >= 1 && cols > 0 && width(line) > cols; shown-- {
		line = headerWith(in, shown, 0)
	}
	for cut := 1; cut <= 2 && cols > 0 && width(line) > cols; cut++ {
		line = headerWith(in, min(len(in.Warnings), 1), cut)
	}
	return line
}

// headerWith is [headerLine] with the first shown warnings, the others
// counted; cut 1 names a base binary by its file name alone, cut 2 also
// leaves the CPU's name out.
func headerWith(in Input, shown, cut int) string {
	facts := map[string]string{}
	for _, f := range in.Facts {
		if f.Value != env.Unknown {
			facts[f.Name] = f.Value
		}
	}
	var parts []string
	if in.Package != "" {
		parts = append(parts, in.Package)
	}
	if sh := in.Settings.Shard; sh.Set() {
		parts = append(parts, "shard "+sh.String())
	}
	if a := in.Against; a != nil {
		base := "against " + a.BaseName()
		switch r := a.BaseRev; {
		case r != nil && r.Commit != "":
			base += " (merge base " + r.ShortCommit() + ")"
		case r == nil && cut >= 1:
			base = "against " + filepath.Base(a.Base.Path)
		}
		parts = append(parts, base)
	}
	if goVersion, _, _ := strings.Cut(facts["go"], " "); goVersion != "" {
		parts = append(parts, goVersion)
	}
	if cpu := facts["cpu"]; cpu != "" && cut < 2 {
		parts = append(parts, cpu)
	}
	if n := facts["cpus"]; n != "" {
		parts = append(parts, n+" CPUs")
	}
	if load, _, _ := strings.Cut(facts["load"], " "); load != "" && !hasWarning(in.Warnings, "load") {
		parts = append(parts, "load "+load)
	}
	if len(parts) == 0 && len(in.Warnings) == 0 {
		return "benchkit report"
	}
	if shown > 0 {
		heads := make([]string, shown)
		for i, w := range in.Warnings[:shown] {
			heads[i] = w.Headline()
		}
		warn := "⚠ " + strings.Join(heads, ", ")
		if more := len(in.Warnings) - shown; more > 0 {
			warn += fmt.Sprintf(" (+%d more)", more)
		}
		parts = append(parts, warn)
	}
	return strings.Join(parts, " · ")
}

// compactFindings are the compact report's findings, one line each:
// the parents that call Track and b.Run, each row's flags (those not
// allowed), runs at a stale GOMAXPROCS, regimes, high stretch and cold
// start, then one line for all
// the rows under contention, one for those that drifted, one for the
// poor grades no cause explains and one for the rows with no spread.
// The reasons a count failed follow them, with the failed process's
// output ([uncountedFindings]). Outliers and the grades a cause
// explains are in the full report.
func compactFindings(rows []Row) []string {
	out := parentsCompact(rows)
	for _, r := range rows {
		out = append(out, rowCompact(r)...)
	}
	for _, line := range []string{contentionCompact(rows), driftCompact(rows), gradeCompact(rows), noSpreadCompact(rows)} {
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// rowCompact are r's own compact findings: each flag not allowed (its
// one-line headline), the runs testing measured at another GOMAXPROCS,
// two regimes, a high stretch, a cold start.
func rowCompact(r Row) []string {
	var out []string
	for _, f := range r.Flags {
		if f.Parent || f.Allowed != "" {
			continue
		}
		out = append(out, r.Display+": "+flagHeadline(f, r.Name))
	}
	if stale := staleRuns(r.Runs); stale != "" {
		head, _, _ := strings.Cut(stale, " (")
		out = append(out, r.Display+": "+head+" (golang/go#49980). Fix: -count=2 or more, and read the runs after the first")
	}
	unit := "runs"
	if r.Source == SourceBatches {
		unit = "batches"
	}
	if g := r.Regimes; g != nil {
		out = append(out, fmt.Sprintf("%s: two regimes, %d %s around %s and %d around %s: the median mixes them; measure again on a quiet machine",
			r.Display, g.Low.Size, unit, fmtNs(g.Low.Center), g.High.Size, fmtNs(g.High.Center)))
	}
	if st := r.HighStretch; st[1] > st[0] && r.Regimes == nil {
		out = append(out, fmt.Sprintf("%s: %d %s in a row above the upper fence: the machine changed state for a stretch of the run; measure again when it is quiet",
			r.Display, st[1]-st[0], unit))
	}
	if r.ColdStart > 0 {
		out = append(out, fmt.Sprintf("%s: cold start, the first %s %.0f× the others' median: run the work once before the loop",
			r.Display, singular(unit), r.ColdStart))
	}
	return out
}

// flagHeadline is a flag's one-line form: its kind, marked when judged
// from timing and with how many runs raised it when more than one, and
// the headline logged under the benchmark without its "benchkit: " and
// the benchmark's name.
func flagHeadline(f registry.Flag, name string) string {
	var how []string
	if !f.Kind.Certain() {
		how = append(how, "from timing")
	}
	if f.Count > 1 {
		how = append(how, fmt.Sprintf("in %d runs", f.Count))
	}
	kind := string(f.Kind)
	if len(how) > 0 {
		kind += " (" + strings.Join(how, ", ") + ")"
	}
	return kind + ": " + trimSubject(strings.TrimPrefix(f.Message, "benchkit: "), name)
}

// parentsCompact are the lines for the parents that call Track and
// b.Run: one for those whose sub-benchmarks ran untracked, one for those
// whose sub-benchmarks call Track already; none when there is no parent.
func parentsCompact(rows []Row) []string {
	untracked, tracked := parents(rows)
	call := func(names []string) string {
		if len(names) == 1 {
			return names[0] + " calls Track and b.Run, and its"
		}
		return listNames(names, 6) + " call Track and b.Run, and their"
	}
	var out []string
	if len(untracked) > 0 {
		out = append(out, "misuse: "+call(untracked)+" sub-benchmarks ran untracked. Fix: call benchkit.Track(b) in the function given to b.Run")
	}
	if len(tracked) > 0 {
		out = append(out, "misuse: "+call(tracked)+" sub-benchmarks call Track already. Fix: remove the parent's call")
	}
	return out
}

// contentionCompact is the one line for every row under contention, ""
// when there is none: which one, or how many and the range of their
// wait% (the table has each one's), and the fix.
func contentionCompact(rows []Row) string {
	var hit []Row
	for _, r := range rows {
		if contended(r) {
			hit = append(hit, r)
		}
	}
	if len(hit) == 0 {
		return ""
	}
	const why = "other processes took the CPUs. Fix: stop other work (go test -p 1) or pin the benchmark (taskset)"
	if len(hit) == 1 {
		return fmt.Sprintf("%s: contention, wait%% %s: %s", hit[0].Display, pctCell(hit[0].WaitPct), why)
	}
	lo, hi, _ := extremes(hit, func(r Row) float64 { return r.WaitPct })
	return fmt.Sprintf("contention in %d benchmarks, wait%% %s–%s: %s", len(hit), pctCell(lo), pctCell(hi), why)
}

// driftCompact is the one line for every row whose level drifted, ""
// when there is none.
func driftCompact(rows []Row) string {
	var hit []Row
	for _, r := range rows {
		if r.Drift != nil {
			hit = append(hit, r)
		}
	}
	if len(hit) == 0 {
		return ""
	}
	_, _, top := extremes(hit, func(r Row) float64 { return r.Drift.ChangePct })
	return fmt.Sprintf("drift in %s (largest: %s): the level moved steadily through the samples. Fix: warm up longer (-benchkit.warmup=2s) and start every iteration from the same state",
		textfmt.Plural(len(hit), "benchmark"), named(top, func(r Row) string { return fmt.Sprintf("%+.1f%%", r.Drift.ChangePct) }))
}

// gradeCompact is the one line for the rows graded noisy or
// do-not-trust with no cause found (contention, regimes, drift), whose
// spread is their own; "" when there is none.
func gradeCompact(rows []Row) string {
	var names []string
	for _, r := range rows {
		if (r.Grade == GradeNoisy || r.Grade == GradeDoNotTrust) && len(causeNames(r)) == 0 {
			names = append(names, r.Display)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: noisy or worse with no contention, regimes or drift to blame: the spread is the benchmark's own; "+
		"runs@ gives the runs per side a change needs", listNames(names, 4))
}

// noSpreadCompact is the one line for the rows that ran once with fewer
// than 2 timed batches, "" when there is none.
func noSpreadCompact(rows []Row) string {
	var names []string
	for _, r := range rows {
		if r.Source == SourceNone && r.TotalRuns > 0 {
			names = append(names, r.Display)
		}
	}
	if len(names) == 0 {
		return ""
	}
	who := listNames(names, 4) + " (one run each)"
	if len(names) > 4 {
		who = fmt.Sprintf("%d benchmarks (one run each)", len(names))
	}
	return "no spread known for " + who + ": -count=10, or benchkit.Loop with a -benchtime above 1x, measures it"
}

// shortReason is the first clause of a verdict's reason, for a table
// cell: up to its first ": " when what precedes it is a clause of its
// own (four words or more; a label such as "only 3 rounds" keeps what
// follows it), and in any case up to its first "; ".
func shortReason(reason string) string {
	if head, _, ok := strings.Cut(reason, ": "); ok && len(strings.Fields(head)) >= 4 {
		reason = head
	}
	head, _, _ := strings.Cut(reason, "; ")
	return head
}

// compactOutcome is an estimate's verdict with the short form of its
// reason: a decided verdict alone (its reason restates the rule), unless
// it is smaller than eps and verdict.PlacementPct, a size code placement
// alone can make; an undecided one with the first clause of why
// ([shortReason]).
func compactOutcome(e verdict.Estimate, eps float64) string {
	v := string(e.Verdict)
	limit := min(eps, verdict.PlacementPct)
	switch {
	case (e.Verdict == verdict.Faster || e.Verdict == verdict.Slower) && math.Abs(e.DeltaPct) < limit:
		return fmt.Sprintf("%s (within ±%s%%: code placement alone can move this much)", v, fmtNum(limit))
	case e.Verdict != verdict.Faster && e.Verdict != verdict.Slower && e.Verdict != verdict.Same && e.Reason != "":
		return strings.TrimPrefix(v+": ", ": ") + shortReason(e.Reason)
	}
	return v
}

// compactComparisonRows are a comparison's rows ([comparisonRows]) with
// each verdict in its short form ([compactOutcome]), the control's after
// "noise floor".
func compactComparisonRows(c ComparisonRow, rows [][]string) [][]string {
	ests := append([]verdict.Estimate{c.Control}, c.Candidates...)
	for i, e := range ests[:min(len(ests), len(rows))] {
		out := compactOutcome(e, c.Negligible)
		if i == 0 {
			out = strings.TrimSuffix("noise floor, "+out, ", ")
		}
		rows[i][len(rows[i])-1] = out
	}
	return rows
}
