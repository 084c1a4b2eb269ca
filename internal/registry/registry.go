package registry

import (
	"slices"
	"sync"
	"time"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// Bounds on what one [Registry] keeps. Beyond them the oldest runs are
// dropped (their count is kept in [Bench.TotalRuns]), repeated flags are
// merged, further comparisons of a benchmark are counted in
// [Bench.DroppedComparisons] (-count up to MaxComparisons keeps them all),
// a comparison's per-round times are thinned to MaxRoundTimes evenly
// spaced rounds ([Comparison.RoundNs]), and new benchmark names are
// counted in [Registry.Dropped].
const (
	MaxRuns        = 1024
	MaxFlags       = 16
	MaxTimeline    = 256
	MaxComparisons = 256
	MaxRoundTimes  = 1024
	MaxBenchmarks  = 4096
)

// Run is one measured run of a benchmark: one -count repeat, or one ramp
// step of a b.N-style benchmark that Track saw. Fields that could not be
// measured hold -1.
type Run struct {
	// Seq is the process-wide order in which runs were recorded, from 1.
	Seq int
	// Procs is the -cpu value testing prints for the run (its "-P" name
	// suffix), which is GOMAXPROCS during the run but for StaleProcs.
	Procs int
	// StaleProcs is GOMAXPROCS while the run was measured when it was not
	// Procs, else 0: testing runs the first call of each benchmark before
	// it sets the first -cpu value (golang/go#49980), so a b.Loop
	// benchmark's first repeat (and a b.N-style one's under
	// -benchtime=1x) is measured at the previous benchmark's last -cpu
	// value and printed under the first.
	StaleProcs int
	// N is the final b.N of the run.
	N int
	// NsPerOp is the timed duration over N, in nanoseconds per iteration,
	// as testing computes it (float, not truncated).
	NsPerOp float64
	// AllocsPerOp and BytesPerOp are heap allocations and bytes per
	// iteration over the run, or -1 when unknown.
	AllocsPerOp float64
	BytesPerOp  float64
	// Wall is the wall-clock time from Track's call to the run's end.
	Wall time.Duration
	// TimedFraction is b.Elapsed() over Wall, in [0, 1], or -1.
	TimedFraction float64
	// WaitFraction is the run-queue wait of the process's threads over
	// Wall (can exceed 1 with several threads waiting), or -1 unknown.
	WaitFraction float64
	// InvoluntarySwitches is the process's involuntary context switches
	// during the run, or -1 unknown.
	InvoluntarySwitches int64
	// WithinCV is the coefficient of variation, in percent, of the batch
	// times inside the run (Loop only), or -1.
	WithinCV float64
}

// FlagKind names a class of problem found in a benchmark.
type FlagKind string

// The flag kinds benchkit and control raise.
const (
	FlagEliminated    FlagKind = "eliminated"     // ns/op at the empty-loop floor
	FlagAllocs        FlagKind = "allocs"         // fewer allocations than declared
	FlagTimerStopped  FlagKind = "timer-stopped"  // StopTimer without StartTimer
	FlagTimerToggling FlagKind = "timer-toggling" // most wall time spent with the timer off
	FlagSetupCost     FlagKind = "setup-cost"     // per-iteration setup costs more than the work
	FlagMisuse        FlagKind = "misuse"         // an API used in a way that cannot measure
)

// Certain reports whether a flag of kind k is certain, rather than
// inferred from timing: a stopped timer (the audit fails only on
// evidence no load produces), fewer allocations than the benchmark
// declared (an exact count), and misuse of the API. Eliminated work,
// timer toggling and setup cost are judged from times, which a noisy
// machine or a genuinely tiny body can mislead; only they can be accepted
// with benchkit.Allow.
func (k FlagKind) Certain() bool {
	switch k {
	case FlagEliminated, FlagTimerToggling, FlagSetupCost:
		return false
	}
	return true
}

// Flag is one problem found in a benchmark, with a message that names the
// numbers and the fix.
type Flag struct {
	Kind FlagKind
	// Message is the one-line headline logged under the benchmark, and
	// Detail the full explanation for the report ("" when the headline
	// says it all).
	Message string
	Detail  string
	// Allowed is the reason given with benchkit.Allow for accepting this
	// kind in this benchmark, or "": an allowed flag is still recorded
	// and shown, and fails nothing, not even in strict mode.
	Allowed string
	// Count is how many runs raised this kind; the message is the latest.
	Count int
	// Parent is true for the misuse flag of Track called in a benchmark
	// that calls b.Run: testing measures only its sub-benchmarks, so Track
	// there records nothing. Like the message, it is the latest run's.
	Parent bool
	// Failed is true when the flag failed the benchmark in at least one
	// of those runs (b.Error): a stopped timer always does, any flag
	// under benchkit.FailOnFlags. benchkit.Main exits 1 on it, since go
	// test loses a failure in a later -count repeat.
	Failed bool
}

// Comparison is the result of one control.Compare call: the verdicts and
// what Compare measured, with what the report adds.
type Comparison struct {
	verdict.Result
	// Procs is GOMAXPROCS during the comparison (0 unknown).
	Procs int
	// RoundNs holds each implementation's time per call in each round, in
	// ns: RoundNs[0] the baseline's, RoundNs[1] the control's, then the
	// candidates' in order; round r of every implementation is the same
	// round (with forks, the forks' rounds one after another). Beyond
	// MaxRoundTimes rounds, AddComparison keeps MaxRoundTimes evenly
	// spaced ones, the same for every implementation; Rounds still counts
	// them all. Nil when the rounds were not recorded.
	RoundNs [][]float64
}

// Bench is everything recorded for one benchmark name.
type Bench struct {
	Name string
	// Runs in the order they were recorded, at most MaxRuns (the latest).
	Runs []Run
	// TotalRuns counts every run recorded, including dropped ones.
	TotalRuns int
	Flags     []Flag
	// Timeline is the per-iteration cost, in ns, of successive batches of
	// the latest run timed by Loop, merged pairwise to stay within
	// MaxTimeline points.
	Timeline []float64
	// Comparisons in the order they were recorded, at most
	// MaxComparisons (the first); DroppedComparisons counts the ones
	// recorded beyond that bound.
	Comparisons        []Comparison
	DroppedComparisons int
}

// Registry holds the records of one process. The zero value is ready to use.
type Registry struct {
	mu      sync.Mutex
	seq     int
	order   []string
	benches map[string]*Bench
	dropped int
}

var std Registry

// Default returns the process-wide registry that Track, Loop, Compare and
// Main share.
func Default() *Registry { return &std }

func (r *Registry) bench(name string) *Bench {
	if b, ok := r.benches[name]; ok {
		return b
	}
	if len(r.order) >= MaxBenchmarks {
		r.dropped++
		return nil
	}
	if r.benches == nil {
		r.benches = make(map[string]*Bench)
	}
	b := &Bench{Name: name}
	r.benches[name] = b
	r.order = append(r.order, name)
	return b
}

// AddRun records a run of the named benchmark and returns it with Seq set.
func (r *Registry) AddRun(name string, run Run) Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	run.Seq = r.seq
	b := r.bench(name)
	if b == nil {
		return run
	}
	if len(b.Runs) == MaxRuns {
		copy(b.Runs, b.Runs[1:])
		b.Runs = b.Runs[:MaxRuns-1]
	}
	b.Runs = append(b.Runs, run)
	b.TotalRuns++
	return run
}

// NsPerOp returns the ns/op of the named benchmark's kept runs in order.
func (r *Registry) NsPerOp(name string) []float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.benches[name]
	if !ok {
		return nil
	}
	xs := make([]float64, len(b.Runs))
	for i, run := range b.Runs {
		xs[i] = run.NsPerOp
	}
	return xs
}

// AddFlag records a problem and returns how many runs of the benchmark
// have raised its kind so far, this one included (0 when the registry
// could not hold it). A flag of a kind already recorded for the benchmark
// replaces its message, detail and allowance and increments its Count;
// Failed stays true once any of them failed the benchmark.
func (r *Registry) AddFlag(name string, f Flag) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.bench(name)
	if b == nil {
		return 0
	}
	for i := range b.Flags {
		if b.Flags[i].Kind == f.Kind {
			g := &b.Flags[i]
			g.Message, g.Detail, g.Allowed, g.Parent = f.Message, f.Detail, f.Allowed, f.Parent
			g.Count++
			g.Failed = g.Failed || f.Failed
			return g.Count
		}
	}
	if len(b.Flags) == MaxFlags {
		return 0
	}
	f.Count = 1
	b.Flags = append(b.Flags, f)
	return 1
}

// SetTimeline replaces the named benchmark's timeline with a copy of ts,
// averaging consecutive points ([stats.Compress]) so that at most MaxTimeline remain.
func (r *Registry) SetTimeline(name string, ts []float64) {
	ts = stats.Compress(slices.Clone(ts), MaxTimeline)
	r.mu.Lock()
	defer r.mu.Unlock()
	if b := r.bench(name); b != nil {
		b.Timeline = ts
	}
}

// AddComparison records a comparison made inside the named benchmark;
// beyond MaxComparisons it only counts it in DroppedComparisons.
func (r *Registry) AddComparison(name string, c Comparison) {
	c = c.clone()
	c.RoundNs = thinRounds(c.RoundNs, MaxRoundTimes)
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.bench(name)
	switch {
	case b == nil:
	case len(b.Comparisons) == MaxComparisons:
		b.DroppedComparisons++
	default:
		b.Comparisons = append(b.Comparisons, c)
	}
}

// Benchmarks returns deep copies of every benchmark's records, in the order
// the names were first seen.
func (r *Registry) Benchmarks() []Bench {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Bench, 0, len(r.order))
	for _, name := range r.order {
		b := r.benches[name]
		c := *b
		c.Runs = slices.Clone(b.Runs)
		c.Flags = slices.Clone(b.Flags)
		c.Timeline = slices.Clone(b.Timeline)
		c.Comparisons = make([]Comparison, len(b.Comparisons))
		for i, cmp := range b.Comparisons {
			c.Comparisons[i] = cmp.clone()
		}
		out = append(out, c)
	}
	return out
}

// Dropped reports how many records were discarded because MaxBenchmarks
// names were already held.
func (r *Registry) Dropped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Reset forgets everything. It is for tests.
func (r *Registry) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq, r.order, r.benches, r.dropped = 0, nil, nil, 0
}

// clone returns a deep copy of c.
func (c Comparison) clone() Comparison {
	c.Result = c.Result.Clone()
	if c.RoundNs != nil {
		rs := make([][]float64, len(c.RoundNs))
		for i, ns := range c.RoundNs {
			rs[i] = slices.Clone(ns)
		}
		c.RoundNs = rs
	}
	return c
}

// thinRounds returns rs with at most limit rounds per implementation:
// when the longest has n > limit, round ⌊k·n/limit⌋ for k = 0…limit−1,
// the same indices for every implementation so that rounds stay paired
// (an implementation with fewer rounds keeps those of them that exist).
// It modifies rs's slices in place.
func thinRounds(rs [][]float64, limit int) [][]float64 {
	n := 0
	for _, ns := range rs {
		n = max(n, len(ns))
	}
	if n <= limit {
		return rs
	}
	for i, ns := range rs {
		kept := ns[:0]
		for k := 0; k < limit; k++ {
			if j := int(int64(k) * int64(n) / int64(limit)); j < len(ns) { // int64: no overflow on 32-bit
				kept = append(kept, ns[j])
			}
		}
		rs[i] = kept
	}
	return rs
}
