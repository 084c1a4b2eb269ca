package report

import (
	"encoding/json"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"io"
	"math"
	"slices"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// The measures of the Bencher Metric Format file. MeasureLatency is
// Bencher's built-in measure (nanoseconds); Bencher creates the others,
// by these names, the first time a report carries them.
const (
	MeasureLatency      = "latency"                   // ns/op: the median and its 95% interval
	MeasureAllocs       = "allocs-per-op"             // allocs/op as go test prints it
	MeasureBytes        = "bytes-per-op"              // B/op as go test prints it
	MeasureCompareDelta = "compare-delta-pct"         // control.Compare's Δ in percent and its interval
	MeasureAgainstDelta = "against-delta-pct"         // -benchkit.against's Δ = new/base − 1 in percent
	MeasureAgainstNoise = "against-control-delta-pct" // -benchkit.against's control Δ: the noise floor
)

// bmfMetric is one measure's value with its optional interval.
type bmfMetric struct {
	Value float64  `json:"value"`
	Lower *float64 `json:"lower_value,omitempty"`
	Upper *float64 `json:"upper_value,omitempty"`
}

// bmfReport maps a benchmark's name to its measures.
type bmfReport map[string]map[string]bmfMetric

// add records measure of name with value and, when both are finite, the
// interval [lo, hi]; a non-finite value records nothing.
func (r bmfReport) add(name, measure string, value, lo, hi float64) {
	if !finite(value) {
		return
	}
	m := bmfMetric{Value: value}
	if finite(lo) && finite(hi) && lo <= hi {
		m.Lower, m.Upper = &lo, &hi
	}
	if r[name] == nil {
		r[name] = map[string]bmfMetric{}
	}
	r[name][measure] = m
}

// BMF writes the run's results in Bencher Metric Format
// (bencher.dev/docs/reference/bencher-metric-format), for `bencher run
// --adapter json --file`: one object per benchmark, named as go test
// prints it with its "Benchmark" prefix, holding
//
//   - for each benchmark row: latency, the median ns/op with its 95%
//     interval (the text report's ±%: over runs benchstat's, over batches
//     the run's own), and allocs-per-op and bytes-per-op, the median over
//     runs as go test prints them (whole numbers), when known;
//   - for each control.Compare implementation, named
//     Benchmark<Name>/impl=<impl>[-procs] as in the samples file (the
//     control copy as impl=control): latency (its median, no interval)
//     and compare-delta-pct, Δ = impl/baseline − 1 in percent with its
//     interval; of a benchmark's -count repeats, the last;
//   - for each -benchkit.against benchmark: latency (the new side's
//     median over rounds, with benchstat's interval over them when there
//     are enough), allocs-per-op and bytes-per-op (the new side's),
//     against-delta-pct (Δ = new/base − 1 with its interval) and
//     against-control-delta-pct (the A/A control's Δ: the noise floor).
//
// Unknown values are left out; the file is indented, its keys sorted.
func BMF(w io.Writer, in Input, a Analysis) error {
	r := bmfReport{}
	for _, row := range a.Rows {
		if !row.Shown() {
			continue
		}
		name := "Benchmark" + benchName(row)
		r.add(name, MeasureLatency, known1(row.MedianNs), known1(row.CILoNs), known1(row.CIHiNs))
		r.add(name, MeasureAllocs, runsMedian(row.Runs, func(run registry.Run) float64 { return run.AllocsPerOp }), math.NaN(), math.NaN())
		r.add(name, MeasureBytes, runsMedian(row.Runs, func(run registry.Run) float64 { return run.BytesPerOp }), math.NaN(), math.NaN())
	}
	for _, c := range a.Comparisons {
		if c.Rounds > 0 {
			compareBMF(r, c)
		}
	}
	againstBMF(r, in.Against)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("report: encoding the Bencher Metric Format file: %w", err)
	}
	return nil
}

// compareBMF adds each implementation of c but the baseline: its latency
// and its Δ to the baseline.
func compareBMF(r bmfReport, c ComparisonRow) {
	control := c.Control
	control.Name = "control"
	for _, e := range append([]verdict.Estimate{control}, c.Candidates...) {
		name := implName(c, e.Name)
		r.add(name, MeasureLatency, known1(e.NsPerOp), math.NaN(), math.NaN())
		r.add(name, MeasureCompareDelta, e.DeltaPct, e.LoPct, e.HiPct)
	}
}

// implName is the name of implementation impl of c in the exports, as
// the samples file writes it: "BenchmarkFormat/impl=itoa-2".
func implName(c ComparisonRow, impl string) string {
	base, suffix := roundsName(c.Benchmark, c.Procs)
	return "Benchmark" + base + "/impl=" + underscoreSpace(impl) + suffix
}

// againstBMF adds each cross-build benchmark of a, if any.
func againstBMF(r bmfReport, a *against.Result) {
	if a == nil {
		return
	}
	for _, b := range a.Benches {
		name := "Benchmark" + underscoreSpace(b.Name)
		lo, hi := math.NaN(), math.NaN()
		if _, l, h, ok := stats.MedianCI(finiteOnly(b.New.NsPerOp), 0.95); ok {
			lo, hi = l, h
		}
		r.add(name, MeasureLatency, known1(b.NewEst.NsPerOp), lo, hi)
		r.add(name, MeasureAllocs, known1(b.Allocs.New), math.NaN(), math.NaN())
		r.add(name, MeasureBytes, known1(b.Bytes.New), math.NaN(), math.NaN())
		if len(b.Base.NsPerOp) > 0 {
			r.add(name, MeasureAgainstDelta, b.NewEst.DeltaPct, b.NewEst.LoPct, b.NewEst.HiPct)
			r.add(name, MeasureAgainstNoise, b.ControlEst.DeltaPct, b.ControlEst.LoPct, b.ControlEst.HiPct)
		}
	}
}

// known1 is x, or NaN when x is benchkit's "unknown" (negative) or not
// finite.
func known1(x float64) float64 {
	if !finite(x) || x < 0 {
		return math.NaN()
	}
	return x
}

// runsMedian is the median of field over the runs where it is known,
// each truncated to a whole number as go test prints counts, the lower
// middle one for an even number (a count some run printed, never 2.5);
// NaN when no run knows it.
func runsMedian(runs []registry.Run, field func(registry.Run) float64) float64 {
	var xs []float64
	for _, run := range runs {
		if v := field(run); finite(v) && v >= 0 {
			xs = append(xs, math.Trunc(v))
		}
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	return xs[(len(xs)-1)/2]
}
