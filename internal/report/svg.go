package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// svg builds one inline <svg> element by hand. Coordinates are in CSS
// pixels with the origin at the top left; numbers are written with at
// most one decimal. The page's style sheet gives every class its colour,
// so an element carries only its geometry and a class.
type svg struct {
	b strings.Builder
}

// newSVG starts an SVG of w × h pixels with class and an accessible
// label, which is also its tooltip.
func newSVG(class, label string, w, h int) *svg { return openSVG(class, label, w, h, "") }

// newStretchSVG is [newSVG] for a plot the style sheet stretches to the
// height of its table row (preserveAspectRatio="none"): it must draw
// only fills, lines and dots whose strokes do not scale
// (vector-effect: non-scaling-stroke), never circles or text.
func newStretchSVG(class, label string, w, h int) *svg {
	return openSVG(class, label, w, h, ` preserveAspectRatio="none"`)
}

func openSVG(class, label string, w, h int, attrs string) *svg {
	s := &svg{}
	fmt.Fprintf(&s.b, `<svg class="%s" viewBox="0 0 %d %d" width="%d" height="%d"%s role="img" aria-label="%s"><title>%s</title>`,
		class, w, h, w, h, attrs, esc(label), esc(label))
	return s
}

// esc escapes s for element text and attribute values.
func esc(s string) string { return html.EscapeString(s) }

// coord formats a coordinate with at most one decimal.
func coord(x float64) string {
	return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64)
}

// rect draws a rectangle from (x, y) of w × h, with a tooltip when title
// is not empty. A negative size is drawn from the other corner.
func (s *svg) rect(class string, x, y, w, h float64, title string) {
	if w < 0 {
		x, w = x+w, -w
	}
	if h < 0 {
		y, h = y+h, -h
	}
	fmt.Fprintf(&s.b, `<rect class="%s" x="%s" y="%s" width="%s" height="%s"`, class, coord(x), coord(y), coord(w), coord(h))
	s.close("rect", title)
}

// line draws a line from (x1, y1) to (x2, y2).
func (s *svg) line(class string, x1, y1, x2, y2 float64) {
	fmt.Fprintf(&s.b, `<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s"/>`, class, coord(x1), coord(y1), coord(x2), coord(y2))
}

// text writes t at (x, y); anchor is "start", "middle" or "end".
func (s *svg) text(class string, x, y float64, anchor, t string) {
	fmt.Fprintf(&s.b, `<text class="%s" x="%s" y="%s" text-anchor="%s">%s</text>`, class, coord(x), coord(y), anchor, esc(t))
}

// path draws the path data d; nothing when d is empty.
func (s *svg) path(class, d string) {
	if d != "" {
		fmt.Fprintf(&s.b, `<path class="%s" d="%s"/>`, class, d)
	}
}

// dots draws one dot per point as a single path of zero-length strokes
// (the style sheet gives "dots" round caps and the dot's size), at whole
// pixels: about ten bytes a point, so a timeline of a thousand runs stays
// small.
func (s *svg) dots(class string, pts [][2]float64) {
	var d strings.Builder
	for _, p := range pts {
		d.WriteString("M" + strconv.Itoa(int(math.Round(p[0]))) + " " + strconv.Itoa(int(math.Round(p[1]))) + "h0")
	}
	s.path("dots "+class, d.String())
}

// close ends an element opened without its ">", with a <title> child
// when title is not empty.
func (s *svg) close(elem, title string) {
	if title == "" {
		s.b.WriteString("/>")
		return
	}
	fmt.Fprintf(&s.b, "><title>%s</title></%s>", esc(title), elem)
}

// done ends the element and returns it for a template. Every text in it
// went through [esc].
func (s *svg) done() template.HTML {
	s.b.WriteString("</svg>")
	return template.HTML(s.b.String())
}

// scale maps the domain [d0, d1] linearly onto the range [r0, r1]; a
// range may run backwards (r0 > r1, as a y axis does). An empty domain
// maps everything to the middle of the range.
type scale struct {
	d0, d1, r0, r1 float64
}

func (s scale) at(v float64) float64 {
	if s.d1 == s.d0 {
		return (s.r0 + s.r1) / 2
	}
	return s.r0 + (v-s.d0)/(s.d1-s.d0)*(s.r1-s.r0)
}

// span returns the smallest and largest finite value of xs; ok is false
// when there is none.
func span(xs ...float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if finite(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	return lo, hi, lo <= hi
}

// padded widens [lo, hi] by frac of its width on each side, or by pad
// when it is empty (lo = hi).
func padded(lo, hi, frac, pad float64) (float64, float64) {
	if hi <= lo {
		return lo - pad, hi + pad
	}
	d := (hi - lo) * frac
	return lo - d, hi + d
}

// niceTicks returns about n round values in [lo, hi]: multiples of 1, 2
// or 5 times a power of ten.
func niceTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) || n < 1 {
		return nil
	}
	raw := (hi - lo) / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * p
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// pctTick labels a tick of a Δ axis: "+2%", "0", "−5%".
func pctTick(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v > 0:
		return "+" + strconv.FormatFloat(v, 'f', -1, 64) + "%"
	}
	return "−" + strconv.FormatFloat(-v, 'f', -1, 64) + "%"
}
