package against

import (
	"fmt"
	"slices"
	"time"

	vd "github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// gcRuns is what the collector did in one side's measured runs, run by
// run: the cycles completed during the run, and the headroom at its start
// (the heap goal minus the live heap, in bytes, after the collection
// testing forces before every run); both -1 where the child did not say.
type gcRuns struct {
	cycles, headroom []float64
}

// add appends a run's collector fields.
func (g *gcRuns) add(s child.Step) {
	c, h := float64(s.GCCycles), float64(-1)
	if s.HeapGoal >= 0 && s.HeapLive >= 0 {
		h = float64(s.HeapGoal - s.HeapLive)
	}
	g.cycles, g.headroom = append(g.cycles, c), append(g.headroom, h)
}

// The collector in a lockstep comparison. testing collects before every
// run, so a short run holds as many collections as its allocation fills
// the heap's headroom, not its share of a long run's; the collector's
// cost then does not grow with a build's extra allocation. Where runs
// hold collections, each side's cost per op is recomposed at the rate a
// long run pays it: per triple, the cost of one collection C (ns) is the
// difference between the median runs that held k+1 collections and k,
// times N, pooled over the three sides; a side's mutator cost m (ns/op)
// is its median run at k collections less k·C/N; the bytes allocated
// between two collections S are the triple's runs' bytes over their
// collections, pooled over the sides (the runs begin at a random phase of
// the cycle, so S is the long run's spacing, the pacer's trigger
// included); a side's collections per op in a long run are its exact B/op
// over S; and
//
//	T = m + C · B/S
//
// is its long-run cost per op, of which the triples' ratios are the
// estimate. A triple whose runs held one number of collections only (or
// fewer than minLevel runs at two) cannot separate the collector; it is
// left out, and with fewer than two triples left the ratios of the runs
// themselves are the estimate, and the row says why.
const minLevel = 3

// GCParts are the parts of a recomposed cost per op (Bench.GC): the
// mutator's change, each side's collector cost per op, collections per
// op and one collection's cost, and how many triples separated them.
type GCParts struct {
	// MutatorDeltaPct is the mean over triples of m(new)/m(base) − 1, in
	// percent.
	MutatorDeltaPct float64
	// CollectorBaseNs and CollectorNewNs are C·B/H of each side, ns/op;
	// CyclesPerOpBase and CyclesPerOpNew its B/H; CycleNs one
	// collection's cost C in ns (medians over triples).
	CollectorBaseNs, CollectorNewNs float64
	CyclesPerOpBase, CyclesPerOpNew float64
	CycleNs                         float64
	// Triples is how many triples separated the collector.
	Triples int
}

// gcSample is one triple's recomposed costs, by side.
type gcSample struct {
	t, m, k [sides]float64
	c       float64
}

// recompose returns each triple's long-run costs per op, by side, for a
// benchmark whose runs held collections, with the parts; ok is false, with
// why, when they cannot be recomposed (and why is "" when the runs held
// no collection at all: the benchmark is measured as any other).
func recompose(ts []triple) (samples []gcSample, parts GCParts, why string, ok bool) {
	if !collected(ts) {
		return nil, parts, "", false
	}
	for _, tr := range ts {
		if s, okT := recomposeTriple(tr, tr.n); okT {
			samples = append(samples, s)
		}
	}
	if len(samples) < 2 {
		return nil, parts, fmt.Sprintf("the collector could not be separated: the runs of only %s held two numbers of collections (at least %d runs each); the estimate is the runs' own, each holding as many collections as its allocation fills the heap's headroom", pluralTriples(len(samples)), minLevel), false
	}
	return samples, partsOf(samples), "", true
}

// collected reports whether any run held a collection.
func collected(ts []triple) bool {
	for _, tr := range ts {
		for s := range sides {
			if slices.ContainsFunc(tr.gc[s].cycles, func(c float64) bool { return c > 0 }) {
				return true
			}
		}
	}
	return false
}

// recomposeTriple recomposes one triple (see the package's constant
// minLevel for the method); ok is false when the triple cannot separate
// the collector.
func recomposeTriple(tr triple, n int) (gcSample, bool) {
	lo, hi, ok := levels(tr)
	if !ok {
		return gcSample{}, false
	}
	var diffs []float64
	var at [sides]float64
	for s := range sides {
		a, okA := stats.Median(runsAt(tr, s, lo))
		b, okB := stats.Median(runsAt(tr, s, hi))
		if !okA || !okB {
			return gcSample{}, false
		}
		at[s] = a
		diffs = append(diffs, (b-a)/(hi-lo))
	}
	per, _ := stats.Median(diffs) // one collection's cost per op of a run
	spacing, ok := spacingOf(tr, n)
	if !ok {
		return gcSample{}, false
	}
	var g gcSample
	g.c = per * float64(n)
	for s := range sides {
		bytes, okB := stats.Median(tr.bytes[s])
		if !okB {
			return gcSample{}, false
		}
		g.m[s] = at[s] - lo*per
		g.k[s] = bytes / spacing
		g.t[s] = g.m[s] + g.c*g.k[s]
		if !(g.t[s] > 0) || !(g.m[s] > 0) {
			return gcSample{}, false
		}
	}
	return g, true
}

// spacingOf returns the bytes allocated between two collections in the
// triple's runs: all their bytes (N × B/op a run) over all their
// collections, every side's; ok is false without a collection.
func spacingOf(tr triple, n int) (float64, bool) {
	var bytes, cycles float64
	for s := range sides {
		for i, c := range tr.gc[s].cycles {
			if c < 0 || i >= len(tr.bytes[s]) {
				continue
			}
			bytes += float64(n) * tr.bytes[s][i]
			cycles += c
		}
	}
	if cycles <= 0 {
		return 0, false
	}
	return bytes / cycles, true
}

// levels returns the two numbers of collections, lo < hi, that the most
// runs of the triple held, each by at least minLevel runs of every side.
func levels(tr triple) (lo, hi float64, ok bool) {
	count := map[float64]int{}
	for s := range sides {
		seen := map[float64]int{}
		for _, c := range tr.gc[s].cycles {
			if c >= 0 {
				seen[c]++
			}
		}
		for c, k := range seen {
			if k >= minLevel {
				count[c]++
			}
		}
	}
	var common []float64
	for c, k := range count {
		if k == sides {
			common = append(common, c)
		}
	}
	if len(common) < 2 {
		return 0, 0, false
	}
	slices.Sort(common)
	return common[0], common[1], true
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

func positive(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if x > 0 {
			out = append(out, x)
		}
	}
	return out
}

// partsOf summarises the triples' recomposition.
func partsOf(samples []gcSample) GCParts {
	var mut, cb, cn, kb, kn, c []float64
	for _, g := range samples {
		mut = append(mut, vdPct(g.m[sideNew]/g.m[sideBase]))
		cb, cn = append(cb, g.c*g.k[sideBase]), append(cn, g.c*g.k[sideNew])
		kb, kn, c = append(kb, g.k[sideBase]), append(kn, g.k[sideNew]), append(c, g.c)
	}
	p := GCParts{Triples: len(samples)}
	p.MutatorDeltaPct, _ = stats.Mean(mut)
	p.CollectorBaseNs, _ = stats.Median(cb)
	p.CollectorNewNs, _ = stats.Median(cn)
	p.CyclesPerOpBase, _ = stats.Median(kb)
	p.CyclesPerOpNew, _ = stats.Median(kn)
	p.CycleNs, _ = stats.Median(c)
	return p
}

// vdPct is a ratio as a signed percentage, (r − 1)·100.
func vdPct(r float64) float64 { return (r - 1) * 100 }

// gcGroups returns the recomposed costs as the estimator's groups: one
// "round" a triple, whose value is the side's long-run cost per op.
func gcGroups(samples []gcSample) [][]vd.Sample {
	out := make([][]vd.Sample, len(samples))
	for i, g := range samples {
		out[i] = []vd.Sample{{Name: "base", NsPerOp: []float64{g.t[sideBase]}}, {Name: "control", NsPerOp: []float64{g.t[sideControl]}},
			{Name: "new", NsPerOp: []float64{g.t[sideNew]}}}
	}
	return out
}

// Describe says the parts in one line, with bytes, the benchmark's B/op.
func (p GCParts) Describe(bytes Count) string {
	b := ""
	if bytes.Base > 0 && bytes.New >= 0 {
		b = fmt.Sprintf(", B/op %s", textfmt.Pct(100*(bytes.New/bytes.Base-1)))
	}
	return fmt.Sprintf("collector recomposed at a long run's rate (%s): mutator %s, collector %.4g → %.4g ns/op (%.3g → %.3g collections per op, %s each)%s",
		pluralTriples(p.Triples), textfmt.Pct(p.MutatorDeltaPct), p.CollectorBaseNs, p.CollectorNewNs, p.CyclesPerOpBase, p.CyclesPerOpNew,
		textfmt.Dur(time.Duration(p.CycleNs)), b)
}
