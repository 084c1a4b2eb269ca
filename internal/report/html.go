package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/stats"
)

//go:embed html.tmpl
var htmlSource string

//go:embed html.css
var htmlCSS string

var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

// MaxOpenDetails is the most benchmarks a section of the HTML report
// shows unfolded; with more, each one's plots and findings are folded
// under its name (<details>), so that a suite of hundreds opens on its
// summary table.
const MaxOpenDetails = 4

// HTML writes the HTML report of in to w: one self-contained page (its
// style sheet and every plot inline, no script, no network access) with
// the failures, a summary table of the benchmarks, the control
// comparisons and the cross-build comparison as forest plots, each
// benchmark's samples in order and their distribution, the findings, and
// the environment, in the text report's words. docs/report.md describes
// each plot.
func HTML(w io.Writer, in Input) error {
	return HTMLAnalysis(w, in, Analyze(in))
}

// HTMLAnalysis is [HTML] with the analysis already computed.
func HTMLAnalysis(w io.Writer, in Input, a Analysis) error {
	bw := bufio.NewWriter(w)
	if err := htmlTemplate.Execute(bw, pageOf(in, a)); err != nil {
		return fmt.Errorf("report: writing the HTML report: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: writing the HTML report: %w", err)
	}
	return nil
}

// page is what the HTML template shows.
type page struct {
	CSS         template.CSS
	Schema      string
	Package     string
	Title, Meta string
	Failures    []string
	// Benchmarks is the section of this process's benchmarks, left out
	// (NoBenchmarks) when a cross-build comparison measured everything
	// in child processes.
	Benchmarks   benchSection
	NoBenchmarks bool
	CompareTitle string
	Comparisons  []comparisonView
	Against      *againstView
	Findings     []string
	Facts        []env.Fact
	EnvWarnings  []string
	Warmup       []string
	Dropped      string
}

// legendItem is one key of a plot's legend: a swatch of class and what it
// stands for.
type legendItem struct {
	Class, Text string
}

// pageOf builds the page of in and a.
func pageOf(in Input, a Analysis) page {
	virtualised := hasWarning(in.Warnings, env.KeyVirtualisation)
	p := page{
		CSS: template.CSS(htmlCSS), Schema: Schema, Package: in.Package, Title: titleText(in, a), Meta: metaLine(in),
		Failures: a.Failures, Benchmarks: benchSectionOf(a, in.Settings.delta(), in.Against != nil, virtualised),
		CompareTitle: comparisonsTitle, Against: againstViewOf(in.Against),
		Findings: allFindings(a.Rows, virtualised), Facts: in.Facts, Warmup: warmupLines(in.Warmup, in.Against != nil),
	}
	p.NoBenchmarks = in.Against != nil && len(p.Benchmarks.Rows) == 0
	for _, wn := range in.Warnings {
		p.EnvWarnings = append(p.EnvWarnings, wn.Key+": "+wn.Message)
	}
	for i, c := range a.Comparisons {
		p.Comparisons = append(p.Comparisons, comparisonViewOf(fmt.Sprintf("cmp-%d", i+1), c))
	}
	if in.Dropped > 0 {
		p.Dropped = droppedLine(in.Dropped)
	}
	return p
}

// metaLine says when the run started, with which Go, on which platform
// and CPU; the parts not known are left out.
func metaLine(in Input) string {
	var parts []string
	if !in.Meta.Start.IsZero() {
		parts = append(parts, "started "+in.Meta.Start.UTC().Format(time.DateTime)+" UTC")
	}
	if in.Meta.GoVersion != "" {
		parts = append(parts, in.Meta.GoVersion)
	}
	if in.GOOS != "" && in.GOARCH != "" {
		parts = append(parts, in.GOOS+"/"+in.GOARCH)
	}
	if cpu := strings.TrimSpace(in.CPU); cpu != "" {
		parts = append(parts, cpu)
	}
	return strings.Join(parts, " · ")
}

// benchSection is the summary table of the shown rows, its legend, and
// the plots and findings of the rows that have any.
type benchSection struct {
	Empty   string
	Header  []string
	Rows    []benchRow
	Legend  []string
	Details []benchDetail
	Open    bool
}

// benchRow is one row of the summary table; Detail is the id of its
// details, "" when it has none.
type benchRow struct {
	Cells         []string
	Grade, Detail string
}

// benchDetail is one benchmark's plots (its samples in order and their
// distribution, on one ns/op axis) with their legend, and its findings.
type benchDetail struct {
	ID, Name, Summary   string
	Grade               string
	Timeline, Histogram template.HTML
	Legend              []legendItem
	Findings            []string
}

// benchSectionOf builds the benchmarks section: every shown row in the
// table (none folded: the page has room), and the details of each row
// with samples to plot or findings.
func benchSectionOf(a Analysis, delta float64, against, virtualised bool) benchSection {
	var s benchSection
	counted := slices.ContainsFunc(a.Rows, func(r Row) bool { return r.Shown() && r.Count != nil })
	for _, r := range a.Rows {
		if !r.Shown() {
			continue
		}
		row := benchRow{Cells: benchmarkCells(r, counted), Grade: gradeClass(r.Grade)}
		if d, ok := benchDetailOf(fmt.Sprintf("bench-%d", len(s.Rows)+1), r, virtualised); ok {
			row.Detail = d.ID
			s.Details = append(s.Details, d)
		}
		s.Rows = append(s.Rows, row)
	}
	if len(s.Rows) == 0 {
		s.Empty = noBenchmarks(a, against)
		return s
	}
	s.Header, s.Legend, s.Open = benchmarkHeader(delta, counted), legendLines(delta, counted), len(s.Details) <= MaxOpenDetails
	return s
}

// gradeClass is the class of a grade's cell: "g-excellent", ….
func gradeClass(g Grade) string { return "g-" + string(g) }

// benchDetailOf returns r's details, or false when r has neither two
// samples to plot nor a finding.
func benchDetailOf(id string, r Row, virtualised bool) (benchDetail, bool) {
	fs := findingsOf(r, virtualised)
	if len(r.Samples) < 2 && len(fs) == 0 {
		return benchDetail{}, false
	}
	d := benchDetail{ID: id, Name: r.Display, Grade: gradeClass(r.Grade), Summary: detailSummary(r)}
	for _, f := range fs {
		d.Findings = append(d.Findings, f.text)
	}
	if len(r.Samples) >= 2 {
		y, clipped := valueScale(r.Samples)
		d.Timeline, d.Histogram = timeline(r, y, clipped), histogram(r, y)
		d.Legend = timelineLegend(r, y, clipped)
	}
	return d, true
}

// detailSummary is the line a benchmark's details are folded under: its
// median, interval, grade and tags.
func detailSummary(r Row) string {
	parts := []string{fmtNs(r.MedianNs) + "/op"}
	if r.CIPct >= 0 {
		parts = append(parts, "±"+pctCell(r.CIPct)+"%")
	}
	parts = append(parts, string(r.Grade), samplesCell(r))
	return strings.Join(append(parts, r.Tags()...), " · ")
}

// timelineLegend explains the marks timeline and histogram draw for r.
func timelineLegend(r Row, y scale, clipped bool) []legendItem {
	unit := "runs"
	if r.Source == SourceBatches {
		unit = "batches"
	}
	lo, hi, _ := span(r.Samples...)
	items := []legendItem{{"key pt plain", fmt.Sprintf("%s in order: %s … %s", unit, fmtNs(lo), fmtNs(hi))}}
	if m, ok := stats.Median(r.Samples); ok {
		items = append(items, legendItem{"key median", "median " + fmtNs(m)})
	}
	if g := r.Regimes; g != nil {
		items = append(items,
			legendItem{"key pt low", fmt.Sprintf("low regime: %d around %s", g.Low.Size, fmtNs(g.Low.Center))},
			legendItem{"key pt high", fmt.Sprintf("high regime: %d around %s", g.High.Size, fmtNs(g.High.Center))})
	}
	if o := r.Outliers; o != nil && o.Count() > 0 {
		items = append(items, legendItem{"key halo", fmt.Sprintf("%d beyond Tukey's fences (dashed in the histogram: Q1 − 1.5·IQR, Q3 + 1.5·IQR)", o.Count())})
	}
	if st := r.HighStretch; st[1] > st[0] {
		items = append(items, legendItem{"key stretch", fmt.Sprintf("%d %s in a row above the upper fence", st[1]-st[0], unit)})
	}
	if clipped {
		items = append(items, legendItem{"key clip", "above " + fmtNs(y.d1) + ", where the scale stops (Tukey's severe fence Q3 + 3·IQR)"})
	}
	if r.ColdStart > 0 {
		items = append(items, legendItem{"key cold", fmt.Sprintf("cold start: the first, %.0f× the others' median", r.ColdStart)})
	}
	return items
}

// comparisonView is one control comparison: its head line, a forest plot
// of the control and the candidates with their words, the notes, and the
// per-round ratios.
type comparisonView struct {
	ID, Head     string
	Axis         template.HTML
	Rows         []forestView
	Notes        []string
	Dropped      string
	Rounds       template.HTML
	RoundsLegend []legendItem
}

// forestView is one row of a forest table: the estimate's cells, its
// plot and the verdict with its reason.
type forestView struct {
	Cells   []string
	Plot    template.HTML
	Verdict verdictView
	Class   string
}

// verdictView is a verdict cell: Short, the verdict with the first
// clause of why (as the compact text report has it), and Detail, the
// whole reason, which the page folds under it; "" when Short says it
// all.
type verdictView struct {
	Short, Detail string
}

// verdictViewOf is the cell of a verdict shown as short, whose whole
// text is full.
func verdictViewOf(short, full string) verdictView {
	if full == short {
		return verdictView{Short: short}
	}
	return verdictView{Short: short, Detail: full}
}

// comparisonViewOf builds c's view: each candidate's mark is drawn over
// the control's interval (the noise floor) and ±ε.
func comparisonViewOf(id string, c ComparisonRow) comparisonView {
	v := comparisonView{ID: id, Head: comparisonHead(c), Notes: comparisonNotes(c)}
	ests := append([]verdict.Estimate{c.Control}, c.Candidates...)
	names := []string{controlLabel(c)}
	marks := make([]forestMark, len(ests))
	for i, e := range ests {
		if i > 0 {
			names = append(names, e.Name)
		}
		marks[i] = forestMark{label: names[i], est: e, measured: c.Rounds > 0, eps: c.Negligible, gate: c.Gate,
			noise: [2]float64{c.Control.LoPct, c.Control.HiPct}, hasNoise: c.Rounds > 0}
	}
	sc := forestScale(marks)
	v.Axis = forestAxis(sc)
	rows := comparisonRows(c)
	short := make([][]string, len(rows))
	for i, row := range rows {
		short[i] = slices.Clone(row)
	}
	short = compactComparisonRows(c, short)
	for i, row := range rows {
		v.Rows = append(v.Rows, forestViewOf(row, short[i][len(row)-1], forestRow(sc, marks[i]), ests[i].Verdict))
	}
	if c.Dropped > 0 {
		v.Dropped = comparisonsDropped(c)
	}
	v.Rounds, v.RoundsLegend = compareRounds(c)
	return v
}

// forestViewOf splits an [estimateRow] into the forest table's cells
// (name, time, Δ, interval, the forks' range or ""), its plot and the
// verdict, shown as short with the row's whole reason folded.
func forestViewOf(row []string, short string, plot template.HTML, v verdict.Verdict) forestView {
	cells := append([]string{}, row[:4]...)
	forks := ""
	if len(row) == 6 {
		forks = row[4]
	}
	return forestView{Cells: append(cells, forks), Plot: plot, Verdict: verdictViewOf(short, row[len(row)-1]), Class: verdictClass(v)}
}

// compareRounds draws, per round, the control's and each candidate's
// time over the baseline's, when the rounds were recorded.
func compareRounds(c ComparisonRow) (template.HTML, []legendItem) {
	if len(c.RoundNs) != 2+len(c.Candidates) || len(c.RoundNs[0]) < 2 {
		return "", nil
	}
	ss := []series{{"control/" + c.Baseline + " − 1", "control", ratiosPct(c.RoundNs[1], c.RoundNs[0])}}
	for i, e := range c.Candidates {
		ss = append(ss, series{e.Name + "/" + c.Baseline + " − 1", seriesClass(i), ratiosPct(c.RoundNs[2+i], c.RoundNs[0])})
	}
	label := fmt.Sprintf("%s: each round's time over the baseline's, in percent", comparisonName(c))
	return roundsPlot(label, "rounds in order", ss, c.Negligible)
}

// againstView is the cross-build comparison: how it ran, the binaries, a
// forest table of every benchmark, the notes, the failed processes, and
// each benchmark's rounds and allocs/op.
type againstView struct {
	Title    string
	Binaries []string
	Empty    string
	Header   [2][]string
	Axis     template.HTML
	Rows     []againstRowView
	Legend   []string
	Notes    []string
	Failures []failureView
	Details  []againstDetail
	Open     bool
}

// againstRowView is one benchmark's row: the cells before the plot
// (name, medians, Δ, interval), the plot, and the cells after it; Name
// is the first cell's text, which may break after each "/"; Note
// explains a Δ marked [DisagreeMark], in a row under it of Cols cells.
type againstRowView struct {
	Name          template.HTML
	Before, After []string
	Plot          template.HTML
	Verdict       verdictView
	Class, Detail string
	Note          string
	Cols          int
}

// failureView is a failed process: what happened, and its output.
type failureView struct {
	Line, Output string
}

// againstDetail is one benchmark's rounds: new's and the control's ratio
// to the base per round, and both sides' allocs/op.
type againstDetail struct {
	ID, Name, Summary string
	Class             string
	Rounds            template.HTML
	RoundsLegend      []legendItem
	Allocs            template.HTML
	AllocsLegend      []legendItem
	AllocsNote        string
}

// againstPlotAt is where the forest plot sits among the cells of the
// compact cross-build table ([compactAgainstHeader]): after the
// interval.
const againstPlotAt = 5

// againstViewOf builds the view of a, or nil.
func againstViewOf(a *against.Result) *againstView {
	if a == nil {
		return nil
	}
	v := &againstView{Title: againstTitle(a), Binaries: binaryLines(a), Notes: againstNotes(a)}
	for _, f := range a.Failures {
		v.Failures = append(v.Failures, failureView{procFailureLine(f), strings.TrimRight(f.Output, "\n")})
	}
	if len(a.Benches) == 0 {
		v.Empty = "no benchmark was measured in both binaries"
		return v
	}
	marks := make([]forestMark, len(a.Benches))
	for i, b := range a.Benches {
		marks[i] = forestMark{label: b.Name, est: b.NewEst, measured: len(b.Base.NsPerOp) > 0, eps: a.Negligible, gate: a.GatePct,
			noise: [2]float64{b.ControlEst.LoPct, b.ControlEst.HiPct}, hasNoise: len(b.Base.NsPerOp) > 0}
	}
	sc := forestScale(marks)
	counted := instrCounted(a)
	head := compactAgainstHeader(counted)
	v.Axis, v.Header = forestAxis(sc), [2][]string{head[:againstPlotAt], head[againstPlotAt:]}
	for i, b := range a.Benches {
		c := againstCellsOf(b, counted)
		cells := c.compact(compactOutcome(b.NewEst, a.Negligible))
		d := againstDetailOf(fmt.Sprintf("against-%d", i+1), b, a.Negligible)
		v.Details = append(v.Details, d)
		v.Rows = append(v.Rows, againstRowView{Name: breakable(b.Name), Before: cells[:againstPlotAt], After: cells[againstPlotAt : len(cells)-1],
			Verdict: verdictViewOf(cells[len(cells)-1], c.verdict), Plot: forestRow(sc, marks[i]),
			Class: verdictClass(b.NewEst.Verdict), Detail: d.ID, Note: c.note, Cols: len(cells) + 1})
	}
	v.Legend, v.Open = againstLegend(a), len(v.Details) <= MaxOpenDetails
	return v
}

// breakable is name as HTML text that may break after each "/", where a
// sub-benchmark's name has its parts.
func breakable(name string) template.HTML {
	return template.HTML(strings.ReplaceAll(esc(name), "/", "/<wbr>"))
}

// againstDetailOf draws b's rounds (its runs, in lockstep) and, when
// they change, its allocs/op; its summary adds the mode and the
// control's Δ, which the table leaves out.
func againstDetailOf(id string, b against.Bench, eps float64) againstDetail {
	d := againstDetail{ID: id, Name: b.Name, Class: verdictClass(b.NewEst.Verdict),
		Summary: fmt.Sprintf("Δ %s %s · %s · %s · control Δ %s", textfmt.Pct(b.NewEst.DeltaPct), textfmt.Interval(b.NewEst.LoPct, b.NewEst.HiPct),
			b.NewEst.Verdict, dash(b.Mode), textfmt.Pct(b.ControlEst.DeltaPct))}
	ss := []series{
		{"new/base − 1", "s0", ratiosPct(b.New.NsPerOp, b.Base.NsPerOp)},
		{"control/base − 1 (base again)", "control", ratiosPct(b.Control.NsPerOp, b.Base.NsPerOp)},
	}
	label, per, what := b.Name+": each round's time over the base's, in percent", "round", "rounds in order"
	if b.Mode == against.ModeLockstep {
		label, per, what = b.Name+": each run's time over the base's run beside it, in percent", "run", "runs in order, triple after triple"
	}
	if seriesLen(ss) > 0 {
		d.Rounds, d.RoundsLegend = roundsPlot(label, what, ss, eps)
	}
	counts := []series{{"base", "base", b.Base.AllocsPerOp}, {"new", "s0", b.New.AllocsPerOp}, {"control", "control", b.Control.AllocsPerOp}}
	switch {
	case !hasFinite(b.Base.AllocsPerOp) && !hasFinite(b.New.AllocsPerOp):
		d.AllocsNote = "allocs/op: go test printed none (run with -benchmem, or call b.ReportAllocs)"
		return d
	case constantSeries(counts):
		d.AllocsNote = "allocs/op " + countCell(b.Allocs) + " in every " + per + " of both builds (not plotted), B/op " + countCell(b.Bytes)
		return d
	}
	d.Allocs = countsPlot(b.Name+": allocs/op per "+per, what, counts)
	for _, sr := range counts {
		d.AllocsLegend = append(d.AllocsLegend, legendItem{"key pt " + sr.class, sr.name + " allocs/op"})
	}
	d.AllocsNote = "allocs/op " + countCell(b.Allocs) + ", B/op " + countCell(b.Bytes)
	return d
}
