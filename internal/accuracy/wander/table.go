package wander

import (
	"fmt"
	"github.com/benchkit/go-benchkit/internal/benchname"
	"io"
	"math"
	"runtime"
	"slices"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// summary is one table row: a workload over the processes and the long
// process. Percentages are NaN where undefined.
type summary struct {
	name                string
	n                   int     // processes that measured it
	median              float64 // median of the processes' medians, ns/op
	betweenCV, withinCV float64 // percent
	rWithRef            float64 // NaN for the reference itself
	ratioCV             float64 // CV of median/reference median, percent; NaN for the reference
	longCV, longMaxMin  float64
	longLag1            float64
}

// summarise computes the row of workload name, with ref the reference
// workload the correlation column is taken against and long the long
// process's runs (nil when skipped).
func summarise(name, ref string, procs []runs, long runs) summary {
	s := summary{name: name, rWithRef: math.NaN(), ratioCV: math.NaN(), longCV: math.NaN(), longMaxMin: math.NaN(), longLag1: math.NaN()}
	var meds, within, mine, theirs, ratios []float64
	for _, p := range procs {
		xs, ok := p[name]
		if !ok {
			continue
		}
		m, _ := stats.Median(xs)
		meds = append(meds, m)
		if cv, ok := stats.CV(xs); ok {
			within = append(within, cv)
		}
		if r, ok := p[ref]; ok {
			rm, _ := stats.Median(r)
			mine, theirs = append(mine, math.Log(m)), append(theirs, math.Log(rm))
			ratios = append(ratios, m/rm)
		}
	}
	s.n = len(meds)
	s.median, s.withinCV = harness.MedianOrNaN(meds), harness.MedianOrNaN(within)
	s.betweenCV = cvOrNaN(meds)
	if name != ref {
		s.rWithRef = pearson(mine, theirs)
		s.ratioCV = cvOrNaN(ratios)
	}
	if xs := long[name]; len(xs) >= 2 {
		s.longCV = cvOrNaN(xs)
		s.longMaxMin = slices.Max(xs) / slices.Min(xs)
		s.longLag1 = stats.Lag1(xs)
	}
	return s
}

// cvOrNaN is stats.CV of xs, NaN when undefined.
func cvOrNaN(xs []float64) float64 {
	if cv, ok := stats.CV(xs); ok {
		return cv
	}
	return math.NaN()
}

// pearson is the sample correlation of the pairs (xs[i], ys[i]), NaN with
// fewer than 3 pairs or when either side is constant.
func pearson(xs, ys []float64) float64 {
	if len(xs) != len(ys) || len(xs) < 3 {
		return math.NaN()
	}
	mx, _ := stats.Mean(xs)
	my, _ := stats.Mean(ys)
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy, sxx, syy = sxy+dx*dy, sxx+dx*dx, syy+dy*dy
	}
	if !(sxx > 0 && syy > 0) {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// names returns the workloads measured in any process, sorted; the first
// is the reference of the correlation column.
func names(procs []runs) []string {
	var out []string
	for _, p := range procs {
		for n := range p {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	// sum, the compute-bound one, is the reference when present.
	if i := slices.IndexFunc(out, isSum); i > 0 {
		first := out[i]
		out = append([]string{first}, slices.Delete(out, i, i+1)...)
	}
	return out
}

// isSum reports whether a display name is sum's, with or without the
// -procs suffix (not sum4's, nor a sub-benchmark of sum's).
// The table runs without -cpu: every name carries this process's
// GOMAXPROCS.
func isSum(name string) bool { return benchname.Trim(name, runtime.GOMAXPROCS(0)) == "Steady/work=sum" }

// printTable writes the markdown table and its footnote; seeded, when
// not empty, adds the between-process CV of processes that all started
// with one AT_RANDOM.
func printTable(w io.Writer, procs, seeded []runs, long runs, longCount int) {
	ns := names(procs)
	if len(ns) == 0 {
		fmt.Fprintln(w, "no workloads measured")
		return
	}
	ref := ns[0]
	fmt.Fprintf(w, "| workload | processes | median (ns/op) | between processes: CV of medians | one seed: CV of medians | within a process: CV of its runs | r with %s | CV of its ratio to %s | one process, %d runs: CV | max/min | lag-1 autocorrelation |\n", ref, ref, longCount)
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range ns {
		s := summarise(n, ref, procs, long)
		oneSeed := math.NaN()
		if len(seeded) > 0 {
			oneSeed = summarise(n, ref, seeded, nil).betweenCV
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", s.name, s.n, num(s.median, "%.4g"),
			num(s.betweenCV, "%.1f%%"), num(oneSeed, "%.1f%%"), num(s.withinCV, "%.1f%%"), num(s.rWithRef, "%.2f"), num(s.ratioCV, "%.1f%%"),
			num(s.longCV, "%.1f%%"), num(s.longMaxMin, "%.2f"), num(s.longLag1, "%.2f"))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "between processes: CV of the processes' medians (the run-to-run truth); one seed (with -seeds): the same of as many processes, interleaved with those, that all started with one AT_RANDOM, so the same runtime seeds (map hash seeds among them); within a process: median over processes of the CV of one process's consecutive runs; r: Pearson's correlation across processes of log medians with the first row's; ratio: each process's median over the first row's in the same process, what a comparison interleaved within one process would see of the machine's changes; one process: the long process's runs in the order they ran.")
	fmt.Fprintln(w, "Reading: a long process that spreads as much as separate processes, far more than a few consecutive runs, means the machine changes speed over time; separate processes spreading far more than the long process means something fixed per process differs.")
}

// num formats x with format, or "–" when x is NaN.
func num(x float64, format string) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf(format, x)
}
