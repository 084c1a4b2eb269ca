package against

import (
	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/count"
)

// Binary identifies a test binary of a cross-build comparison, from its
// file and its build information (debug/buildinfo). Unknown fields are
// "".
type Binary struct {
	// Path is the file as given (for this binary, os.Args[0]); Package
	// the import path of the package under test (build info's path
	// without ".test").
	Path, Package string
	// GoVersion is the toolchain that built it ("go1.26.8").
	GoVersion string
	// VCSRevision, VCSTime and VCSModified are the build's vcs.revision,
	// vcs.time and vcs.modified settings, when the go command stamped
	// them (it does not for go test -c in every version).
	VCSRevision, VCSTime string
	VCSModified          bool
	// SHA256 is the hex SHA-256 of the file: it tells two builds apart
	// when nothing else does.
	SHA256 string
}

// Side is one binary's measurements of one benchmark, one value per
// complete round: ns/op, allocs/op and B/op as go test printed them
// (allocs and bytes nil when the output had none), and the iteration
// count b.N of the line (Iters; nil when not recorded).
type Side struct {
	NsPerOp     []float64
	AllocsPerOp []float64
	BytesPerOp  []float64
	Iters       []int
}

// Count is a deterministic per-op count (allocs/op or B/op) of a
// cross-build comparison: the median over rounds of each side, -1 when
// unknown. Varies is true when a side's rounds did not all agree (a count
// that depends on timing, such as allocations amortised over b.N).
type Count struct {
	Base, New float64
	Varies    bool
}

// Changed reports whether both sides are known and differ.
func (c Count) Changed() bool { return c.Base >= 0 && c.New >= 0 && c.Base != c.New }

// Bench is one benchmark of a cross-build comparison.
type Bench struct {
	// Name is the name go test prints, without "Benchmark" and with the
	// -procs suffix ("Sum/n=10-2").
	Name string
	// Base, New and Control are the base binary's, this binary's and the
	// base binary's second process's measurements, paired by round.
	Base, New, Control Side
	// NewEst and ControlEst are the estimates of new/base and of
	// control/base (the A/A control): the median over rounds of the
	// per-round ratio and its sign-test interval, in percent, with the
	// verdict.
	NewEst, ControlEst verdict.Estimate
	Allocs, Bytes      Count
	// GatesFailed lists the gates this benchmark failed, as the
	// comparison decided them: GateTime (NewEst.GateFailed: a decided
	// Slower beyond Against.GatePct), GateAllocs (with Against.GateAllocs,
	// allocs/op went up), GateInstr (instructions per op rose beyond
	// Against.GateInstr); empty when it failed none. GateNote says why a
	// gate was not applied (an undecided Δ above it, a count that could
	// not be made), or "".
	GatesFailed []string
	GateNote    string
	// Instr is the benchmark's instructions per op in each binary, with
	// -benchkit.count=instructions; nil without it.
	Instr *InstrChange
	// Mode is how the benchmark was measured: ModeLockstep (runs of N
	// iterations interleaved across live processes, Groups[t] rounds in
	// triple t, the interval over the triples) or ModeRounds (rounds of
	// whole processes); ModeNote says why a benchmark fell back to rounds
	// when lockstep was asked for ("" otherwise).
	Mode     string
	ModeNote string
	Groups   []int
	// Design, in lockstep, says how the triples were shaped and why they
	// stopped ("processes differ by 6.1%, runs by 1.8%: 48 triples of 6
	// runs; stopped: …"); Confidence is the level of its intervals, which
	// a sequential design sets per benchmark (0: Result.Confidence).
	Design     string
	Confidence float64
	// Stop says, in lockstep, why the triples stopped: StopDecided (an
	// interim look decided), StopBudget (the budget could not buy
	// another), StopRounds (the -benchkit.rounds asked for), StopMax (the
	// most a benchmark gets), StopFailed (a process ended it); "" in
	// rounds. BetweenPct and WithinPct are the variance components the
	// design saw, as one process's coefficients of variation in percent:
	// how much processes differ, and runs within one; -1 when unknown.
	Stop                  string
	BetweenPct, WithinPct float64
	// GC, in lockstep where the runs held collections, is the cost per op
	// recomposed with the collector at the rate a long run pays it (its
	// estimate is then NewEst), with its parts; GCNote says why a
	// benchmark whose runs held collections could not be recomposed ("").
	GC     *GCParts
	GCNote string
	// DetectablePct is the smallest change, in percent either way, that
	// this run could have decided: the control's interval and a candidate
	// interval as wide beyond it; 0 without a control interval.
	DetectablePct float64
	// IdleCPUPct, in lockstep, is the CPU time the two waiting processes
	// of a triple used while the third ran, in percent of the runs' wall
	// time, over every triple; -1 when unknown (outside Linux, or in
	// rounds).
	IdleCPUPct float64
	// RunWaitPct, in lockstep, is the share of the runs' timed time, in
	// percent, during which the benchmark's thread waited for a CPU that
	// another program held; it was taken out of each run's time (Design
	// says so). -1 when unknown (outside Linux, a base built before the
	// probe, or in rounds).
	RunWaitPct float64
}

// InstrChange is a cross-build benchmark's instructions per op, counted
// under valgrind in each binary the same way, and the change from base to
// new (package internal/count's Compare).
type InstrChange struct {
	Base, New count.Result
	// DeltaPct is new/base − 1 in percent (NaN unless both were counted);
	// TolerancePct the largest |DeltaPct| that is not a change; Changed
	// is |DeltaPct| > TolerancePct.
	DeltaPct, TolerancePct float64
	Changed                bool
}

// The gates of a cross-build comparison (Bench.GatesFailed).
const (
	GateTime   = "time"
	GateAllocs = "allocs"
	GateInstr  = "instructions"
)

// Why lockstep's triples stopped (Bench.Stop).
const (
	StopDecided = "decided"
	StopBudget  = "budget"
	StopRounds  = "rounds"
	StopMax     = "max"
	StopFailed  = "failed"
)

// BaseName names the base in messages: the revision as given, or the
// base binary's path.
func (a Result) BaseName() string {
	if a.BaseRev != nil {
		return a.BaseRev.Rev
	}
	return a.Base.Path
}

// GateFailed reports whether the benchmark failed any gate.
func (b Bench) GateFailed() bool { return len(b.GatesFailed) > 0 }

// Counted reports whether both binaries were counted.
func (c InstrChange) Counted() bool { return c.Base.Counted() && c.New.Counted() }

// How a cross-build benchmark was measured (Bench.Mode).
const (
	ModeLockstep = "lockstep"
	ModeRounds   = "rounds"
)

// Failure is a process of a cross-build comparison that failed, or the
// base's build.
type Failure struct {
	// Side is "base", "new" or "control" (the base binary's second
	// process of the round); Round counts from 1 (0: discovery, or the
	// build). Build is true for a base built from a revision that did not
	// build: Message says how, Output is the go command's.
	Side  string
	Round int
	Build bool
	// Benchmarks are the names that printed --- FAIL or were running when
	// the process panicked; empty when none could be told.
	Benchmarks []string
	// Message says what happened (exit status, killed, deadline).
	Message string
	// Output is the start and end of what the process printed.
	Output string
}

// Result is what [Measure] returns: this test
// binary compared with another build of the same package, each benchmark
// in lockstep or in rounds of fresh processes (base, new, base again as
// the A/A control).
type Result struct {
	Base, New Binary
	// BaseRev, for a base built from a git revision, says which commit
	// and how; nil for a base binary given by path.
	BaseRev *Revision
	// Pattern is the -test.bench selection, Benchtime each process's
	// -test.benchtime, Rounds the rounds run (each of 3 processes), Seed
	// the order's seed.
	Pattern, Benchtime string
	Rounds             int
	Seed               uint64
	// Shard is -benchkit.shard ("2/4"): the run measured the share of
	// Pattern's benchmarks in that shard; "" for all of them.
	Shard string
	// Pairing is what was asked for (ModeLockstep or ModeRounds); each
	// benchmark's Mode says what it got. RunTargetNs is
	// the length a lockstep run was sized to, in ns.
	Pairing     string
	RunTargetNs int64
	// GateInstr is -benchkit.gate.instructions, in percent (0: none): a
	// rise in instructions per op beyond it fails the benchmark.
	GateInstr float64
	// Confidence is each interval's level (Bonferroni over the candidate
	// and the control), Negligible the ε of the rule, in percent.
	Confidence, Negligible float64
	// GatePct is the time gate in percent (0: none); GateAllocs fails on
	// any increase in allocs/op.
	GatePct    float64
	GateAllocs bool
	Benches    []Bench
	// OnlyBase and OnlyNew list the benchmarks found in one binary only:
	// listed, not compared.
	OnlyBase, OnlyNew []string
	// Failures are the processes that failed; a failed benchmark is left
	// out of the later rounds.
	Failures []Failure
	Warnings []string
	// NothingCompared, when not "", fails a gated run that compared no
	// benchmark, and says why nothing was compared.
	NothingCompared string
}
