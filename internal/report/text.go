package report

import (
	"bufio"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/count"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Prefix starts every line of the text report. benchfmt.Reader reads a
// line starting with "Benchmark" as a result, "Unit " as unit metadata and
// "key: value" (a lowercase key without spaces) as configuration; a line
// that starts with "benchkit" followed by a space is none of these,
// whatever follows, so the report never adds a result or a configuration
// key to `go test -bench` output. It also makes the report easy to grep.
const Prefix = "benchkit │ "

// PlotWidth is the most characters a strip plot takes; longer sample
// sequences are shown as the means of consecutive buckets.
const PlotWidth = 64

// Text writes the human-readable report of in to w. The compact report
// (the default) is a header line (the package, Go, the CPU, the load,
// the environment's warnings in a few words), one table row per
// benchmark, one line per finding that needs action, the control
// comparisons and the cross-build comparison with their verdicts, and the
// failures. The full one (in.Settings.Full) has a title, the environment
// with its warnings, the warm-up, the table with its legend, a strip
// plot per benchmark, every finding explained with its fix, the
// comparisons, the cross-build comparison with its binaries, legend and
// design notes, and the failures. Every line starts with [Prefix].
func Text(w io.Writer, in Input) error {
	return TextAnalysis(w, in, Analyze(in))
}

// TextAnalysis is [Text] with the analysis already computed.
func TextAnalysis(w io.Writer, in Input, a Analysis) error {
	return textWidth(w, in, a, LineWidth)
}

// textWidth is [TextAnalysis] with lines wrapped at cols runes after the
// prefix (not at all when cols ≤ 0).
func textWidth(w io.Writer, in Input, a Analysis, cols int) error {
	p := &printer{w: bufio.NewWriter(w), width: cols}
	if in.Settings.Full {
		p.full(in, a)
	} else {
		p.compact(in, a)
	}
	return p.flush()
}

// full writes the full report, section by section.
func (p *printer) full(in Input, a Analysis) {
	p.title(in, a)
	p.environment(in)
	p.warmup(in.Warmup, in.Against != nil)
	p.benchmarks(a, in.Settings.delta(), in.Against != nil)
	p.stripPlots(a.Rows)
	p.findings(a.Rows, hasWarning(in.Warnings, env.KeyVirtualisation))
	p.comparisons(a.Comparisons)
	p.against(in.Against)
	p.dropped(in.Dropped)
	p.failures(a.Failures)
}

// title writes the first line ([titleText]).
func (p *printer) title(in Input, a Analysis) { p.line(titleText(in, a)) }

// titleText is the full report's title: the counts of shown benchmarks,
// runs and comparisons, the cross-build comparison, and the package. The
// counts of this process are left out when it measured nothing and the
// cross-build comparison did.
func titleText(in Input, a Analysis) string {
	runs, shown := 0, 0
	for _, r := range a.Rows {
		runs += r.TotalRuns
		if r.Shown() {
			shown++
		}
	}
	title := "hygiene report"
	if in.Against == nil || shown > 0 || runs > 0 {
		title += fmt.Sprintf(" · %s · %s", textfmt.Plural(shown, "benchmark"), textfmt.Plural(runs, "run"))
	}
	if n := len(a.Comparisons); n > 0 {
		title += " · " + textfmt.Plural(n, "comparison")
	}
	if in.Against != nil {
		title += fmt.Sprintf(" · against %s: %s", in.Against.BaseName(), textfmt.Plural(len(in.Against.Benches), "benchmark"))
	}
	if in.Package != "" {
		title += " · " + in.Package
	}
	if sh := in.Settings.Shard; sh.Set() {
		title += " · shard " + sh.String()
	}
	return title
}

// environment writes the facts, aligned, then the warnings.
func (p *printer) environment(in Input) {
	p.section("environment")
	facts := make([][]string, len(in.Facts))
	for i, f := range in.Facts {
		facts[i] = []string{f.Name, f.Value}
	}
	p.table(facts)
	if len(in.Facts) == 0 {
		p.line("  unknown: no environment probe ran")
	}
	for _, wn := range in.Warnings {
		p.line("  ⚠ " + wn.Key + ": " + wn.Message)
	}
}

// warmup writes the warm-up's section ([warmupLines]).
func (p *printer) warmup(wu *Warmup, against bool) {
	p.section("warm-up")
	for _, l := range warmupLines(wu, against) {
		p.line("  " + l)
	}
}

// warmupLines are the warm-up's summary and its warnings (each after
// "⚠ "), or why none ran and how to turn it on; against says the
// benchmarks ran in -benchkit.against's processes.
func warmupLines(wu *Warmup, against bool) []string {
	switch {
	case wu == nil && against:
		return []string{"not run: under -benchkit.against every benchmark runs in fresh processes, all of which start equally cold"}
	case wu == nil:
		return []string{"off: the first benchmark paid for cold caches and clock ramp-up (turn it on with -benchkit.warmup=1s or BENCHKIT_WARMUP=1s)"}
	}
	lines := []string{wu.Summary}
	for _, wn := range wu.Warnings {
		lines = append(lines, "⚠ "+wn)
	}
	return lines
}

// benchmarks writes the table of shown rows and its legend, or why there
// is none; delta is the change in percent the runs@ column resolves, and
// against says the benchmarks ran in -benchkit.against's processes.
func (p *printer) benchmarks(a Analysis, delta float64, against bool) {
	p.section("benchmarks")
	if !slices.ContainsFunc(a.Rows, Row.Shown) {
		p.line("  " + noBenchmarks(a, against))
		return
	}
	p.benchmarkTable(a.Rows, delta)
	for _, l := range legendLines(delta, rowsCounted(a.Rows)) {
		p.line("  · " + l)
	}
}

// benchmarkTable writes the table of the shown rows, the rows that ran
// once folded into one line when there are many ([foldedRows]).
func (p *printer) benchmarkTable(rows []Row, delta float64) {
	counted := rowsCounted(rows)
	table := [][]string{benchmarkHeader(delta, counted)}
	folded := foldedRows(rows)
	for _, r := range rows {
		if !r.Shown() || folded[r.Display] {
			continue
		}
		table = append(table, benchmarkCells(r, counted))
	}
	p.table(table)
	if len(folded) > 0 {
		p.line("  " + foldedLine(rows, folded))
	}
}

// rowsCounted reports whether a shown row has an instruction count
// (-benchkit.count=instructions), which adds the instr/op column.
func rowsCounted(rows []Row) bool {
	return slices.ContainsFunc(rows, func(r Row) bool { return r.Shown() && r.Count != nil })
}

// noBenchmarks says why the benchmarks table is empty.
func noBenchmarks(a Analysis, against bool) string {
	switch {
	case against:
		return "none in this process: under -benchkit.against the benchmarks ran in child processes (the comparison is below)"
	case len(a.Comparisons) > 0:
		return "none tracked (the comparisons are below): call benchkit.Track(b) or benchkit.Loop(b, f) in a benchmark to see it here"
	}
	return "none recorded: call benchkit.Track(b) or benchkit.Loop(b, f) in a benchmark to see it here"
}

// benchmarkHeader is the benchmarks table's header row; counted adds the
// instr/op column before the flags.
func benchmarkHeader(delta float64, counted bool) []string {
	head := []string{"benchmark", "samples", "median/op", "±%", "cv%", "grade", "wait%", "runs@" + fmtNum(delta) + "%"}
	if counted {
		head = append(head, "instr/op")
	}
	return append(head, "flags")
}

// benchmarkCells is one row of the benchmarks table, in the columns of
// [benchmarkHeader].
func benchmarkCells(r Row, counted bool) []string {
	row := []string{
		r.Display, samplesCell(r), fmtNs(r.MedianNs), pctCell(r.CIPct), cvCell(r), string(r.Grade),
		pctCell(r.WaitPct), runsNeededCell(r),
	}
	if counted {
		row = append(row, instrCell(r.Count))
	}
	return append(row, dash(strings.Join(r.Tags(), ", ")))
}

// instrCell is the instr/op cell: the count, "n/a" when the benchmark
// could not be counted, "-" when it was not counted at all.
func instrCell(c *count.Result) string {
	switch {
	case c == nil:
		return "-"
	case !c.Counted():
		return "n/a"
	}
	return fmtInstr(c.PerOp)
}

// MaxOnceRows is the most rows of benchmarks that ran once, with nothing
// else known (no spread, no flag, no regime), that the benchmarks table
// lists one by one; beyond it they are folded into one line (a -count=1
// suite of hundreds of benchmarks would otherwise print hundreds of rows
// of "1 run … ? unknown ?"). The JSON report keeps every row.
const MaxOnceRows = 8

// foldedRows returns the display names of the rows the table folds, or
// nil when there are at most MaxOnceRows of them.
func foldedRows(rows []Row) map[string]bool {
	var once []string
	for _, r := range rows {
		if r.Shown() && r.Source == SourceNone && len(r.Flags) == 0 && r.Regimes == nil && r.Count == nil {
			once = append(once, r.Display)
		}
	}
	if len(once) <= MaxOnceRows {
		return nil
	}
	m := make(map[string]bool, len(once))
	for _, d := range once {
		m[d] = true
	}
	return m
}

// foldedLine summarises the folded rows: how many, the range of their
// ns/op, their median wait, and where each one's numbers are.
func foldedLine(rows []Row, folded map[string]bool) string {
	var ns, waits []float64
	for _, r := range rows {
		if !folded[r.Display] {
			continue
		}
		if r.MedianNs >= 0 {
			ns = append(ns, r.MedianNs)
		}
		if r.WaitPct >= 0 {
			waits = append(waits, r.WaitPct)
		}
	}
	line := fmt.Sprintf("+ %d benchmarks with one run each, folded", len(folded))
	if len(ns) > 0 {
		line += fmt.Sprintf(": ns/op %s … %s", fmtNs(slices.Min(ns)), fmtNs(slices.Max(ns)))
	}
	if m, ok := stats.Median(waits); ok {
		line += fmt.Sprintf(", median wait %s%%", pctCell(m))
	}
	return line + ", no spread from one run (their go test lines and the JSON report have the numbers; " +
		"-count=10, or benchkit.Loop with a -benchtime above 1x, gives a spread)"
}

// legendLines explain the benchmarks table's columns, one line each.
func legendLines(delta float64, counted bool) []string {
	out := []string{
		"samples: the runs' ns/op with 2 runs or more, else the batches benchkit.Loop timed in the one run",
		"±%: 95% interval of the median, half-width in percent: over runs as benchstat's (6 runs or more); over batches from 16 blocks of the run (this run's own uncertainty, not another process's)",
		"cv%: over runs the run-to-run cv (of -count runs, all in this process: what differs between processes is not in it); over batches (b) the spread of batches a few ms long within the run, not graded",
		"grade: of the run-to-run cv with 2 runs or more, else of ±%: <2% excellent, 2-5% acceptable, 5-10% noisy, >10% do-not-trust",
		"wait%: time the process's threads waited for a CPU, over the run's wall time (contention)",
		fmt.Sprintf("runs@%s%%: runs per side to resolve a %s%% change, ⌈16·(cv/Δ)²⌉ (Lehr's rule), at least %d, from the run-to-run cv; "+
			"over batches lo–hi: lo from the run's own standard error (processes differ at least that much), hi from the cv of its 16 blocks "+
			"as if each were a run (holds unless processes differ more than stretches of one run); -count=10 measures it; n/a with two regimes",
			fmtNum(delta), fmtNum(delta), MinRunsForCI),
	}
	if counted {
		out = append(out, "instr/op: instructions per op counted under valgrind (-benchkit.count=instructions) at GOMAXPROCS=1, "+
			"(T(N2) − T(N1))/(N2 − N1) from two processes at N1 and N2 ops: the code path, not its speed (cache misses, mispredictions, "+
			"frequency and contention are not in it; docs/counts.md); n/a: not counted, the findings say why")
	}
	return out
}

// stripPlots writes a strip plot per row with at least 2 samples, if any.
func (p *printer) stripPlots(rows []Row) {
	if plots := plotRows(rows); len(plots) > 0 {
		p.section("samples in order (▁ lowest … █ highest, per row)")
		p.table(plots)
	}
}

// findings writes the findings section ([allFindings]); nothing when
// there are none. virtualised says the environment warned of a
// hypervisor.
func (p *printer) findings(rows []Row, virtualised bool) {
	lines := allFindings(rows, virtualised)
	if len(lines) == 0 {
		return
	}
	p.section("findings")
	counts := countFindings(rows) // the last lines, each with its output
	for _, l := range lines[:len(lines)-len(counts)] {
		p.line("  " + l)
	}
	for _, c := range counts {
		p.line("  " + c.text)
		p.quote(c.output)
	}
}

// allFindings are the findings lines of rows ([findingLines]), then one
// line naming the rows whose spread is unknown, then one per reason a
// count failed ([countFindings]).
func allFindings(rows []Row, virtualised bool) []string {
	lines := findingLines(rows, virtualised)
	var once []string
	for _, r := range rows {
		if r.Source == SourceNone && r.TotalRuns > 0 {
			once = append(once, r.Display)
		}
	}
	if len(once) > 0 {
		lines = append(lines, fmt.Sprintf("%s: one run and fewer than 2 timed batches, so no spread is known; "+
			"run with -count=10, or use benchkit.Loop with a -benchtime long enough to time batches (not 1x)",
			listNames(once, 4)))
	}
	for _, c := range countFindings(rows) {
		lines = append(lines, c.text)
	}
	return lines
}

// quote writes out, a process's output, as printed, indented; nothing
// for "".
func (p *printer) quote(out string) {
	if strings.TrimSpace(out) == "" {
		return
	}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		p.verbatim("      " + l)
	}
}

// comparisonsTitle heads the comparisons section.
const comparisonsTitle = "comparisons · Δ = impl/baseline − 1: the median over rounds (with forks, the mean of the forks' medians) and its CI; the control's CI is the noise floor"

// comparisons writes each control comparison ([comparisonLines]), if any.
func (p *printer) comparisons(cs []ComparisonRow) {
	if len(cs) == 0 {
		return
	}
	p.section(comparisonsTitle)
	for _, c := range cs {
		comparisonLines(p, c, true)
	}
}

// dropped writes how many benchmark names the registry could not hold,
// if any.
func (p *printer) dropped(n int) {
	if n > 0 {
		p.line(droppedLine(n))
	}
}

// droppedLine says that n benchmark names were not recorded.
func droppedLine(n int) string {
	return fmt.Sprintf("⚠ %d benchmark names were not recorded: the registry holds at most %d", n, registry.MaxBenchmarks)
}

// failures writes the failures section, if any.
func (p *printer) failures(fs []string) {
	if len(fs) == 0 {
		return
	}
	p.section("failures")
	for _, f := range fs {
		p.line("  ✗ " + f)
	}
}

// printer writes the report's lines, each wrapped at width runes after
// the prefix (no wrapping when width ≤ 0).
type printer struct {
	w     *bufio.Writer
	width int
	err   error
}

// line writes one line of free text, wrapped with a hanging indent
// ([hangOf]).
func (p *printer) line(s string) { p.wrapped(s, hangOf(s)) }

// verbatim writes s unwrapped, however long: quoted output of a process.
func (p *printer) verbatim(s string) { p.write(oneLine(s)) }

// wrapped writes s wrapped at p.width ([wrap]), its continuation lines
// indented by hang.
func (p *printer) wrapped(s string, hang int) {
	for _, l := range wrap(oneLine(s), p.width, hang) {
		p.write(l)
	}
}

// write writes the prefix and s, one physical line without a newline,
// trailing spaces trimmed.
func (p *printer) write(s string) {
	s = strings.TrimRight(Prefix+s, " ")
	if _, err := p.w.WriteString(s + "\n"); err != nil && p.err == nil {
		p.err = err
	}
}

// oneLine replaces every newline and carriage return in s by a space, so
// that every physical line carries the prefix.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

func (p *printer) section(title string) {
	p.line("")
	p.line(title)
}

// table writes rows as left-aligned columns, two spaces apart, indented;
// a row too wide wraps its last column, aligned under it.
func (p *printer) table(rows [][]string) { p.tableNotes(rows, nil) }

// tableNotes is [printer.table] with, after each row i with a non-empty
// notes[i], that note as a line of free text indented under the row.
func (p *printer) tableNotes(rows [][]string, notes []string) {
	var ws []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(ws) {
				ws = append(ws, 0)
			}
			ws[i] = max(ws[i], width(c))
		}
	}
	for j, r := range rows {
		var sb strings.Builder
		sb.WriteString("  ")
		hang := 2
		for i, c := range r {
			if i == len(r)-1 {
				sb.WriteString(c)
				break
			}
			sb.WriteString(pad(c, ws[i]))
			sb.WriteString("  ")
			hang += ws[i] + 2
		}
		p.wrapped(sb.String(), hang)
		if j < len(notes) && notes[j] != "" {
			p.line("    " + notes[j])
		}
	}
}

func (p *printer) flush() error {
	if err := p.w.Flush(); err != nil && p.err == nil {
		p.err = err
	}
	return p.err
}

func samplesCell(r Row) string {
	switch r.Source {
	case SourceRuns:
		return textfmt.Plural(len(r.Samples), "run")
	case SourceBatches:
		return textfmt.Plural(r.TotalRuns, "run") + ", " + textfmt.Plural(len(r.Samples), "batch")
	}
	return textfmt.Plural(r.TotalRuns, "run")
}

func runsNeededCell(r Row) string {
	switch {
	case r.RunsNeeded == 0:
		return "?"
	case r.Regimes != nil:
		return "n/a" // two regimes: Lehr's rule does not apply (see the finding)
	case r.RunsNeededCapped:
		return ">" + strconv.Itoa(r.RunsNeeded)
	case r.RunsNeededBasis == BasisBatchCI && r.RunsNeededHi > r.RunsNeeded:
		return strconv.Itoa(r.RunsNeeded) + "–" + strconv.Itoa(r.RunsNeededHi)
	}
	return strconv.Itoa(r.RunsNeeded)
}

// cvCell is the cv% cell: over batches it is marked "b", the spread
// within one run.
func cvCell(r Row) string {
	if r.Source == SourceBatches && r.CVPct >= 0 {
		return pctCell(r.CVPct) + " b"
	}
	return pctCell(r.CVPct)
}

// plotRows returns one table row per benchmark with at least 2 samples:
// name, source, strip plot, and its range last (the one column of the
// table that wraps).
func plotRows(rows []Row) [][]string {
	var out [][]string
	for _, r := range rows {
		if len(r.Samples) < 2 {
			continue
		}
		s := Strip(r.Samples, PlotWidth)
		out = append(out, []string{r.Display, string(r.Source), s.Plot, s.Label(string(r.Source))})
	}
	return out
}

// hasWarning reports whether ws holds a warning with key.
func hasWarning(ws []env.Warning, key string) bool {
	return slices.ContainsFunc(ws, func(w env.Warning) bool { return w.Key == key })
}

// comparisonLines writes a comparison: its head line, a row per
// estimate (with its whole reason when full, else [compactOutcome]), the
// gate and the warnings, and how many more the registry did not hold.
func comparisonLines(p *printer, c ComparisonRow, full bool) {
	p.line("  " + comparisonHead(c))
	rows := comparisonRows(c)
	if !full {
		rows = compactComparisonRows(c, rows)
	}
	for i := range rows {
		rows[i][0] = "  " + rows[i][0]
	}
	p.table(rows)
	for _, l := range comparisonNotes(c) {
		p.line("      " + l)
	}
	if c.Dropped > 0 {
		p.line("  " + comparisonsDropped(c))
	}
}

// comparisonName is the comparison's benchmark as go test prints it, with
// "(i of n)" when the benchmark made several.
func comparisonName(c ComparisonRow) string {
	name := benchname.Display(c.Benchmark, 1)
	if c.Of > 1 {
		name += fmt.Sprintf(" (%d of %d)", c.Index, c.Of)
	}
	return name
}

// comparisonHead is a comparison's first line: the benchmark, the
// baseline's cost, the rounds, the intervals' level, the call overhead
// and the processes.
func comparisonHead(c ComparisonRow) string {
	head := fmt.Sprintf("%s: baseline %s at %s/op, %s", comparisonName(c), c.Baseline,
		fmtNs(c.BaselineNsPerOp), textfmt.Plural(c.Rounds, "round"))
	if c.Confidence > 0 && c.Confidence < 1 {
		head += fmt.Sprintf(", %s%% intervals", fmtNum(c.Confidence*100))
	}
	if finite(c.OverheadNsPerOp) && c.OverheadNsPerOp > 0 {
		head += ", call overhead " + fmtNs(c.OverheadNsPerOp) + "/op"
	}
	switch {
	case c.Forks > 1:
		head += fmt.Sprintf(", %d forks (t-interval over them)", c.Forks)
	case c.Forks == 1:
		head += ", within one process"
	}
	return head
}

// controlLabel names a comparison's control row.
func controlLabel(c ComparisonRow) string { return "control (" + c.Baseline + " again)" }

// comparisonRows are a comparison's table rows ([estimateRow]): the
// control's, then each candidate's.
func comparisonRows(c ComparisonRow) [][]string {
	rows := [][]string{estimateRow(controlLabel(c), c.Control, "noise floor", c.Rounds)}
	for _, e := range c.Candidates {
		rows = append(rows, estimateRow(e.Name, e, "", c.Rounds))
	}
	return rows
}

// comparisonNotes are the lines after a comparison's table: the gate's
// outcome and the warnings (each after "⚠ ").
func comparisonNotes(c ComparisonRow) []string {
	var out []string
	switch {
	case c.Gate > 0 && c.GateFailed:
		out = append(out, fmt.Sprintf("gate %s%%: FAILED", fmtNum(c.Gate)))
	case c.Gate > 0:
		out = append(out, fmt.Sprintf("gate %s%%: passed", fmtNum(c.Gate)))
	}
	for _, wn := range c.Warnings {
		out = append(out, "⚠ "+wn)
	}
	return out
}

// comparisonsDropped says how many more comparisons of c's benchmark the
// registry did not hold.
func comparisonsDropped(c ComparisonRow) string {
	return fmt.Sprintf("⚠ %s of %s were not recorded: the registry holds at most %d per benchmark",
		textfmt.Plural(c.Dropped, "more comparison"), benchname.Display(c.Benchmark, 1), registry.MaxComparisons)
}

// estimateRow is one implementation's row of a comparison: name, time,
// delta, interval, the forks' range when there are several, and the
// verdict with note prefixed when the reason lacks it. Without rounds the
// time and delta are "?" and the interval "no rounds": nothing was
// measured, and zeros would read as "no difference".
func estimateRow(name string, e verdict.Estimate, note string, rounds int) []string {
	outcome := string(e.Verdict)
	if note != "" && !strings.Contains(e.Reason, note) {
		outcome = note
		if e.Verdict != "" {
			outcome += ", " + string(e.Verdict)
		}
	}
	if e.Reason != "" {
		outcome += ": " + e.Reason
	}
	row := []string{name, fmtNs(e.NsPerOp) + "/op", textfmt.Pct(e.DeltaPct), textfmt.Interval(e.LoPct, e.HiPct)}
	if rounds == 0 {
		row = []string{name, "?", "?", "no rounds"}
	}
	if len(e.ForkDeltaPct) > 0 {
		row = append(row, "forks "+textfmt.Pct(slices.Min(e.ForkDeltaPct))+"…"+textfmt.Pct(slices.Max(e.ForkDeltaPct)))
	}
	return append(row, dash(outcome))
}
