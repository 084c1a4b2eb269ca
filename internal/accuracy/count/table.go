package count

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/count"
)

// row is one workload and build of the table (see the package doc for
// the columns).
type row struct {
	workload, build string
	n               int       // counts taken
	perOp           float64   // median instructions per op
	spreadPct       float64   // (max − min)/median, percent
	deltas          []float64 // vs the same repetition's base, percent; base: none
	changed, pairs  int       // comparisons count.Compare called a change, of pairs
	rightSign       int       // deltas > 0
	wall            time.Duration
	processes       float64 // median processes per count
	// verdicts are -benchkit.against's time verdicts on the build, one
	// per repetition that ran one.
	verdicts []string
}

// rows computes the table's rows of workloads from the measurements of
// r repetitions.
func rows(ms []measurement, workloads []string, r int) []row {
	var out []row
	for _, w := range workloads {
		byRep := map[string][]*count.Result{}
		for _, b := range builds {
			byRep[b.name] = make([]*count.Result, r)
		}
		verdicts := map[string][]string{}
		for i := range ms {
			if m := ms[i]; m.workload == w {
				byRep[m.build][m.rep] = &ms[i].res
				if m.against != "" {
					verdicts[m.build] = append(verdicts[m.build], m.against)
				}
			}
		}
		for _, b := range builds {
			rw := rowOf(w, b.name, byRep[b.name], byRep["base"])
			rw.verdicts = verdicts[b.name]
			out = append(out, rw)
		}
	}
	return out
}

// rowOf is the row of one workload's build, from its counts and the base
// counts, both indexed by repetition (nil where a count failed).
func rowOf(workload, build string, counts, base []*count.Result) row {
	rw := row{workload: workload, build: build}
	var perOp, procs []float64
	var walls []time.Duration
	for i, c := range counts {
		if c == nil {
			continue
		}
		perOp, procs, walls = append(perOp, c.PerOp), append(procs, float64(len(c.Runs))), append(walls, c.Wall)
		var ch count.Change
		switch {
		case build == "base" && i > 0 && counts[i-1] != nil:
			ch = count.Compare(*counts[i-1], *c)
		case build != "base" && base[i] != nil:
			ch = count.Compare(*base[i], *c)
			rw.deltas = append(rw.deltas, ch.DeltaPct)
			if ch.DeltaPct > 0 {
				rw.rightSign++
			}
		default:
			continue
		}
		rw.pairs++
		if ch.Changed {
			rw.changed++
		}
	}
	rw.n = len(perOp)
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
