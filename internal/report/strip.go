package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/stats"
)

// blocks are the strip plot's levels, lowest first.
var blocks = []rune("▁▂▃▄▅▆▇█")

// StripPlot is a one-line plot made by [Strip].
type StripPlot struct {
	// Plot is one block character per point, ▁ at Lo, █ at Hi and above.
	Plot string
	// Lo and Hi are the values mapped to ▁ and █. Clipped is true when Hi
	// is below the largest point plotted: the scale stops at Tukey's
	// severe fence so that a few spikes do not flatten everything else.
	Lo, Hi  float64
	Clipped bool
	// Min and Max are the smallest and largest finite values of the data,
	// which differ from the points plotted when PerColumn > 1.
	Min, Max float64
	// PerColumn is how many consecutive values each character is the mean
	// of: 1 when there are at most width values, else ⌈n/width⌉ (the last
	// bucket may be shorter; [stats.Compress]).
	PerColumn int
}

// Strip returns a strip plot of xs in order, one block character per
// value, linear from ▁ at the smallest to █ at the largest. When xs has
// more than width values, each character is the mean of a bucket of
// consecutive values ([stats.Compress]). With at least 8 points, points
// above Q3 + 3·IQR of the plotted points (Tukey's severe fence) are drawn
// as █ and the scale stops at the fence: a single 100× spike would
// otherwise squash every other point to ▁. Two regimes are never clipped
// this way, as the quartiles span both. Non-finite values are skipped; an
// empty or all-equal xs gives a flat line.
func Strip(xs []float64, width int) StripPlot {
	data := finiteSlice(xs)
	if len(data) == 0 {
		return StripPlot{}
	}
	width = max(width, 1)
	s := StripPlot{Min: slices.Min(data), Max: slices.Max(data), PerColumn: (len(data) + width - 1) / width}
	vs := stats.Compress(data, width)
	s.Lo, s.Hi = slices.Min(vs), slices.Max(vs)
	if len(vs) >= 8 {
		if o, ok := stats.Tukey(vs); ok {
			if fence := o.Q3 + 3*o.IQR; fence < s.Hi && fence > s.Lo {
				s.Hi, s.Clipped = fence, true
			}
		}
	}
	var sb strings.Builder
	for _, v := range vs {
		i := 0
		if s.Hi > s.Lo {
			i = int(math.Round((v - s.Lo) / (s.Hi - s.Lo) * float64(len(blocks)-1)))
		}
		sb.WriteRune(blocks[max(0, min(i, len(blocks)-1))])
	}
	s.Plot = sb.String()
	return s
}

// Label is the plot's range: the data's minimum and maximum, then, in
// parentheses, how many of unit ("runs", "batches") each character is the
// mean of when more than one, and where the scale stops when clipped:
// "43.51ns … 41.70µs (means of 18 batches per column; █ at 8.091µs and
// above)".
func (s StripPlot) Label(unit string) string {
	var notes []string
	if s.PerColumn > 1 {
		notes = append(notes, fmt.Sprintf("means of %d %s per column", s.PerColumn, unit))
	}
	if s.Clipped {
		notes = append(notes, "█ at "+fmtNs(s.Hi)+" and above")
	}
	label := fmtNs(s.Min) + " … " + fmtNs(s.Max)
	if len(notes) > 0 {
		label += " (" + strings.Join(notes, "; ") + ")"
	}
	return label
}
