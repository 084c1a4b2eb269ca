package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"github.com/benchkit/go-benchkit/internal/verdict"
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

// Text writes the human-readable report of in to w: a title, the
// environment with its warnings, the warm-up, one table row per benchmark,
// a strip plot per benchmark, the findings with their fixes, the control
// comparisons, and the failures. Every line starts with [Prefix].
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
	return p.flush()
}

// title writes the first line: the counts of shown benchmarks, runs and
// comparisons, and the package.
func (p *printer) title(in Input, a Analysis) {
	runs, shown := 0, 0
	for _, r := range a.Rows {
		runs += r.TotalRuns
		if r.Shown() {
			shown++
		}
	}
	title := fmt.Sprintf("hygiene report · %s · %s", textfmt.Plural(shown, "benchmark"), textfmt.Plural(runs, "run"))
	if n := len(a.Comparisons); n > 0 {
		title += " · " + textfmt.Plural(n, "comparison")
	}
	if in.Against != nil {
		title += fmt.Sprintf(" · against %s: %s", in.Against.Base.Path, textfmt.Plural(len(in.Against.Benches), "benchmark"))
	}
	if in.Package != "" {
		title += " · " + in.Package
	}
	p.line(title)
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

// warmup writes the warm-up's summary and warnings, or how to turn it on.
func (p *printer) warmup(wu *Warmup, against bool) {
	p.section("warm-up")
	if wu == nil && against {
		p.line("  not run: under -benchkit.against every benchmark runs in fresh processes, all of which start equally cold")
		return
	}
	if wu == nil {
		p.line("  off: the first benchmark paid for cold caches and clock ramp-up (turn it on with -benchkit.warmup=1s or BENCHKIT_WARMUP=1s)")
		return
	}
	p.line("  " + wu.Summary)
	for _, wn := range wu.Warnings {
		p.line("  ⚠ " + wn)
	}
}

// benchmarks writes the table of shown rows and its legend, or why there
// is none; delta is the change in percent the runs@ column resolves, and
// against says the benchmarks ran in -benchkit.against's processes.
func (p *printer) benchmarks(a Analysis, delta float64, against bool) {
	p.section("benchmarks")
	if !slices.ContainsFunc(a.Rows, Row.Shown) {
		switch {
		case against:
			p.line("  none in this process: under -benchkit.against the benchmarks ran in child processes (the comparison is below)")
		case len(a.Comparisons) > 0:
			p.line("  none tracked (the comparisons are below): call benchkit.Track(b) or benchkit.Loop(b, f) in a benchmark to see it here")
		default:
			p.line("  none recorded: call benchkit.Track(b) or benchkit.Loop(b, f) in a benchmark to see it here")
		}
		return
	}
	counted := slices.ContainsFunc(a.Rows, func(r Row) bool { return r.Shown() && r.Count != nil })
	head := []string{"benchmark", "samples", "median/op", "±%", "cv%", "grade", "wait%", "runs@" + fmtNum(delta) + "%"}
	if counted {
		head = append(head, "instr/op")
	}
	table := [][]string{append(head, "flags")}
	folded := foldedRows(a.Rows)
	for _, r := range a.Rows {
		if !r.Shown() || folded[r.Display] {
			continue
		}
		row := []string{
			r.Display, samplesCell(r), fmtNs(r.MedianNs), pctCell(r.CIPct), cvCell(r), string(r.Grade),
			pctCell(r.WaitPct), runsNeededCell(r),
		}
		if counted {
			row = append(row, instrCell(r.Count))
		}
		table = append(table, append(row, dash(strings.Join(r.Tags(), ", "))))
	}
	p.table(table)
	if len(folded) > 0 {
		p.line("  " + foldedLine(a.Rows, folded))
	}
	p.legend(delta)
	if counted {
		p.line("  · instr/op: instructions per op counted under valgrind (-benchkit.count=instructions) at GOMAXPROCS=1, " +
			"(T(N2) − T(N1))/(N2 − N1) from two processes at N1 and N2 ops: the code path, not its speed (cache misses, mispredictions, " +
			"frequency and contention are not in it; docs/counts.md); n/a: not counted, the findings say why")
	}
}

// instrCell is the instr/op cell: the count, "n/a" when the benchmark
// could not be counted, "-" when it was not counted at all.
func instrCell(c *registry.InstrCount) string {
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

// legend explains the benchmarks table's columns.
func (p *printer) legend(delta float64) {
	p.line("  · samples: the runs' ns/op with 2 runs or more, else the batches benchkit.Loop timed in the one run")
	p.line("  · ±%: 95% interval of the median, half-width in percent: over runs as benchstat's (6 runs or more); over batches from 16 blocks of the run (this run's own uncertainty, not another process's)")
	p.line("  · cv%: over runs the run-to-run cv (of -count runs, all in this process: what differs between processes is not in it); over batches (b) the spread of batches a few ms long within the run, not graded")
	p.line("  · grade: of the run-to-run cv with 2 runs or more, else of ±%: <2% excellent, 2-5% acceptable, 5-10% noisy, >10% do-not-trust")
	p.line("  · wait%: time the process's threads waited for a CPU, over the run's wall time (contention)")
	p.line(fmt.Sprintf("  · runs@%s%%: runs per side to resolve a %s%% change, ⌈16·(cv/Δ)²⌉ (Lehr's rule), at least %d, from the run-to-run cv; "+
		"over batches lo–hi: lo from the run's own standard error (processes differ at least that much), hi from the cv of its 16 blocks "+
		"as if each were a run (holds unless processes differ more than stretches of one run); -count=10 measures it; n/a with two regimes",
		fmtNum(delta), fmtNum(delta), MinRunsForCI))
}

// stripPlots writes a strip plot per row with at least 2 samples, if any.
func (p *printer) stripPlots(rows []Row) {
	if plots := plotRows(rows); len(plots) > 0 {
		p.section("samples in order (▁ lowest … █ highest, per row)")
		p.table(plots)
	}
}

// findings writes the findings of rows ([findingLines]), then one line
// naming the rows whose spread is unknown; nothing when there are none.
// virtualised says the environment warned of a hypervisor.
func (p *printer) findings(rows []Row, virtualised bool) {
	lines := findingLines(rows, virtualised)
	var once []string
	for _, r := range rows {
		if r.Source == SourceNone && r.TotalRuns > 0 {
			once = append(once, r.Display)
		}
	}
	counts := countFindings(rows)
	if len(lines) == 0 && len(once) == 0 && len(counts) == 0 {
		return
	}
	p.section("findings")
	for _, l := range lines {
		p.line("  " + l)
	}
	if len(once) > 0 {
		p.line(fmt.Sprintf("  %s: one run and fewer than 2 timed batches, so no spread is known; "+
			"run with -count=10, or use benchkit.Loop with a -benchtime long enough to time batches (not 1x)",
			listNames(once, 4)))
	}
	for _, c := range counts {
		p.line("  " + c.text)
		p.quote(c.output)
	}
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

// comparisons writes each control comparison ([comparisonLines]), if any.
func (p *printer) comparisons(cs []ComparisonRow) {
	if len(cs) == 0 {
		return
	}
	p.section("comparisons · Δ = impl/baseline − 1: the median over rounds (with forks, the mean of the forks' medians) and its CI; the control's CI is the noise floor")
	for _, c := range cs {
		comparisonLines(p, c)
	}
}

// dropped writes how many benchmark names the registry could not hold,
// if any.
func (p *printer) dropped(n int) {
	if n > 0 {
		p.line(fmt.Sprintf("⚠ %d benchmark names were not recorded: the registry holds at most %d", n, registry.MaxBenchmarks))
	}
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
func (p *printer) table(rows [][]string) {
	var ws []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(ws) {
				ws = append(ws, 0)
			}
			ws[i] = max(ws[i], width(c))
		}
	}
	for _, r := range rows {
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

func comparisonLines(p *printer, c ComparisonRow) {
	name := displayName(c.Benchmark, 1)
	if c.Of > 1 {
		name += fmt.Sprintf(" (%d of %d)", c.Index, c.Of)
	}
	head := fmt.Sprintf("  %s: baseline %s at %s/op, %s", name, c.Baseline,
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
	p.line(head)
	rows := [][]string{estimateRow("control ("+c.Baseline+" again)", c.Control, "noise floor", c.Rounds)}
	for _, e := range c.Candidates {
		rows = append(rows, estimateRow(e.Name, e, "", c.Rounds))
	}
	for i := range rows {
		rows[i][0] = "  " + rows[i][0]
	}
	p.table(rows)
	switch {
	case c.Gate > 0 && c.GateFailed:
		p.line(fmt.Sprintf("      gate %s%%: FAILED", fmtNum(c.Gate)))
	case c.Gate > 0:
		p.line(fmt.Sprintf("      gate %s%%: passed", fmtNum(c.Gate)))
	}
	for _, wn := range c.Warnings {
		p.line("      ⚠ " + wn)
	}
	if c.Dropped > 0 {
		p.line(fmt.Sprintf("  ⚠ %s of %s were not recorded: the registry holds at most %d per benchmark",
			textfmt.Plural(c.Dropped, "more comparison"), displayName(c.Benchmark, 1), registry.MaxComparisons))
	}
}

// estimateRow is one implementation's row of a comparison: name, time,
// delta, interval, the forks' range when there are several, and the
// verdict with note prefixed when the reason lacks it. Without rounds the
// time and delta are "?" and the interval "no rounds": nothing was
// measured, and zeros would read as "no difference".
func estimateRow(name string, e verdict.Estimate, note string, rounds int) []string {
	verdict := string(e.Verdict)
	if note != "" && !strings.Contains(e.Reason, note) {
		verdict = note
		if e.Verdict != "" {
			verdict += ", " + string(e.Verdict)
		}
	}
	if e.Reason != "" {
		verdict += ": " + e.Reason
	}
	row := []string{name, fmtNs(e.NsPerOp) + "/op", signedPct(e.DeltaPct), "[" + signedPct(e.LoPct) + ", " + signedPct(e.HiPct) + "]"}
	if rounds == 0 {
		row = []string{name, "?", "?", "no rounds"}
	}
	if len(e.ForkDeltaPct) > 0 {
		row = append(row, "forks "+signedPct(slices.Min(e.ForkDeltaPct))+"…"+signedPct(slices.Max(e.ForkDeltaPct)))
	}
	return append(row, dash(verdict))
}

// against writes the cross-build comparison: how it ran, the binaries,
// one row per benchmark, the benchmarks found in one binary only, the
// gate, and the processes that failed with their output.
func (p *printer) against(a *registry.Against) {
	if a == nil {
		return
	}
	p.section(fmt.Sprintf("against %s · %s of 3 processes (base, new, base again as the A/A control) in balanced random order · -bench=%s -benchtime=%s each · %s%% sign-test intervals over rounds",
		a.Base.Path, textfmt.Plural(a.Rounds, "round"), a.Pattern, a.Benchtime, fmtNum(a.Confidence*100)))
	p.line("  base  " + binaryLine(a.Base))
	p.line("  new   " + binaryLine(a.New))
	p.againstTable(a.Benches)
	for _, b := range a.Benches {
		if b.GateNote != "" {
			p.line("  " + b.Name + ": " + b.GateNote)
		}
	}
	if len(a.OnlyBase) > 0 {
		p.line("  only in base, not compared: " + listNames(a.OnlyBase, 8))
	}
	if len(a.OnlyNew) > 0 {
		p.line("  only in new, not compared: " + listNames(a.OnlyNew, 8))
	}
	p.againstGate(a)
	for _, w := range a.Warnings {
		p.line("  ⚠ " + w)
	}
	for _, f := range a.Failures {
		p.line(fmt.Sprintf("  ✗ %s process of round %d failed%s: %s; its output:", f.Side, f.Round, failedNames(f), f.Message))
		for _, l := range strings.Split(strings.TrimRight(f.Output, "\n"), "\n") {
			p.verbatim("      " + l)
		}
	}
}

// againstTable writes one row per benchmark measured in both binaries
// and the table's legend, or that there is none.
func (p *printer) againstTable(benches []registry.AgainstBench) {
	if len(benches) == 0 {
		p.line("  no benchmark was measured in both binaries")
		return
	}
	table := [][]string{{"benchmark", "base/op", "new/op", "Δ", "interval", "control Δ", "control interval", "allocs/op", "B/op", "verdict"}}
	marked := false
	for _, b := range benches {
		row, disagree := againstRow(b)
		table = append(table, row)
		marked = marked || disagree
	}
	p.table(table)
	p.line("  · Δ = new/base − 1: the median over rounds of each round's ratio, with the sign-test interval of the median; control = base again/base, the noise floor")
	if marked {
		p.line("  · " + DisagreeMark + ": the medians and Δ point different ways: Δ pairs the processes of each round (the median of the rounds' new/base), " +
			"base/op and new/op do not (each is the median of its side's rounds alone), so a level that moved between rounds shifts the medians, not Δ; read Δ")
	}
	p.line("  · allocs/op and B/op: the median of each side's rounds, as go test prints them (truncated to integers), compared exactly (base → new); " +
		"\"varies\": the rounds of a side (base with the control, or new) printed different values: each process runs its own b.N, " +
		"so an allocation made once and amortised over b.N can move the printed value by one")
}

// DisagreeMark follows the Δ of an against row whose sides' medians point
// the other way ([mediansDisagree]).
const DisagreeMark = "†"

// againstGate writes the gates' outcome, when a gate is set.
func (p *printer) againstGate(a *registry.Against) {
	if a.GatePct <= 0 && !a.GateAllocs {
		return
	}
	var what []string
	if a.GatePct > 0 {
		what = append(what, fmtNum(a.GatePct)+"%")
	}
	if a.GateAllocs {
		what = append(what, "allocs/op")
	}
	var failed []string
	for _, b := range a.Benches {
		if b.GateFailed {
			failed = append(failed, b.Name)
		}
	}
	if len(failed) > 0 {
		p.line(fmt.Sprintf("  gate %s: FAILED (%s)", strings.Join(what, ", "), listNames(failed, 8)))
		return
	}
	p.line(fmt.Sprintf("  gate %s: passed", strings.Join(what, ", ")))
}

// binaryLine describes a binary: its path, package, Go version, VCS
// revision when stamped, and the start of its SHA-256.
func binaryLine(b registry.Binary) string {
	parts := []string{b.Path}
	if b.Package != "" {
		parts = append(parts, "pkg "+b.Package)
	}
	if b.GoVersion != "" {
		parts = append(parts, b.GoVersion)
	}
	if b.VCSRevision != "" {
		rev := "vcs " + b.VCSRevision
		if b.VCSModified {
			rev += " (modified)"
		}
		parts = append(parts, rev)
	}
	if len(b.SHA256) >= 12 {
		parts = append(parts, "sha256 "+b.SHA256[:12])
	}
	return strings.Join(parts, "  ")
}

// againstRow is one benchmark's row: the sides' median ns/op, Δ and
// interval, the control's, the counts, and the verdict with its reason;
// disagree reports that Δ carries [DisagreeMark].
func againstRow(b registry.AgainstBench) (row []string, disagree bool) {
	v := string(b.NewEst.Verdict)
	if b.NewEst.Reason != "" {
		v += ": " + b.NewEst.Reason
	}
	if b.Allocs.Changed() {
		v = "allocs/op " + changeWord(b.Allocs) + "; time " + v
	}
	baseNs, ok := stats.Median(b.Base.NsPerOp)
	if !ok {
		baseNs = -1
	}
	delta := signedPct(b.NewEst.DeltaPct)
	disagree = mediansDisagree(baseNs, b.NewEst)
	if disagree {
		delta += " " + DisagreeMark
	}
	return []string{
		b.Name, fmtNs(baseNs), fmtNs(b.NewEst.NsPerOp),
		delta, "[" + signedPct(b.NewEst.LoPct) + ", " + signedPct(b.NewEst.HiPct) + "]",
		signedPct(b.ControlEst.DeltaPct), "[" + signedPct(b.ControlEst.LoPct) + ", " + signedPct(b.ControlEst.HiPct) + "]",
		countCell(b.Allocs), countCell(b.Bytes), v,
	}, disagree
}

// mediansDisagree reports whether the sign of e.NsPerOp − baseNs (the new
// side's median ns/op minus the base's) is the opposite of e.DeltaPct's,
// both nonzero: Δ is the median of the rounds' ratios, which pairs each
// round's processes, and the medians of the sides need not follow it.
func mediansDisagree(baseNs float64, e verdict.Estimate) bool {
	d := e.NsPerOp - baseNs
	return baseNs >= 0 && e.NsPerOp >= 0 && finite(d) && finite(e.DeltaPct) && d*e.DeltaPct < 0
}

// countCell shows a count as an integer ([fmtCount]): "3" when both sides
// agree, "3 → 4 (+1)" when they differ, "?" unknown, with ", varies" when
// a side's rounds disagree (registry.Count.Varies).
func countCell(c registry.Count) string {
	var s string
	switch {
	case c.Base < 0 || c.New < 0:
		return "?"
	case c.Changed():
		s = countChange(c)
	default:
		s = fmtCount(c.New)
	}
	if c.Varies {
		s += ", varies"
	}
	return s
}
