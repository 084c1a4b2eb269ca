package against

import (
	"fmt"
	"math"
	"slices"
	"time"

	vd "github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// How lockstep spends a benchmark's budget when neither -benchkit.rounds
// nor -benchtime=Nx fixes the design:
//
//   - budgetFactor × -benchtime of wall time per benchmark, the processes'
//     starts included: about what a fixed design of DefaultRounds triples
//     costs, and less than -count=10 of each binary (20 × -benchtime);
//   - pilotTriples triples of half the default runs per process, from
//     which the variance components and the costs are estimated;
//   - then triples of the runs per process that make the estimate the
//     most precise for the budget (stats.Nested.OptimalRuns), at least minRuns,
//     at most maxTripleRounds and few enough that DefaultRounds triples
//     in all fit in the budget, while the next one fits in it, at most
//     maxTriples; at least minTriples whatever the budget, so that a
//     short -benchtime still gives an interval (and costs more than the
//     budget when the processes' start dominates);
//   - interim looks after the triples of lookAt, each at the rate
//     stats.Spending gives it; the first that decides (Faster, Slower or
//     Same) ends the benchmark, and otherwise the final look, at the rest
//     of the rate, decides what the budget bought.
const (
	budgetFactor = 16
	pilotTriples = 3
	minTriples   = 6
	minRuns      = 5
	maxTriples   = 200
	// interimShare is the share of the false-alarm rate the interim looks
	// spend (stats.Spending.Interim).
	interimShare = 0.2
	// maxWarm bounds the rounds a triple discards at its start; the first
	// triple runs that many, and measures how many it needed.
	maxWarm = 6
)

// lookAt are the numbers of triples after which a design looks.
var lookAt = []int{3, 5, 8, 12, 18, 27, 40, 60, 90, 135, 200}

// design is how one benchmark's triples are shaped and when they stop.
type design struct {
	fixed   bool          // p.Rounds triples of sz.rounds runs, no interim look
	triples int           // the triples of a fixed design
	sizing  int           // of which the first, when it only sized the runs
	budget  time.Duration // the wall time of an adaptive one
	spend   stats.Spending
	// runs and warm shape the next triple: measured rounds, and rounds
	// discarded before them; size its runs.
	runs, warm int
	size       runSize
	sz         sizing
	// what the triples so far showed: the variance components of the
	// control's run-by-run ratios (fractions), the fixed and per-round
	// costs of a triple, the looks taken.
	comps     stats.Nested
	compsOK   bool
	fixedCost time.Duration
	roundCost time.Duration
	looks     int
	// stop says why the benchmark stopped (stopCode as Bench.Stop), rate
	// the family-wise false-alarm rate of the analysis it stopped at.
	stop, stopCode string
	rate           float64
}

// newDesign returns the design of a benchmark sized sz.
func (p Plan) newDesign(sz sizing) *design {
	d := &design{spend: stats.Spending{Alpha: 1 - vd.DefaultConfidence, Interim: interimShare}, warm: warmRounds,
		sz: sz, size: runSize{n: sz.n, run: sz.run}}
	if p.roundsSet || p.bt.N > 0 {
		d.fixed, d.triples, d.runs = true, p.Rounds, sz.rounds
		d.rate = 1 - vd.DefaultConfidence
		return d
	}
	d.budget = time.Duration(budgetFactor) * p.bt.D
	d.runs = max(sz.rounds/2, minRuns)
	d.warm = maxWarm
	return d
}

// total is the number of triples a fixed design runs, its sizing triple
// included once the first triple has shown it needs one; 0 for an
// adaptive design, which stops when a look decides or its budget is
// spent.
func (d *design) total() int {
	if d.fixed {
		return d.triples
	}
	return 0
}

// planned is the wall time the design expects to spend at most: an
// adaptive design's budget, a fixed one's runs (its processes' start
// aside).
func (d *design) planned(sz sizing) time.Duration {
	if d.fixed {
		return sz.cost(d.triples)
	}
	return d.budget
}

// shape returns the warm-up and measured rounds of the next triple, and
// the size of its runs.
func (d *design) shape() (warm, runs int, rs runSize) { return d.warm, d.runs, d.size }

// next takes the triples so far, spent wall time after them, and decides
// whether to go on: it learns the costs, the warm-up and the variance
// components, looks when a look is due (analyse, with the rate of that
// look, returns the candidate's verdict), re-plans the runs per triple,
// and stops (d.stop says why) when a look decided, the budget cannot buy
// another triple, or the design is complete.
func (d *design) next(ts []triple, spent time.Duration, analyse func(rate float64) vd.Verdict) bool {
	n := len(ts)
	if n == 1 {
		d.size = sizeForCollector(ts[0], d.sz)
		if d.fixed && d.size.gcPhase { // the first triple is left out
			d.triples, d.sizing = d.triples+1, 1
		}
		if d.size.n > d.sz.n { // as long in all as the runs it was sized for
			fewest := minRuns
			if d.fixed {
				fewest = minTripleRounds
			}
			d.runs = max(fewest, d.runs*d.sz.n/d.size.n)
		}
	}
	if d.fixed {
		if n >= d.triples {
			d.stop, d.stopCode = fmt.Sprintf("the %s asked for", pluralTriples(d.triples-d.sizing)), StopRounds
			return true
		}
		return false
	}
	d.learn(ts)
	if slices.Contains(lookAt, n) && n < maxTriples {
		d.looks++
		rate := d.spend.Look(d.looks)
		if v := analyse(rate); v != vd.Undecided {
			d.stop, d.stopCode, d.rate = fmt.Sprintf("decided at look %d, after %s", d.looks, pluralTriples(n)), StopDecided, rate
			return true
		}
	}
	if n >= pilotTriples && d.compsOK {
		d.runs = d.replan(n, spent)
	}
	cost := d.fixedCost + time.Duration(d.warm+d.runs)*d.roundCost
	switch {
	case n >= maxTriples:
		d.stop, d.stopCode = fmt.Sprintf("the most triples a benchmark gets (%d)", maxTriples), StopMax
	case n >= minTriples && spent+cost > d.budget:
		d.stop, d.stopCode = fmt.Sprintf("the budget of %s (%d × -benchtime) spent", textfmt.Dur(d.budget), budgetFactor), StopBudget
	default:
		return false
	}
	d.rate = d.spend.Final()
	return true
}

// replan returns the runs per process of the next triples: the optimal
// allocation for the variance components, and at most as many as let
// the triples reach DefaultRounds within the budget (one more at least):
// when processes hardly differ, the optimum is one long triple, but an
// interval over few triples is wide for its few degrees of freedom.
func (d *design) replan(n int, spent time.Duration) int {
	hi := maxTripleRounds
	if d.roundCost > 0 {
		left := max(DefaultRounds-n, 1)
		per := (d.budget - spent) / time.Duration(left)
		hi = max(minRuns, min(hi, int((per-d.fixedCost)/d.roundCost)-d.warm))
	}
	return d.comps.OptimalRuns(d.fixedCost, d.roundCost, minRuns, hi)
}

// learn updates the costs, the warm-up and the variance components from
// the triples so far.
func (d *design) learn(ts []triple) {
	var fixed, perIter []float64
	for _, tr := range ts {
		rounds := tr.warm + len(tr.ns[sideBase])
		if rounds == 0 || tr.n <= 0 {
			continue
		}
		perIter = append(perIter, float64(tr.roundsWall)/float64(rounds*tr.n))
		fixed = append(fixed, float64(max(tr.wall-tr.roundsWall, 0)))
	}
	if m, ok := stats.Median(perIter); ok { // a round of the next triple's runs
		d.roundCost = time.Duration(m * float64(d.size.n))
	}
	if m, ok := stats.Median(fixed); ok {
		d.fixedCost = time.Duration(m)
	}
	if len(ts) == 1 {
		d.warm = warmNeeded(ts[0])
	}
	var groups [][]float64
	corrected, _, _ := withCollector(ts)
	for _, tr := range corrected {
		if rs, ok := stats.PairedRatios(tr.ns[sideBase], tr.ns[sideControl]); ok {
			groups = append(groups, rs)
		}
	}
	d.comps, d.compsOK = stats.NestedOf(groups)
}

// warmSlack is how much slower than its steady runs a warm-up round may
// be and still count as warm: twice the runs' own spread, at least 2%.
const warmSlack = 2.0

// warmNeeded returns the rounds a fresh process needs before its runs
// are steady, from the first triple's discarded rounds: for each process,
// the length of the run of discarded rounds, from the first, each slower
// than its measured runs' median by more than warmSlack times their
// spread (at least 2%); the most over the three processes, at least 1. A
// slow round after a steady one is the machine's noise, not the
// process's warm-up, and does not count: on a noisy host it would
// otherwise keep every round of the maximum discarded.
func warmNeeded(tr triple) int {
	need := 1
	for s := range sides {
		steady, ok := stats.Median(tr.ns[s])
		mad, okM := stats.MAD(tr.ns[s])
		if !ok || !okM || steady <= 0 {
			continue
		}
		limit := steady * (1 + max(0.02, warmSlack*stats.MADNormal*mad/steady))
		for i, ns := range tr.warmNs[s] {
			if ns <= limit {
				break
			}
			need = max(need, i+1)
		}
	}
	return min(need, maxWarm)
}

// describe says how the design ran, for the row: the variance components
// when they were estimated, the triples and runs, and why it stopped.
func (d *design) describe(ts []triple) string {
	runs := make([]int, len(ts))
	for i, tr := range ts {
		runs[i] = len(tr.ns[sideBase])
	}
	lo, hi := slices.Min(runs), slices.Max(runs)
	shape := fmt.Sprintf("%s of %d runs", pluralTriples(len(ts)), hi)
	if lo != hi {
		shape = fmt.Sprintf("%s of %d–%d runs", pluralTriples(len(ts)), lo, hi)
	}
	s := shape + "; stopped: " + d.stop
	if d.compsOK {
		b, w := d.perProcess()
		s = fmt.Sprintf("processes differ by %.2g%%, runs by %.2g%%: ", b, w) + s
	}
	return s
}

// perProcess returns the variance components as one process's
// coefficients of variation, in percent: a ratio of two processes' runs
// carries two of each, so its components are √2 times a process's.
func (d *design) perProcess() (between, within float64) {
	return 100 * d.comps.Between / math.Sqrt2, 100 * d.comps.Within / math.Sqrt2
}

// Runs of an allocating benchmark. testing collects before every run, so
// a run of N ops that allocates B bytes an op holds ⌊N·B/H⌋ collections
// (H the heap's headroom after that collection) whatever the build: the
// same number in every run, and none when N·B < H. So after the first
// triple, which measures B and H (and is left out of the estimate: gc.go),
// the runs of an allocating benchmark begin at a random phase of the
// collector's cycle (the child allocates a uniform share of H as garbage
// before the run, outside its timing: child.EnvGCPhase), and hold
// N·B/S collections on average, the long run's rate. N is raised to
// gcCycles·H/B when that is larger, so that the collections a run holds
// are many and the first, which follows testing's forced collection and
// costs more than the others, a small share of it; and capped so that a
// run lasts at most maxGCRun. A fixed design runs one triple more.
const (
	gcCycles = 4
	maxGCRun = 30 * time.Millisecond
)

// sizeForCollector returns the runs of the triples after the first: at a
// random phase of the collector, of enough iterations to hold several
// collections, when the first triple's runs allocated; else as they were.
func sizeForCollector(tr triple, sz sizing) runSize {
	rs := runSize{n: sz.n, run: sz.run}
	bytes, okB := stats.Median(tr.bytes[sideBase])
	h, okH := stats.Median(positive(tr.gc[sideBase].headroom))
	if !okB || !okH || bytes <= 0 || h <= 0 {
		return rs
	}
	rs.gcPhase = true
	want := int(math.Ceil(gcCycles * h / bytes))
	most := max(sz.n, int(float64(maxGCRun)/max(sz.nsPerOp, 1)))
	if want > sz.n {
		rs.n = min(want, most)
		rs.run = time.Duration(float64(rs.n) * sz.nsPerOp)
	}
	return rs
}

// positive returns the elements of xs above 0.
func positive(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if x > 0 {
			out = append(out, x)
		}
	}
	return out
}
