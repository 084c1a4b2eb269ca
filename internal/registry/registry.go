package registry

import (
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/benchkit/go-benchkit/internal/stats"
)

// Bounds on what one [Registry] keeps. Beyond them the oldest runs are
// dropped (their count is kept in [Bench.TotalRuns]), repeated flags are
// merged, further comparisons of a benchmark are counted in
// [Bench.DroppedComparisons] (-count up to MaxComparisons keeps them all),
// and new benchmark names are counted in [Registry.Dropped].
const (
	MaxRuns        = 1024
	MaxFlags       = 16
	MaxTimeline    = 256
	MaxComparisons = 256
	MaxBenchmarks  = 4096
)

// Run is one measured run of a benchmark: one -count repeat, or one ramp
// step of a b.N-style benchmark that Track saw. Fields that could not be
// measured hold -1.
type Run struct {
	// Seq is the process-wide order in which runs were recorded, from 1.
	Seq int
	// Procs is GOMAXPROCS during the run (the -cpu value).
	Procs int
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

// Flag is one problem found in a benchmark, with a message that names the
// numbers and the fix.
type Flag struct {
	Kind    FlagKind
	Message string
	// Count is how many runs raised this kind; the message is the latest.
	Count int
	// Failed is true when the flag failed the benchmark in at least one
	// of those runs (b.Error): a stopped timer always does, any flag
	// under benchkit.FailOnFlags. benchkit.Main exits 1 on it, since go
	// test loses a failure in a later -count repeat.
	Failed bool
}

// Verdict is the outcome of one candidate in a comparison.
type Verdict string

// The verdicts a comparison can reach.
const (
	Faster    Verdict = "faster"    // decided: the candidate is faster than the baseline
	Slower    Verdict = "slower"    // decided: the candidate is slower
	Same      Verdict = "same"      // decided: no difference beyond the noise floor
	Undecided Verdict = "undecided" // the harness cannot decide; Reason says why
)

// Estimate is one implementation's difference from the baseline in a
// comparison: the median over rounds of (impl/base − 1)·100, and its
// confidence interval, in percent.
type Estimate struct {
	Name     string
	NsPerOp  float64
	DeltaPct float64
	LoPct    float64
	HiPct    float64
	Verdict  Verdict
	Reason   string
	// ForkDeltaPct holds each fork's own delta in percent when the
	// comparison ran in several processes; nil within one process.
	ForkDeltaPct []float64
}

// Comparison is the result of one control.Compare call.
type Comparison struct {
	// Baseline is the baseline's name; BaselineNsPerOp its median cost.
	Baseline        string
	BaselineNsPerOp float64
	// Control is the second copy of the baseline: its interval is the
	// harness's own error bar.
	Control    Estimate
	Candidates []Estimate
	// Rounds is the number of measured rounds; Confidence the interval's
	// level after any Bonferroni correction (for example 0.975).
	Rounds     int
	Confidence float64
	// Forks is the number of processes the rounds were spread over: 1
	// within one process, 0 unknown.
	Forks int
	// OverheadNs is the calibrated cost of one closure call, per op.
	OverheadNs float64
	// Gate is the regression threshold in percent (0: no gate), and
	// GateFailed whether a decided regression crossed it.
	Gate       float64
	GateFailed bool
	Warnings   []string
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
	against *Against
}

var std Registry

// Key returns the registry key for a benchmark named name (b.Name()) running
// now: the name testing prints, with the "-P" suffix when GOMAXPROCS P is
// not 1, so that runs under different -cpu values are kept apart and Track's
// rows and control's comparisons for one benchmark share a key.
func Key(name string) string {
	if p := runtime.GOMAXPROCS(0); p != 1 {
		return name + "-" + strconv.Itoa(p)
	}
	return name
}

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

// AddFlag records a problem. A flag of a kind already recorded for the
// benchmark replaces its message and increments its Count; Failed stays
// true once any of them failed the benchmark.
func (r *Registry) AddFlag(name string, f Flag) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.bench(name)
	if b == nil {
		return
	}
	for i := range b.Flags {
		if b.Flags[i].Kind == f.Kind {
			b.Flags[i].Message = f.Message
			b.Flags[i].Count++
			b.Flags[i].Failed = b.Flags[i].Failed || f.Failed
			return
		}
	}
	if len(b.Flags) == MaxFlags {
		return
	}
	f.Count = 1
	b.Flags = append(b.Flags, f)
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
	r.seq, r.order, r.benches, r.dropped, r.against = 0, nil, nil, 0, nil
}

// clone returns a deep copy of c.
func (c Comparison) clone() Comparison {
	c.Control.ForkDeltaPct = slices.Clone(c.Control.ForkDeltaPct)
	c.Candidates = slices.Clone(c.Candidates)
	for i := range c.Candidates {
		c.Candidates[i].ForkDeltaPct = slices.Clone(c.Candidates[i].ForkDeltaPct)
	}
	c.Warnings = slices.Clone(c.Warnings)
	return c
}
