package against

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// gcRuns is what the collector did in one side's measured runs, run by
// run: the cycles completed during the run, the collector's CPU time in
// it (ns), and the headroom at its start (the heap goal minus the live
// heap, in bytes); each -1 where the child did not say.
type gcRuns struct {
	cycles, cpu, headroom []float64
}

// add appends a run's collector fields.
func (g *gcRuns) add(s child.Step) {
	c, h := float64(s.GCCycles), float64(-1)
	if s.HeapGoal >= 0 && s.HeapLive >= 0 {
		h = float64(s.HeapGoal - s.HeapLive)
	}
	g.cycles, g.cpu, g.headroom = append(g.cycles, c), append(g.cpu, float64(s.GCCPUNs)), append(g.headroom, h)
}

// The collector in a lockstep comparison. testing collects before every
// run, so a run that starts there holds as many collections as its
// allocation fills the heap's headroom: the same number whatever a
// build's extra allocation, where a long run would pay for 5% more bytes
// with 5% more collections. So the runs of an allocating benchmark begin
// at a uniform random phase of the collector's cycle (design.go): a run
// of N ops that allocates B bytes an op then holds N·B/S collections on
// average, S the bytes the program allocates between two collections,
// which is the rate a long run pays, and each side's mean run is its
// long-run cost per op, the collector's share included.
//
// What the phase costs is spread: a run holds ⌊N·B/S⌋ collections or one
// more, and the runs that hold more are slower. So each run is corrected
// to its side's mean,
//
//	t' = t − c·(k − N·B/S)/N   (ns/op)
//
// k the run's collections, S the side's bytes over its collections in
// all its runs (so that N·B/S is its runs' mean k); c, ns a run per
// collection, is the median over every side of every triple whose runs
// held two numbers of collections at least minLevel times each of the
// difference between those levels' median runs. The correction has mean
// zero: c narrows the estimate without moving it. c is not a
// collection's cost in a long run: a run that holds one more collection
// also began after more of the phase's garbage, which costs it page
// faults and colder caches, so the parts (GCParts) do not use it.
const minLevel = 3

// GCParts are the parts of a comparison measured with the collector in
// (Bench.GC), each measured without a model of the collector's cost.
type GCParts struct {
	// MutatorDeltaPct is new's time over base's at equal collections, in
	// percent: the mean over triples of the ratio of the two sides'
	// median runs among those that held the number of collections most
	// common to both; NaN when no triple had minLevel such runs a side.
	MutatorDeltaPct float64
	// CyclesPerOpBase and CyclesPerOpNew are each side's collections per
	// op at a long run's rate, B/S.
	CyclesPerOpBase, CyclesPerOpNew float64
	// GCCPUBaseNs and GCCPUNewNs are each side's collector CPU time per op
	// as the runtime accounts it (runtime/metrics'
	// /cpu/classes/gc/total:cpu-seconds: assists, workers, pauses), mean
	// over its runs; NaN when unknown. CPU time, not the wall time it
	// cost the benchmark, which depends on idle CPUs.
	GCCPUBaseNs, GCCPUNewNs float64
	// Triples is how many triples ran at a random phase.
	Triples int
}

// gcFit is what the runs at a random phase say of the collector: the
// narrowing coefficient c (ns a run per collection; cOK false when no
// side of any triple held two numbers of collections often enough), and
// each side's bytes between two collections (0 when it held none).
type gcFit struct {
	c       float64
	cOK     bool
	spacing [sides]float64
}

// phased returns the triples whose runs began at a random phase of the
// collector's cycle, when any did: the first triple, which sized their
// runs, did not and is left out; otherwise ts.
func phased(ts []triple) []triple {
	out := make([]triple, 0, len(ts))
	for _, tr := range ts {
		if tr.gcPhase {
			out = append(out, tr)
		}
	}
	if len(out) == 0 {
		return ts
	}
	return out
}

// withCollector returns the triples to estimate from, with each run
// corrected to its side's mean collections, and the parts, when the runs
// began at a random phase and held collections; the triples as they are
// and nil otherwise. why says what the row should say of the collector
// when it could not be measured as above ("" for a benchmark that does
// not collect, measured as any other).
func withCollector(ts []triple) (out []triple, parts *GCParts, why string) {
	ph := phased(ts)
	if len(ph) == len(ts) {
		return ts, nil, ""
	}
	if unknownCycles(ph) {
		return ph, nil, "the runs began at a random phase of the collector's cycle, but the child did not say how many collections each held (a build older than this benchkit, or a runtime without runtime/metrics' GC cycles): the runs are uncorrected and the parts unknown"
	}
	fit, ok := fitCollector(ph)
	if !ok {
		return ph, nil, ""
	}
	out = make([]triple, len(ph))
	for i, tr := range ph {
		out[i] = fit.correct(tr)
	}
	p := fit.parts(ph)
	return out, &p, ""
}

// unknownCycles reports whether some run's collections are unknown.
func unknownCycles(ts []triple) bool {
	for _, tr := range ts {
		for s := range sides {
			if slices.ContainsFunc(tr.gc[s].cycles, func(c float64) bool { return c < 0 }) {
				return true
			}
		}
	}
	return false
}

// fitCollector estimates the fit from the phased triples; ok is false
// when no run held a collection.
func fitCollector(ts []triple) (gcFit, bool) {
	var f gcFit
	any := false
	for s := range sides {
		var bytes, cycles float64
		for _, tr := range ts {
			for i, k := range tr.gc[s].cycles {
				if i < len(tr.bytes[s]) {
					bytes += float64(tr.n) * tr.bytes[s][i]
					cycles += k
				}
			}
		}
		if cycles > 0 {
			f.spacing[s], any = bytes/cycles, true
		}
	}
	if !any {
		return f, false
	}
	var slopes []float64
	for _, tr := range ts {
		for s := range sides {
			if c, ok := levelSlope(tr, s); ok {
				slopes = append(slopes, c)
			}
		}
	}
	f.c, f.cOK = stats.Median(slopes)
	return f, true
}

// levelSlope returns one collection's cost (ns a run) in side s of the
// triple: the difference between the median runs of its two most common
// numbers of collections, over the difference of the numbers; ok is
// false unless two numbers were held at least minLevel times each.
func levelSlope(tr triple, s int) (float64, bool) {
	count := map[float64]int{}
	for _, k := range tr.gc[s].cycles {
		count[k]++
	}
	var levels []float64
	for k, n := range count {
		if n >= minLevel {
			levels = append(levels, k)
		}
	}
	if len(levels) < 2 {
		return 0, false
	}
	slices.SortFunc(levels, func(a, b float64) int { return count[b] - count[a] }) // most common first
	lo, hi := min(levels[0], levels[1]), max(levels[0], levels[1])
	a, okA := stats.Median(runsAt(tr, s, lo))
	b, okB := stats.Median(runsAt(tr, s, hi))
	if !okA || !okB {
		return 0, false
	}
	return (b - a) * float64(tr.n) / (hi - lo), true
}

// runsAt returns side s's ns/op of the runs that held c collections.
func runsAt(tr triple, s int, c float64) []float64 {
	var out []float64
	for i, x := range tr.gc[s].cycles {
		if x == c && i < len(tr.ns[s]) {
			out = append(out, tr.ns[s][i])
		}
	}
	return out
}

// correct returns the triple with each run's ns/op corrected to its
// side's long-run collection rate (t' above); a side without collections
// or with c unknown is left as it is.
func (f gcFit) correct(tr triple) triple {
	out := tr
	for s := range sides {
		if f.spacing[s] <= 0 || !f.cOK {
			continue
		}
		ns := slices.Clone(tr.ns[s])
		for i := range ns {
			if i < len(tr.bytes[s]) && i < len(tr.gc[s].cycles) {
				expected := float64(tr.n) * tr.bytes[s][i] / f.spacing[s]
				ns[i] -= f.c * (tr.gc[s].cycles[i] - expected) / float64(tr.n)
			}
		}
		out.ns[s] = ns
	}
	return out
}

// parts measures the parts over the phased triples (uncorrected).
func (f gcFit) parts(ts []triple) GCParts {
	p := GCParts{Triples: len(ts), MutatorDeltaPct: nan(), GCCPUBaseNs: nan(), GCCPUNewNs: nan()}
	perOp := func(s int) float64 {
		b, ok := medianOver(ts, func(tr triple) []float64 { return tr.bytes[s] })
		if !ok || f.spacing[s] <= 0 {
			return 0
		}
		return b / f.spacing[s]
	}
	p.CyclesPerOpBase, p.CyclesPerOpNew = perOp(sideBase), perOp(sideNew)
	p.GCCPUBaseNs, p.GCCPUNewNs = gcCPUPerOp(ts, sideBase), gcCPUPerOp(ts, sideNew)
	var mut []float64
	for _, tr := range ts {
		if r, ok := equalCollections(tr); ok {
			mut = append(mut, vdPct(r))
		}
	}
	if m, ok := stats.Mean(mut); ok {
		p.MutatorDeltaPct = m
	}
	return p
}

// equalCollections returns new's median run over base's among the runs
// of the triple that held the number of collections most common to both
// sides (at least minLevel runs a side); ok false when none qualifies.
func equalCollections(tr triple) (float64, bool) {
	best, bestN := -1.0, 0
	for _, k := range tr.gc[sideBase].cycles {
		nb, nn := len(runsAt(tr, sideBase, k)), len(runsAt(tr, sideNew, k))
		if nb >= minLevel && nn >= minLevel && min(nb, nn) > bestN {
			best, bestN = k, min(nb, nn)
		}
	}
	if bestN == 0 {
		return 0, false
	}
	b, okB := stats.Median(runsAt(tr, sideBase, best))
	n, okN := stats.Median(runsAt(tr, sideNew, best))
	if !okB || !okN || b <= 0 {
		return 0, false
	}
	return n / b, true
}

// gcCPUPerOp returns side s's collector CPU time per op, the mean over
// its runs; NaN when a run's is unknown.
func gcCPUPerOp(ts []triple, s int) float64 {
	var ns, ops float64
	for _, tr := range ts {
		for _, c := range tr.gc[s].cpu {
			if c < 0 {
				return nan()
			}
			ns, ops = ns+c, ops+float64(tr.n)
		}
	}
	if ops == 0 {
		return nan()
	}
	return ns / ops
}

// medianOver returns the median of what of returns for every triple.
func medianOver(ts []triple, of func(triple) []float64) (float64, bool) {
	var all []float64
	for _, tr := range ts {
		all = append(all, of(tr)...)
	}
	return stats.Median(all)
}

func nan() float64 { return math.NaN() }

// vdPct is a ratio as a signed percentage, (r − 1)·100.
func vdPct(r float64) float64 { return (r - 1) * 100 }

// Describe says the parts in one line, with bytes, the benchmark's B/op.
func (p GCParts) Describe(bytes Count) string {
	out := fmt.Sprintf("collector in, at a long run's rate (%s at a random phase of its cycle): ", pluralTriples(p.Triples))
	if p.MutatorDeltaPct == p.MutatorDeltaPct { // not NaN
		out += fmt.Sprintf("at equal collections %s (the mutator), ", textfmt.Pct(p.MutatorDeltaPct))
	}
	out += fmt.Sprintf("collections per op %.3g → %.3g", p.CyclesPerOpBase, p.CyclesPerOpNew)
	if p.CyclesPerOpBase > 0 {
		out += " (" + textfmt.Pct(100*(p.CyclesPerOpNew/p.CyclesPerOpBase-1)) + ")"
	}
	if p.GCCPUBaseNs == p.GCCPUBaseNs && p.GCCPUNewNs == p.GCCPUNewNs {
		out += fmt.Sprintf(", collector CPU %s → %s/op", textfmt.Dur(time.Duration(p.GCCPUBaseNs)), textfmt.Dur(time.Duration(p.GCCPUNewNs)))
	}
	if bytes.Base > 0 && bytes.New >= 0 {
		out += fmt.Sprintf(", B/op %s", textfmt.Pct(100*(bytes.New/bytes.Base-1)))
	}
	return out
}
