package report

import (
	"fmt"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"html/template"
	"math"
	"slices"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// The HTML report's plots. Each is a function of an analysis's values
// and returns one <svg>; the classes they use are styled in html.css.

// Sizes, in pixels, of a forest plot's row and axis.
const (
	forestW     = 320
	forestRowH  = 22
	forestAxisH = 24
	forestPad   = 18
)

// Sizes, in pixels, of the plots with a value axis: the timeline, the
// histogram beside it, and the rounds and counts of -benchkit.against.
const (
	plotW      = 560
	plotH      = 150
	plotTop    = 8
	plotBottom = 22
	plotLeft   = 64
	plotRight  = 10
	histW      = 180
	histBins   = 24
)

// forestMark is one row of a forest plot: an estimate's Δ and interval
// in percent, each process's own Δ as a dot (ForkDeltaPct: forks, or
// triples of processes), over the ±ε band and, when known, the control's
// interval (the noise floor); gate draws the gate's line when positive.
type forestMark struct {
	label     string
	est       verdict.Estimate
	measured  bool
	noise     [2]float64
	hasNoise  bool
	eps, gate float64
}

// values returns every number m draws, for [forestScale].
func (m forestMark) values() []float64 {
	vs := []float64{-m.eps, m.eps}
	if m.measured {
		vs = append(vs, m.est.DeltaPct, m.est.LoPct, m.est.HiPct)
		vs = append(vs, m.est.ForkDeltaPct...)
	}
	if m.hasNoise {
		vs = append(vs, m.noise[0], m.noise[1])
	}
	if m.gate > 0 {
		vs = append(vs, m.gate)
	}
	return vs
}

// forestScale is the Δ axis shared by the rows of one forest plot: 0 and
// every finite value the marks draw, widened by 8% of that span on each
// side (by 1 point when it is empty).
func forestScale(marks []forestMark) scale {
	vs := []float64{0}
	for _, m := range marks {
		vs = append(vs, m.values()...)
	}
	lo, hi, _ := span(vs...)
	lo, hi = padded(lo, hi, 0.08, 1)
	return scale{lo, hi, forestPad, forestW - forestPad}
}

// verdictClass is the class of a verdict's marks: "v-faster", "v-slower",
// "v-same" or "v-undecided".
func verdictClass(v verdict.Verdict) string {
	switch v {
	case verdict.Faster, verdict.Slower, verdict.Same:
		return "v-" + string(v)
	}
	return "v-undecided"
}

// forestRow draws one mark on sc: the bands, the zero and gate lines, the
// interval with its Δ, and the per-process dots below it, in an SVG
// that stretches to its table row's height.
func forestRow(sc scale, m forestMark) template.HTML {
	label := m.label + ": no rounds"
	if m.measured {
		label = fmt.Sprintf("%s: Δ %s %s", m.label, textfmt.Pct(m.est.DeltaPct), textfmt.Interval(m.est.LoPct, m.est.HiPct))
	}
	s := newStretchSVG("forest-row", label, forestW, forestRowH)
	h, mid := float64(forestRowH), float64(forestRowH)/2
	s.rect("eps", sc.at(-m.eps), 0, sc.at(m.eps)-sc.at(-m.eps), h, fmt.Sprintf("±ε: changes within ±%s%% are negligible", fmtNum(m.eps)))
	if m.hasNoise && finite(m.noise[0]) && finite(m.noise[1]) {
		s.rect("noise", sc.at(m.noise[0]), 0, sc.at(m.noise[1])-sc.at(m.noise[0]), h,
			fmt.Sprintf("noise floor: the control's interval [%s, %s]", textfmt.Pct(m.noise[0]), textfmt.Pct(m.noise[1])))
	}
	s.line("zero", sc.at(0), 0, sc.at(0), h)
	if m.gate > 0 {
		s.line("gate", sc.at(m.gate), 0, sc.at(m.gate), h)
	}
	if !m.measured {
		return s.done()
	}
	cls := verdictClass(m.est.Verdict)
	if lo, hi := m.est.LoPct, m.est.HiPct; finite(lo) && finite(hi) {
		s.line("ci "+cls, sc.at(lo), mid, sc.at(hi), mid)
		s.line("ci "+cls, sc.at(lo), mid-4, sc.at(lo), mid+4)
		s.line("ci "+cls, sc.at(hi), mid-4, sc.at(hi), mid+4)
	}
	var pts [][2]float64
	for _, d := range m.est.ForkDeltaPct {
		if finite(d) {
			pts = append(pts, [2]float64{sc.at(d), mid + 6})
		}
	}
	s.dots("fork", pts)
	if finite(m.est.DeltaPct) {
		p := [][2]float64{{sc.at(m.est.DeltaPct), mid}}
		s.dots("ring", p)
		s.dots("est "+cls, p)
	}
	return s.done()
}

// forestAxis draws the Δ axis of sc, with round ticks in percent.
func forestAxis(sc scale) template.HTML {
	s := newSVG("forest-axis", "Δ in percent", forestW, forestAxisH)
	s.line("axis", sc.r0, 1, sc.r1, 1)
	for _, v := range niceTicks(sc.d0, sc.d1, 5) {
		x := sc.at(v)
		s.line("axis", x, 1, x, 6)
		s.text("tick", x, 18, "middle", pctTick(v))
	}
	return s.done()
}

// valueScale is the ns/op axis of a row's timeline and histogram, bottom
// to top: from the smallest sample to the largest, widened by 4% each
// side; with at least 8 samples it stops at Tukey's severe fence Q3 +
// 3·IQR when samples lie above it (clipped), so that a few spikes do not
// flatten the rest, as the text report's strip plot does.
func valueScale(xs []float64) (sc scale, clipped bool) {
	lo, hi, _ := span(xs...)
	if len(xs) >= 8 {
		if o, ok := stats.Tukey(xs); ok {
			if fence := o.Q3 + 3*o.IQR; fence < hi && fence > lo {
				hi, clipped = fence, true
			}
		}
	}
	lo, hi = padded(lo, hi, 0.04, math.Max(math.Abs(lo)*0.01, 1e-9))
	return scale{lo, hi, plotH - plotBottom, plotTop}, clipped
}

// sampleClasses returns the class of each of r's samples: "low" or
// "high" inside a regime's segments, else "plain".
func sampleClasses(r Row) []string {
	cls := make([]string, len(r.Samples))
	for i := range cls {
		cls[i] = "plain"
	}
	if g := r.Regimes; g != nil {
		mark := func(segs [][2]int, c string) {
			for _, sg := range segs {
				for i := max(sg[0], 0); i < min(sg[1], len(cls)); i++ {
					cls[i] = c
				}
			}
		}
		mark(g.Low.Segments, "low")
		mark(g.High.Segments, "high")
	}
	return cls
}

// valueFrame draws the y axis of a plot plotW wide (the ticks, labelled
// by label, with grid lines), and under the x axis the first and last
// index, 1 and n, and what the points are.
func valueFrame(s *svg, y scale, ticks []float64, label func(float64) string, n int, what string) {
	for _, v := range ticks {
		s.line("grid", plotLeft, y.at(v), plotW-plotRight, y.at(v))
		s.text("tick", plotLeft-4, y.at(v)+4, "end", label(v))
	}
	base := float64(plotH - plotBottom)
	s.line("axis", plotLeft, base, plotW-plotRight, base)
	s.text("tick", plotLeft, plotH-6, "start", "1")
	s.text("tick", plotW-plotRight, plotH-6, "end", fmt.Sprint(n))
	s.text("tick", (plotLeft+plotW-plotRight)/2, plotH-6, "middle", what)
}

// indexScale maps sample indices 0 … n−1 onto the plot's width.
func indexScale(n int) scale {
	return scale{0, float64(max(n-1, 0)), plotLeft + 4, plotW - plotRight - 4}
}

// timeline draws r's samples in order on y: a dot each, coloured by
// regime, outliers (Tukey's fences) ringed, a cold first sample marked, a
// high stretch shaded, the regimes' centres and the median as lines, and
// the samples above a clipped scale as triangles at the top.
func timeline(r Row, y scale, clipped bool) template.HTML {
	unit := "runs"
	if r.Source == SourceBatches {
		unit = "batches"
	}
	n := len(r.Samples)
	s := newSVG("timeline", fmt.Sprintf("%s: %d %s in order, ns/op", r.Display, n, unit), plotW, plotH)
	x := indexScale(n)
	if st := r.HighStretch; st[1] > st[0] {
		s.rect("stretch", x.at(float64(st[0]))-3, plotTop, x.at(float64(st[1]-1))-x.at(float64(st[0]))+6, plotH-plotTop-plotBottom,
			fmt.Sprintf("%d %s in a row above the upper fence", st[1]-st[0], unit))
	}
	valueFrame(s, y, niceTicks(y.d0, y.d1, 5), fmtNs, n, unit+" in order")
	if m, ok := stats.Median(r.Samples); ok {
		s.line("median", plotLeft, y.at(m), plotW-plotRight, y.at(m))
	}
	if g := r.Regimes; g != nil {
		s.line("center low", plotLeft, y.at(g.Low.Center), plotW-plotRight, y.at(g.Low.Center))
		s.line("center high", plotLeft, y.at(g.High.Center), plotW-plotRight, y.at(g.High.Center))
	}
	timelinePoints(s, r, x, y, clipped)
	return s.done()
}

// timelinePoints draws timeline's dots: the outliers' rings first, then
// the samples by class, the clipped ones as triangles, and the cold
// first sample.
func timelinePoints(s *svg, r Row, x, y scale, clipped bool) {
	top := y.d1
	at := func(i int) [2]float64 { return [2]float64{x.at(float64(i)), y.at(min(r.Samples[i], top))} }
	if o := r.Outliers; o != nil {
		var ring [][2]float64
		for _, i := range o.Indices {
			if i < len(r.Samples) {
				ring = append(ring, at(i))
			}
		}
		s.dots("halo", ring)
	}
	byClass := map[string][][2]float64{}
	var tri string
	for i, c := range sampleClasses(r) {
		if clipped && r.Samples[i] > top {
			p := at(i)
			tri += "M" + coord(p[0]) + " " + coord(p[1]) + "l-4 7h8z"
			continue
		}
		byClass[c] = append(byClass[c], at(i))
	}
	for _, c := range []string{"plain", "low", "high"} {
		s.dots("pt "+c, byClass[c])
	}
	s.path("clip", tri)
	if r.ColdStart > 0 && len(r.Samples) > 0 {
		s.dots("cold", [][2]float64{at(0)})
	}
}

// histogram draws the distribution of r's samples on the timeline's y
// scale, as histBins horizontal bars stacked by regime (one path per
// regime), with the median and Tukey's inner fences Q1 − 1.5·IQR and
// Q3 + 1.5·IQR as lines; samples above a clipped scale count in the top
// bin.
func histogram(r Row, y scale) template.HTML {
	s := newSVG("histogram", fmt.Sprintf("%s: distribution of %d samples", r.Display, len(r.Samples)), histW, plotH)
	counts := make([]map[string]int, histBins)
	most := 0
	width := (y.d1 - y.d0) / histBins
	for i, c := range sampleClasses(r) {
		b := 0
		if width > 0 {
			b = min(max(int((r.Samples[i]-y.d0)/width), 0), histBins-1)
		}
		if counts[b] == nil {
			counts[b] = map[string]int{}
		}
		counts[b][c]++
		most = max(most, counts[b]["plain"]+counts[b]["low"]+counts[b]["high"])
	}
	x := scale{0, float64(max(most, 1)), 4, histW - 12}
	bars := map[string]string{}
	for b, cs := range counts {
		top, bottom := y.at(y.d0+float64(b+1)*width), y.at(y.d0+float64(b)*width)
		left := x.at(0)
		for _, c := range []string{"plain", "low", "high"} {
			if k := cs[c]; k > 0 {
				w := x.at(float64(k)) - x.at(0)
				bars[c] += "M" + coord(left) + " " + coord(top+0.5) + "h" + coord(w) + "V" + coord(bottom-0.5) + "h" + coord(-w) + "z"
				left += w
			}
		}
	}
	for _, c := range []string{"plain", "low", "high"} {
		s.path("bar "+c, bars[c])
	}
	if m, ok := stats.Median(r.Samples); ok {
		s.line("median", 0, y.at(m), histW, y.at(m))
	}
	if o := r.Outliers; o != nil {
		for _, f := range []float64{o.Q1 - 1.5*o.IQR, o.Q3 + 1.5*o.IQR} {
			if f > y.d0 && f < y.d1 {
				s.line("fence", 0, y.at(f), histW, y.at(f))
			}
		}
	}
	base := float64(plotH - plotBottom)
	s.line("axis", x.r0, base, x.r1, base)
	s.text("tick", x.r0, plotH-6, "start", "0")
	s.text("tick", x.r1, plotH-6, "end", fmt.Sprintf("%d per bin", most))
	return s.done()
}

// series is one set of values in round order, drawn in class.
type series struct {
	name, class string
	ys          []float64
}

// seriesLen is the length of the longest of ss.
func seriesLen(ss []series) int {
	n := 0
	for _, sr := range ss {
		n = max(n, len(sr.ys))
	}
	return n
}

// seriesScales returns the scales of a plot of ss by round: x over the
// n rounds of the longest series, y over the finite values of ss and
// extra, widened by frac of their span on each side (by 1 when it is
// empty).
func seriesScales(ss []series, frac float64, extra ...float64) (x, y scale, n int) {
	vs := extra
	for _, sr := range ss {
		vs = append(vs, sr.ys...)
	}
	lo, hi, _ := span(vs...)
	lo, hi = padded(lo, hi, frac, 1)
	n = seriesLen(ss)
	return indexScale(n), scale{lo, hi, plotH - plotBottom, plotTop}, n
}

// roundsPlot draws, per round (or run: what names them under the x
// axis), each series' Δ in percent (a ratio to the base minus 1) as a dot, and its median as a dashed line, over the ±ε
// band and the zero line, and returns it with its legend. The axis spans
// the bulk of the points ([bulkSpan]) with 0, ±ε and the medians; a
// point beyond it is drawn as a triangle at the edge it passed, and the
// legend counts them.
func roundsPlot(label, what string, ss []series, eps float64) (template.HTML, []legendItem) {
	var all []float64
	extra := []float64{0, -eps, eps}
	for _, sr := range ss {
		all = append(all, sr.ys...)
		if m, ok := stats.Median(finiteSlice(sr.ys)); ok {
			extra = append(extra, m)
		}
	}
	lo, hi, _ := bulkSpan(all)
	lo, hi, _ = span(append(extra, lo, hi)...)
	lo, hi = padded(lo, hi, 0.08, 1)
	x, y, n := indexScale(seriesLen(ss)), scale{lo, hi, plotH - plotBottom, plotTop}, seriesLen(ss)
	s := newSVG("rounds", label, plotW, plotH)
	s.rect("eps", plotLeft, y.at(eps), plotW-plotRight-plotLeft, y.at(-eps)-y.at(eps), fmt.Sprintf("±ε: changes within ±%s%% are negligible", fmtNum(eps)))
	valueFrame(s, y, niceTicks(y.d0, y.d1, 4), pctTick, n, what)
	s.line("zero", plotLeft, y.at(0), plotW-plotRight, y.at(0))
	clipped := 0
	var tri string
	for _, sr := range ss {
		var pts [][2]float64
		for i, v := range sr.ys {
			switch px := x.at(float64(i)); {
			case !finite(v):
			case v > y.d1:
				tri += "M" + coord(px) + " " + coord(y.at(y.d1)) + "l-4 7h8z"
				clipped++
			case v < y.d0:
				tri += "M" + coord(px) + " " + coord(y.at(y.d0)) + "l-4 -7h8z"
				clipped++
			default:
				pts = append(pts, [2]float64{px, y.at(v)})
			}
		}
		if m, ok := stats.Median(finiteSlice(sr.ys)); ok {
			s.line("med "+sr.class, plotLeft, y.at(m), plotW-plotRight, y.at(m))
		}
		s.dots("pt "+sr.class, pts)
	}
	s.path("clip", tri)
	var items []legendItem
	for _, sr := range ss {
		items = append(items, legendItem{"key pt " + sr.class, sr.name + " (dashed: the median)"})
	}
	items = append(items, legendItem{"key eps", fmt.Sprintf("±ε = ±%s%%: negligible", fmtNum(eps))})
	if clipped > 0 {
		items = append(items, legendItem{"key clip", fmt.Sprintf("%s beyond the scale, which spans the bulk of the points (%s … %s), drawn at its edge",
			textfmt.Plural(clipped, "point"), textfmt.Pct(y.d0), textfmt.Pct(y.d1))})

	}
	return s.done(), items
}

// bulkSpan returns the range a scatter of xs is scaled to: from the
// smallest to the largest finite value within Tukey's severe fences,
// Q1 − 3·IQR and Q3 + 3·IQR, which the bulk of any unimodal sample lies
// well inside, so that a few far points do not flatten it. With fewer
// than 8 finite values, or quartiles that coincide (IQR 0: no spread to
// judge by), it is their whole span. ok is false when xs holds no
// finite value.
func bulkSpan(xs []float64) (lo, hi float64, ok bool) {
	fs := finiteSlice(xs)
	lo, hi, ok = span(fs...)
	o, tukey := stats.Tukey(fs)
	if !ok || len(fs) < 8 || !tukey || o.IQR <= 0 {
		return lo, hi, ok
	}
	inLo, inHi := math.Inf(1), math.Inf(-1)
	for _, v := range fs {
		if v >= o.Q1-3*o.IQR && v <= o.Q3+3*o.IQR {
			inLo, inHi = math.Min(inLo, v), math.Max(inHi, v)
		}
	}
	return inLo, inHi, true
}

// constantSeries reports whether every finite value of ss is the same
// (or there is none): a plot of them would be one flat line.
func constantSeries(ss []series) bool {
	var all []float64
	for _, sr := range ss {
		all = append(all, sr.ys...)
	}
	lo, hi, ok := span(all...)
	return !ok || lo == hi
}

// countsPlot draws per-op counts (allocs/op) per round (or run: what
// names them under the x axis), one line with
// dots per series, on an axis from the smallest count to the largest
// (±1 when they are all equal), with whole-number ticks. Series drawn
// later sit on top: the style sheet makes the first one's dots the
// largest, so that equal counts stay visible.
func countsPlot(label, what string, ss []series) template.HTML {
	x, y, n := seriesScales(ss, 0.1)
	s := newSVG("counts", label, plotW, plotH)
	var ticks []float64
	for _, v := range niceTicks(y.d0, y.d1, 4) {
		if v == math.Trunc(v) && v >= 0 {
			ticks = append(ticks, v)
		}
	}
	valueFrame(s, y, ticks, fmtCount, n, what)
	for _, sr := range ss {
		var d string
		var pts [][2]float64
		for i, v := range sr.ys {
			if !finite(v) {
				continue
			}
			p := [2]float64{x.at(float64(i)), y.at(v)}
			cmd := "L"
			if len(pts) == 0 {
				cmd = "M"
			}
			d += cmd + coord(p[0]) + " " + coord(p[1])
			pts = append(pts, p)
		}
		s.path("line "+sr.class, d)
		s.dots("pt "+sr.class, pts)
	}
	return s.done()
}

// ratiosPct returns (num[i]/den[i] − 1)·100 for each round both have,
// NaN where a ratio is not a finite positive number over a positive one.
func ratiosPct(num, den []float64) []float64 {
	out := make([]float64, min(len(num), len(den)))
	for i := range out {
		out[i] = math.NaN()
		if den[i] > 0 && num[i] >= 0 && finite(num[i]) && finite(den[i]) {
			out[i] = (num[i]/den[i] - 1) * 100
		}
	}
	return out
}

// seriesClasses are the classes of a comparison's candidates, in order,
// repeating after the sixth.
var seriesClasses = []string{"s0", "s1", "s2", "s3", "s4", "s5"}

// seriesClass is the class of candidate i.
func seriesClass(i int) string { return seriesClasses[i%len(seriesClasses)] }

// hasFinite reports whether xs holds a finite value.
func hasFinite(xs []float64) bool { return slices.ContainsFunc(xs, finite) }
