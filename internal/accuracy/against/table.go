package against

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// cell is one scenario × method: its outcomes per workload, repetition by
// repetition, and the repetitions' wall times.
type cell struct {
	scenario, method string
	outs             map[string][]outcome
	walls            []time.Duration
}

func (c *cell) add(outs map[string]outcome, wall time.Duration) {
	if c.outs == nil {
		c.outs = map[string][]outcome{}
	}
	for w, o := range outs {
		c.outs[w] = append(c.outs[w], o)
	}
	c.walls = append(c.walls, wall)
}

// summary is a row of the table: one workload of a cell.
type summary struct {
	tally            harness.Tally
	medDelta, medW   float64 // NaN: no interval
	covered, withInt int
}

// summarize tallies outs: verdicts against the truth (zero for A/A), the
// median Δ, the median width and how many intervals hold the median Δ.
func summarize(outs []outcome, zero bool) summary {
	var verdicts []string
	var deltas, widths []float64
	for _, o := range outs {
		verdicts, deltas = append(verdicts, o.verdict), append(deltas, o.delta)
		if o.hasInterval {
			widths = append(widths, o.hi-o.lo)
		}
	}
	s := summary{tally: harness.TallyVerdicts(verdicts, zero), medDelta: harness.MedianOrNaN(deltas), medW: harness.MedianOrNaN(widths)}
	for _, o := range outs {
		if o.hasInterval {
			s.withInt++
			if o.lo <= s.medDelta && s.medDelta <= o.hi {
				s.covered++
			}
		}
	}
	return s
}

// printTable writes one row per workload and cell, aligned in columns.
func printTable(out io.Writer, cells []*cell) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "workload\tscenario\tmethod\tflagged / caught\twrong sign\tundecided\tmedian Δ\tmedian width\tcoverage\twall / rep")
	for _, wl := range workloads {
		for _, c := range cells {
			s := summarize(c.outs[wl], c.scenario == "A/A" || c.scenario == "A/A rebuilt")
			und, width, cov := strconv.Itoa(s.tally.Undecided), "–", "–"
			if c.method == "plain" {
				und = "–"
			}
			if s.withInt > 0 {
				width, cov = fmt.Sprintf("%.2f", s.medW), fmt.Sprintf("%d/%d", s.covered, s.withInt)
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%d/%d\t%d\t%s\t%s\t%s\t%s\t%s\n", wl, c.scenario, c.method, s.tally.Flagged, s.tally.N, s.tally.Wrong, und,
				signed(s.medDelta), width, cov, harness.MedianDuration(c.walls).Round(100*time.Millisecond))
		}
	}
	_ = w.Flush()
}

func signed(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%+.2f%%", x)
}
