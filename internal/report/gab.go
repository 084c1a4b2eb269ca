package report

import (
	"encoding/json"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"io"
	"strings"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// gabEntry is one result of github-action-benchmark's custom JSON.
type gabEntry struct {
	Name  string  `json:"name"`
	Unit  string  `json:"unit"`
	Value float64 `json:"value"`
	Range string  `json:"range,omitempty"`
	Extra string  `json:"extra,omitempty"`
}

// gabList collects the entries in order.
type gabList []gabEntry

// add appends an entry when value is finite and not negative (the
// action compares current/previous, so a value must be a size).
func (l *gabList) add(e gabEntry) {
	if finite(e.Value) && e.Value >= 0 {
		*l = append(*l, e)
	}
}

// GAB writes the run's results as github-action-benchmark's custom JSON
// for tool customSmallerIsBetter: a list of {name, unit, value, range,
// extra}, every value one where smaller is better. Each name is the
// benchmark as go test prints it with its "Benchmark" prefix, " - ", and
// what is measured, as the action's own Go parser names a benchmark's
// units:
//
//   - for each benchmark row, "<name> - ns/op" (the median, with the ±%
//     of its 95% interval as the range), "- allocs/op" and "- B/op" (the
//     median over runs as go test prints them);
//   - for each control.Compare candidate and the control copy,
//     "Benchmark<Name>/impl=<impl>[-procs] - ratio to <baseline>": the
//     ratio 1 + Δ/100 with its interval as the range, the verdict in
//     extra; of a benchmark's -count repeats, the last;
//   - for each -benchkit.against benchmark, "- ns/op", "- allocs/op" and
//     "- B/op" of the new side, "- ratio to base" (1 + Δ/100) and
//     "- control ratio to base" (the noise floor).
//
// A ratio, not Δ in percent: the action alerts on current/previous,
// which a Δ of zero or below would break. Unknown values are left out.
func GAB(w io.Writer, in Input, a Analysis) error {
	var l gabList
	for _, r := range a.Rows {
		if r.Shown() {
			rowGAB(&l, r)
		}
	}
	last := map[string]int{}
	for i, c := range a.Comparisons {
		last[c.Benchmark] = i
	}
	for i, c := range a.Comparisons {
		if last[c.Benchmark] == i && c.Rounds > 0 {
			compareGAB(&l, c)
		}
	}
	againstGAB(&l, in.Against)
	if l == nil {
		l = gabList{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(l); err != nil {
		return fmt.Errorf("report: encoding the github-action-benchmark file: %w", err)
	}
	return nil
}

// rowGAB adds r's ns/op, allocs/op and B/op.
func rowGAB(l *gabList, r Row) {
	name := "Benchmark" + benchName(r)
	extra := []string{samplesCell(r), "grade " + string(r.Grade)}
	if r.CILoNs >= 0 {
		extra = append(extra, "95% interval of the median "+fmtNs(r.CILoNs)+" … "+fmtNs(r.CIHiNs))
	}
	if tags := r.Tags(); len(tags) > 0 {
		extra = append(extra, strings.Join(tags, ", "))
	}
	e := gabEntry{Name: name + " - ns/op", Unit: "ns/op", Value: known1(r.MedianNs), Extra: strings.Join(extra, "\n")}
	if r.CIPct >= 0 {
		e.Range = "± " + pctCell(r.CIPct) + "%"
	}
	l.add(e)
	l.add(gabEntry{Name: name + " - allocs/op", Unit: "allocs/op", Value: runsMedian(r.Runs, func(run registry.Run) float64 { return run.AllocsPerOp })})
	l.add(gabEntry{Name: name + " - B/op", Unit: "B/op", Value: runsMedian(r.Runs, func(run registry.Run) float64 { return run.BytesPerOp })})
}

// compareGAB adds the control's and each candidate's ratio to c's
// baseline.
func compareGAB(l *gabList, c ComparisonRow) {
	control := c.Control
	control.Name = "control"
	for _, e := range append([]verdict.Estimate{control}, c.Candidates...) {
		l.add(ratioEntry(implName(c, e.Name)+" - ratio to "+c.Baseline, e, fmtNs(e.NsPerOp)+"/op"))
	}
}

// ratioEntry is e's ratio 1 + Δ/100 under name, its interval as the
// range, and in extra Δ, the verdict with its reason, and note.
func ratioEntry(name string, e verdict.Estimate, note string) gabEntry {
	ratio := func(pct float64) float64 { return 1 + pct/100 }
	g := gabEntry{Name: name, Unit: "ratio", Value: ratio(e.DeltaPct),
		Extra: fmt.Sprintf("Δ %s %s\n%s: %s\n%s", textfmt.Pct(e.DeltaPct), textfmt.Interval(e.LoPct, e.HiPct), dash(string(e.Verdict)), e.Reason, note)}
	if finite(e.LoPct) && finite(e.HiPct) {
		g.Range = fmt.Sprintf("%.4f … %.4f", ratio(e.LoPct), ratio(e.HiPct))
	}
	return g
}

// againstGAB adds each cross-build benchmark of a, if any.
func againstGAB(l *gabList, a *against.Result) {
	if a == nil {
		return
	}
	for _, b := range a.Benches {
		name := "Benchmark" + underscoreSpace(b.Name)
		l.add(gabEntry{Name: name + " - ns/op", Unit: "ns/op", Value: known1(b.NewEst.NsPerOp),
			Extra: fmt.Sprintf("new's median over %s; base %s", textfmt.Plural(len(b.New.NsPerOp), "round"), againstBaseNs(b))})
		l.add(gabEntry{Name: name + " - allocs/op", Unit: "allocs/op", Value: known1(b.Allocs.New), Extra: "base " + fmtCount(b.Allocs.Base)})
		l.add(gabEntry{Name: name + " - B/op", Unit: "B/op", Value: known1(b.Bytes.New), Extra: "base " + fmtCount(b.Bytes.Base)})
		if len(b.Base.NsPerOp) > 0 {
			l.add(ratioEntry(name+" - ratio to base", b.NewEst, "against "+a.BaseName()))
			l.add(ratioEntry(name+" - control ratio to base", b.ControlEst, "the base binary again: the noise floor"))
		}
	}
}

// againstBaseNs is the base side's median ns/op over rounds, formatted.
func againstBaseNs(b against.Bench) string {
	if ns, ok := stats.Median(finiteOnly(b.Base.NsPerOp)); ok {
		return fmtNs(ns) + "/op"
	}
	return "?"
}
