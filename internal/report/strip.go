package report

import (
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
	// Lo and Hi are the values mapped to ▁ and █; Max is the largest
	// point. Clipped is true when Hi < Max: the scale stops at Tukey's
	// severe fence so that a few spikes do not flatten everything else.
	Lo, Hi, Max float64
	Clipped     bool
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
	vs := stats.Compress(finiteSlice(xs), max(width, 1))
	if len(vs) == 0 {
		return StripPlot{}
	}
	s := StripPlot{Lo: slices.Min(vs), Max: slices.Max(vs)}
	s.Hi = s.Max
	if len(vs) >= 8 {
		if o, ok := stats.Tukey(vs); ok {
			if fence := o.Q3 + 3*o.IQR; fence < s.Max && fence > s.Lo {
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
