package verdict

import "math"

// Verdict is the outcome of one candidate in a comparison.
type Verdict string

// The verdicts. Faster and Slower are decided differences; Same is a
// decided absence of a difference that matters; Undecided means the
// measurement cannot tell, and the Estimate's Reason says why.
const (
	Faster    Verdict = "faster"
	Slower    Verdict = "slower"
	Same      Verdict = "same"
	Undecided Verdict = "undecided"
)

// Sample is the measured per-operation time of one implementation in each
// round, in nanoseconds: NsPerOp[r] is its time in round r (a batch, or a
// process's run) divided by the iteration count.
type Sample struct {
	Name    string
	NsPerOp []float64
}

// Estimate is one implementation's difference from the baseline.
type Estimate struct {
	Name string
	// NsPerOp is the implementation's median time per operation in
	// nanoseconds (over groups, the median of the groups' medians).
	NsPerOp float64
	// DeltaPct is the difference from the baseline in percent, and
	// [LoPct, HiPct] its interval at Result.Confidence, as [Analyze] and
	// [AnalyzeGroups] define them. Without an interval (too few rounds or
	// groups, a time that could not be paired) both bounds are NaN and the
	// verdict is Undecided.
	DeltaPct, LoPct, HiPct float64
	Verdict                Verdict
	// Reason says, with the numbers, why the verdict was reached.
	Reason string
	// ForkDeltaPct holds each group's own delta, in order, when the
	// comparison ran in several processes; nil within one process.
	ForkDeltaPct []float64
	// GateFailed is true when this candidate is decided Slower by more
	// than Result.Gate. GateNote, when the estimate lies above the gate
	// but is Undecided, says why the gate was not applied; "" otherwise.
	GateFailed bool
	GateNote   string
}

// Result is the outcome of one comparison.
type Result struct {
	// Baseline is the baseline's name, BaselineNsPerOp its median time per
	// operation in nanoseconds.
	Baseline        string
	BaselineNsPerOp float64
	// Control is the second copy of the baseline, measured as a candidate.
	Control    Estimate
	Candidates []Estimate
	// Rounds is the number of measured rounds, warm-up excluded;
	// Confidence the level of each interval after the Bonferroni
	// correction.
	Rounds     int
	Confidence float64
	// Forks is the number of processes (or groups of processes) the
	// rounds were spread over; 1 means within one process.
	Forks int
	// Negligible and Gate are the thresholds used, in percent (Gate 0: no
	// gate); GateFailed is true when a candidate failed the gate.
	Negligible float64
	Gate       float64
	GateFailed bool
	// Measurement details, set by the measuring caller (zero from the
	// analysis alone): iterations per batch, closure-call overhead per
	// operation in ns, the order seed, and the budget in ns.
	BatchIters      int
	OverheadNsPerOp float64
	Seed            uint64
	BudgetNs        float64
	// Warnings are conditions that weaken the result without changing the
	// verdicts.
	Warnings []string
}

// Clone returns a deep copy of r.
func (r Result) Clone() Result {
	r.Control = r.Control.clone()
	cs := make([]Estimate, len(r.Candidates))
	for i, e := range r.Candidates {
		cs[i] = e.clone()
	}
	if r.Candidates == nil {
		cs = nil
	}
	r.Candidates = cs
	r.Warnings = append([]string(nil), r.Warnings...)
	return r
}

// HasInterval reports whether e has a confidence interval.
func (e Estimate) HasInterval() bool {
	return !math.IsNaN(e.LoPct) && !math.IsNaN(e.HiPct)
}

func (e Estimate) clone() Estimate {
	e.ForkDeltaPct = append([]float64(nil), e.ForkDeltaPct...)
	return e
}
