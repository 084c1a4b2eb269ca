package count

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// row is one workload and build of the table (see the package doc for
// the columns).
type row struct {
	workload, build string
	n               int       // counts taken
	perOp           float64   // median instructions per op
	spreadPct       float64   // (max − min)/median, percent
	deltas          []float64 // vs the same repetition's base, percent; base: none
	changed, pairs  int       // pairs count.Pair called a change, of pairs
	rightSign       int       // deltas > 0
	wall            time.Duration
	processes       float64 // median processes per count
	// verdicts are -benchkit.against's time verdicts on the build, one
	// per repetition that ran one.
	verdicts []string
}

// rows computes the table's rows of workloads from the measurements.
func rows(ms []measurement, workloads []string) []row {
	var out []row
	for _, w := range workloads {
		for _, b := range builds {
			var of []measurement
			for _, m := range ms {
				if m.workload == w && m.build == b.name {
					of = append(of, m)
				}
			}
			out = append(out, rowOf(w, b.name, of))
		}
	}
	return out
}

// rowOf is the row of one workload's build from its measurements.
func rowOf(workload, build string, ms []measurement) row {
	rw := row{workload: workload, build: build, n: len(ms), pairs: len(ms)}
	var perOp, procs []float64
	var walls []time.Duration
	for _, m := range ms {
		perOp, procs, walls = append(perOp, m.res.PerOp), append(procs, float64(len(m.res.Runs))), append(walls, m.res.Wall)
		if m.change.Changed {
			rw.changed++
		}
		if build != "base" {
			rw.deltas = append(rw.deltas, m.change.DeltaPct)
			if m.change.DeltaPct > 0 {
				rw.rightSign++
			}
		}
		if m.against != "" {
			rw.verdicts = append(rw.verdicts, m.against)
		}
	}
	rw.perOp = harness.MedianOrNaN(perOp)
	rw.spreadPct = spreadPct(perOp)
	rw.wall = harness.MedianDuration(walls)
	rw.processes = harness.MedianOrNaN(procs)
	return rw
}

// spreadPct returns (max − min)/median of xs in percent, NaN for none.
func spreadPct(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return 100 * (slices.Max(xs) - slices.Min(xs)) / harness.MedianOrNaN(xs)
}

// printTable writes rs as a markdown table.
func printTable(w io.Writer, rs []row) {
	fmt.Fprintln(w, "| workload | build | counts | instr/op | spread | Δ median [range] | changed | right sign | cost / count | against (time) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rs {
		delta, sign := "–", "–"
		if r.build != "base" {
			delta, sign = deltaCell(r.deltas), fmt.Sprintf("%d/%d", r.rightSign, len(r.deltas))
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.1f | %.3f%% | %s | %d/%d | %s | %.1f s, %.0f processes | %s |\n",
			r.workload, r.build, r.n, r.perOp, r.spreadPct, delta, r.changed, r.pairs, sign, r.wall.Seconds(), r.processes,
			verdictCell(r.verdicts, r.build == "base"))
	}
}

// deltaCell is "+0.97% [+0.95, +0.99]", or "–" for none.
func deltaCell(ds []float64) string {
	if len(ds) == 0 {
		return "–"
	}
	return fmt.Sprintf("%+.2f%% [%+.2f, %+.2f]", harness.MedianOrNaN(ds), slices.Min(ds), slices.Max(ds))
}

// verdictCell tallies -benchkit.against's verdicts: "flagged 1/10,
// undecided 2" for identical code (zero), "slower 9/10, undecided 1"
// otherwise; "–" for none.
func verdictCell(verdicts []string, zero bool) string {
	if len(verdicts) == 0 {
		return "–"
	}
	t := harness.TallyVerdicts(verdicts, zero)
	word := "slower"
	if zero {
		word = "flagged"
	}
	return fmt.Sprintf("%s %d/%d, undecided %d", word, t.Flagged, t.N, t.Undecided)
}
