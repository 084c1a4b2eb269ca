package against

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// cell is one scenario × method: its outcomes per workload, repetition by
// repetition, and each workload's wall times (one a repetition, of the
// invocations that measured it).
type cell struct {
	scenario, method string
	outs             map[string][]outcome
	walls            map[string][]time.Duration
}

// add adds one repetition's share of the cell: its outcomes by workload,
// and the wall time of each workload's invocations (a workload without
// one, as in a log line of the joint invocations of old, adds none).
func (c *cell) add(outs map[string]outcome, walls map[string]time.Duration) {
	if c.outs == nil {
		c.outs, c.walls = map[string][]outcome{}, map[string][]time.Duration{}
	}
	for w, o := range outs {
		c.outs[w] = append(c.outs[w], o)
	}
	for w, d := range walls {
		c.walls[w] = append(c.walls[w], d)
	}
}

// summary is a row of the table: one workload of a cell.
type summary struct {
	tally           harness.Tally
	medDelta, medW  float64 // NaN: no Δ, no interval
	withInt         int     // outcomes with an interval
	holdsMed        int     // intervals holding medDelta
	holdsTruth      int     // intervals holding the truth Δ (0 when unknown)
	triples         float64 // lockstep: the median triples run; NaN elsewhere
	stops           string  // lockstep: the stop reasons tallied; "" elsewhere
	between, within float64 // lockstep: the median CVs in percent; NaN unknown
	mutator, cycles float64 // lockstep, allocating: the median collector parts in percent; NaN unknown
}

// summarize tallies outs: verdicts against the sign of the truth (zero
// for A/A), the median Δ, the median width, how many intervals hold the
// median Δ and how many the truth Δ truth (NaN: unknown, none counted),
// and lockstep's triples, stops and variance components.
func summarize(outs []outcome, zero bool, truth float64) summary {
	var verdicts []string
	var deltas, widths, triples, between, within, mutator, cycles []float64
	for _, o := range outs {
		verdicts, deltas = append(verdicts, o.verdict), append(deltas, o.delta)
		if o.hasInterval {
			widths = append(widths, o.hi-o.lo)
		}
		if o.triples > 0 {
			triples = append(triples, float64(o.triples))
		}
		between, within = appendKnown(between, o.between), appendKnown(within, o.within)
		mutator, cycles = appendKnown(mutator, o.mutator), appendKnown(cycles, o.cycles)
	}
	s := summary{tally: harness.TallyVerdicts(verdicts, zero), medDelta: harness.MedianOrNaN(deltas), medW: harness.MedianOrNaN(widths),
		triples: math.NaN(), stops: tallyStops(outs), between: harness.MedianOrNaN(between), within: harness.MedianOrNaN(within),
		mutator: harness.MedianOrNaN(mutator), cycles: harness.MedianOrNaN(cycles)}
	if m, ok := stats.LowerMedian(triples); ok {
		s.triples = m
	}
	for _, o := range outs {
		if o.hasInterval {
			s.withInt++
			s.holdsMed += holds(o, s.medDelta)
			s.holdsTruth += holds(o, truth)
		}
	}
	return s
}

// holds is 1 when o's interval holds x, else 0 (always 0 for a NaN x).
func holds(o outcome, x float64) int {
	if o.lo <= x && x <= o.hi {
		return 1
	}
	return 0
}

// appendKnown appends x to xs unless it is NaN.
func appendKnown(xs []float64, x float64) []float64 {
	if math.IsNaN(x) {
		return xs
	}
	return append(xs, x)
}

// stopOrder is the order tallyStops names lockstep's stop reasons in;
// others follow, sorted.
var stopOrder = []string{"decided", "budget", "rounds", "max", "failed"}

// tallyStops counts the stop reasons of outs ("decided 14, budget 6"),
// those of stopOrder first, then any other, sorted; outcomes without one
// (rounds, plain, a log line from before stops were logged) are left out,
// and "" means none had one.
func tallyStops(outs []outcome) string {
	n := map[string]int{}
	var others []string
	for _, o := range outs {
		if o.stop == "" {
			continue
		}
		if n[o.stop] == 0 && !slices.Contains(stopOrder, o.stop) {
			others = append(others, o.stop)
		}
		n[o.stop]++
	}
	slices.Sort(others)
	var parts []string
	for _, s := range append(slices.Clone(stopOrder), others...) {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s, n[s]))
		}
	}
	return strings.Join(parts, ", ")
}

// truths are the truth Δs in percent, by workload and scenario name
// (A/A scenarios, 0 by construction, need none).
type truths map[string]map[string]float64

// of returns the truth Δ of workload w in scenario s: 0 for an A/A
// scenario, NaN when unknown.
func (t truths) of(w string, s scenario) float64 {
	if s.aa() {
		return 0
	}
	if d, ok := t[w][s.name]; ok {
		return d
	}
	return math.NaN()
}

// tableHeader names printTable's columns.
const tableHeader = "workload\tscenario\tmethod\tflagged / caught\twrong sign\tundecided\tmedian Δ\ttruth Δ\tmedian width\t" +
	"CIs holding median Δ\tCIs holding truth Δ\ttriples\tstops\tbetween / within\tmutator / cycles\twall / rep"

// printTable writes one row per workload and cell that measures it,
// aligned in columns.
func printTable(out io.Writer, workloads []string, cells []*cell, tr truths) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, tableHeader)
	for _, wl := range workloads {
		for _, c := range cells {
			sc := scenarioNamed(c.scenario)
			if !sc.measures(wl) {
				continue
			}
			truth := tr.of(wl, sc)
			fmt.Fprintln(w, row(wl, c, summarize(c.outs[wl], sc.aa(), truth), truth))
		}
	}
	_ = w.Flush()
}

// row formats one row of printTable, tab-separated.
func row(wl string, c *cell, s summary, truth float64) string {
	und, width, covMed, covTruth := strconv.Itoa(s.tally.Undecided), "–", "–", "–"
	if c.method == "plain" {
		und = "–"
	}
	if s.withInt > 0 {
		width, covMed = fmt.Sprintf("%.2f", s.medW), fmt.Sprintf("%d/%d", s.holdsMed, s.withInt)
		if !math.IsNaN(truth) {
			covTruth = fmt.Sprintf("%d/%d", s.holdsTruth, s.withInt)
		}
	}
	triples, stops, comps, parts := "–", "–", "–", "–"
	if !math.IsNaN(s.triples) {
		triples = fmt.Sprintf("%.0f", s.triples)
	}
	if s.stops != "" {
		stops = s.stops
	}
	if !math.IsNaN(s.between) || !math.IsNaN(s.within) {
		comps = pct(s.between) + " / " + pct(s.within)
	}
	if !math.IsNaN(s.mutator) || !math.IsNaN(s.cycles) {
		parts = signed(s.mutator) + " / " + signed(s.cycles)
	}
	return fmt.Sprintf("%s\t%s\t%s\t%d/%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", wl, c.scenario, c.method,
		s.tally.Flagged, s.tally.N, s.tally.Wrong, und, signed(s.medDelta), signed(truth), width, covMed, covTruth,
		triples, stops, comps, parts, wallOf(c.walls[wl]))
}

// wallOf is the median of walls, rounded for the table (to 10 ms under a
// second, else to 100 ms); "–" for none.
func wallOf(walls []time.Duration) string {
	if len(walls) == 0 {
		return "–"
	}
	m := harness.MedianDuration(walls)
	if m < time.Second {
		return m.Round(10 * time.Millisecond).String()
	}
	return m.Round(100 * time.Millisecond).String()
}

// printWallRatios writes, per workload and scenario that both lockstep
// and plain measured, the ratio of lockstep's median wall time per
// repetition to plain's, and reports whether it wrote any (none without
// both methods).
func printWallRatios(out io.Writer, workloads []string, cells []*cell) bool {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	head := false
	for _, wl := range workloads {
		for _, lc := range cells {
			pc := findCell(cells, lc.scenario, "plain")
			if lc.method != "lockstep" || pc == nil || len(lc.walls[wl]) == 0 || len(pc.walls[wl]) == 0 {
				continue
			}
			if !head {
				fmt.Fprintln(w, "workload\tscenario\twall / rep, lockstep ÷ plain")
				head = true
			}
			l, p := harness.MedianDuration(lc.walls[wl]), harness.MedianDuration(pc.walls[wl])
			fmt.Fprintf(w, "%s\t%s\t%.2f (%s ÷ %s)\n", wl, lc.scenario, float64(l)/float64(p), wallOf(lc.walls[wl]), wallOf(pc.walls[wl]))
		}
	}
	_ = w.Flush()
	return head
}

func findCell(cells []*cell, scenario, method string) *cell {
	for _, c := range cells {
		if c.scenario == scenario && c.method == method {
			return c
		}
	}
	return nil
}

// signed formats a percentage with its sign; "–" for NaN.
func signed(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%+.2f%%", x)
}

// pct formats a non-negative percentage; "?" for NaN.
func pct(x float64) string {
	if math.IsNaN(x) {
		return "?"
	}
	return fmt.Sprintf("%.1f%%", x)
}
