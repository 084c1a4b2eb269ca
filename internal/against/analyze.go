package against

import (
	"fmt"
	"math"
	"slices"
	"strings"

	vd "github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// result gathers the run's record: every benchmark measured in complete
// rounds, analysed, and the names found in one binary only.
func (st *state) result() Result {
	level, _ := stats.PairedConfidence(vd.DefaultConfidence, 2)
	a := Result{
		Base: st.p.base, New: st.p.new, BaseRev: st.p.rev, Pattern: st.p.shownPattern(), Shard: st.p.shard.String(), Benchtime: st.p.share,
		Seed: st.p.seed, Confidence: level, Negligible: vd.DefaultNegligible,
		GatePct: st.p.Gate, GateAllocs: st.p.GateAllocs, Failures: st.failures, Warnings: append(slices.Clone(st.p.warnings), st.warnings...),
	}
	a.Pairing, a.RunTargetNs, a.GateInstr = st.p.Pairing, int64(runTarget), st.p.GateInstr
	for _, lb := range st.locked {
		a.Benches = append(a.Benches, lockedOf(lb, a, lb.rate))
		a.Rounds = max(a.Rounds, len(lb.groups))
		if w := idleWarning(lb.name, lb.idle.Pct()); w != "" {
			a.Warnings = append(a.Warnings, w)
		}
	}
	for _, name := range st.order {
		sd := st.sides[name]
		b := benchOf(name, sd[sideBase], sd[sideNew], sd[sideControl], a)
		b.Mode, b.ModeNote = ModeRounds, st.roundsWhy[name]
		a.Benches = append(a.Benches, b)
		a.Rounds = max(a.Rounds, len(sd[sideBase].NsPerOp))
	}
	slices.SortStableFunc(a.Benches, func(x, y Bench) int { return strings.Compare(x.Name, y.Name) })
	if b, n := st.p.base.GoVersion, st.p.new.GoVersion; b != "" && n != "" && b != n {
		a.Warnings = append(a.Warnings, fmt.Sprintf("benchkit: the base was built with %s and this binary with %s: the A/A control (the base twice) cannot see a toolchain difference, so a verdict here is the code and the toolchain together; build both with the same go", b, n))
	}
	base := merge(st.seen[sideBase], st.seen[sideControl])
	if !st.blind(sideNew) {
		a.OnlyBase = st.only(base, st.seen[sideNew])
	}
	if !st.blind(sideBase) {
		a.OnlyNew = st.only(st.seen[sideNew], base)
	}
	a.NothingCompared = nothingCompared(a, st.p.Gated())
	return a
}

// nothingCompared returns why a gated run that compared no benchmark
// fails, or "": a gate that compared nothing must not pass. A run whose
// every selected benchmark is new (none in the base, nothing failed) has
// nothing to gate, and passes.
func nothingCompared(a Result, gated bool) string {
	if !gated || len(a.Benches) > 0 {
		return ""
	}
	var why string
	switch {
	case len(a.OnlyBase) == 0 && len(a.Failures) == 0 && len(a.OnlyNew) > 0:
		return ""
	case slices.ContainsFunc(a.Failures, func(f Failure) bool { return f.Build }):
		why = "the base did not build (the go command's output above); fix its build, or compare against a revision where the package builds"
	case slices.ContainsFunc(a.Failures, func(f Failure) bool { return f.Side != sideNames[sideNew] }):
		why = "the base's processes failed (the failures above say how, with their output); fix the base, or build it at a commit where the benchmarks run"
	case len(a.Failures) > 0:
		why = "this binary's processes failed (the failures above say how); fix the benchmarks"
	case len(a.OnlyBase) > 0:
		why = "the two binaries have no benchmark in common (renamed?): the base has " + strings.Join(a.OnlyBase, ", ")
	default:
		why = "no benchmark matched -bench=" + a.Pattern + " in either binary; check the pattern"
	}
	return "benchkit: against " + a.BaseName() + ": the gate compared nothing, and a gate that compared nothing does not pass: " + why
}

// blind reports whether a process of side s's binary failed without
// naming a benchmark: what that binary has is then not known, and no
// benchmark is listed as missing from it.
func (st *state) blind(s int) bool {
	return slices.ContainsFunc(st.failures, func(f Failure) bool {
		return len(f.Benchmarks) == 0 && (f.Side == sideNames[sideNew]) == (s == sideNew)
	})
}

// only returns the names in mine and not in other, sorted, leaving out
// the benchmarks that failed (they are reported as failures).
func (st *state) only(mine, other map[string]bool) []string {
	var out []string
	for name := range mine {
		if !other[name] && !st.failed["Benchmark"+benchname.TopLevel(name)] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func merge(a, b map[string]bool) map[string]bool {
	m := make(map[string]bool, len(a)+len(b))
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// benchOf analyses one benchmark's rounds (base, new and control
// paired by round) with the estimator and rule of control.Compare
// (verdict.Analyze, ε = a.Negligible), each round being fresh processes:
// per round r the ratios new(r)/base(r) and control(r)/base(r); Δ is
// (median ratio − 1)·100 and its interval the sign-test interval of the
// median, which holds across processes because every round is new ones,
// and which, being distribution-free, is not thrown by the odd round a
// busy machine makes several times slower. allocs/op and B/op are
// compared exactly, as the median of each side's rounds. a's gates apply
// (gate).
func benchOf(name string, base, cand, ctl Side, a Result) Bench {
	b := Bench{Name: name, Base: base, New: cand, Control: ctl, IdleCPUPct: -1, BetweenPct: -1, WithinPct: -1, RunWaitPct: -1}
	res, err := vd.Analyze(vd.Sample{Name: "base", NsPerOp: base.NsPerOp}, vd.Sample{Name: "control", NsPerOp: ctl.NsPerOp},
		[]vd.Sample{{Name: "new", NsPerOp: cand.NsPerOp}},
		vd.Options{Negligible: a.Negligible, Gate: a.GatePct, Unit: "rounds",
			UnitFix: "more rounds (-benchkit.rounds) or a longer -benchtime narrow it", TooFewFix: "raise -benchkit.rounds"})
	finish(&b, res, err, "rounds", a)
	return b
}

// finish sets b's estimates from the estimator's result (or, when it
// could not compare the units, undecided estimates saying why), compares
// the counts and applies a's gates.
func finish(b *Bench, res vd.Result, err error, units string, a Result) {
	if err != nil {
		why := "cannot compare the " + units + ": " + err.Error()
		none := math.NaN()
		b.ControlEst = vd.Estimate{Name: "control", NsPerOp: -1, DeltaPct: none, LoPct: none, HiPct: none, Verdict: vd.Undecided, Reason: why}
		b.NewEst = vd.Estimate{Name: "new", NsPerOp: -1, DeltaPct: none, LoPct: none, HiPct: none, Verdict: vd.Undecided, Reason: why}
	} else {
		b.ControlEst, b.NewEst = res.Control, res.Candidates[0]
	}
	b.DetectablePct = detectable(b.ControlEst)
	b.Allocs = countOf(b.Base.AllocsPerOp, b.New.AllocsPerOp, b.Control.AllocsPerOp)
	b.Bytes = countOf(b.Base.BytesPerOp, b.New.BytesPerOp, b.Control.BytesPerOp)
	gate(b, a)
}

// detectable is the smallest change either way that a comparison with
// the control's interval [lo, hi] could decide: a candidate interval of
// the same half-width h lies beyond the control's when its centre is above
// hi + h or below lo − h. 0 without an interval.
func detectable(ctl vd.Estimate) float64 {
	if !ctl.HasInterval() {
		return 0
	}
	h := (ctl.HiPct - ctl.LoPct) / 2
	return max(ctl.HiPct+h, h-ctl.LoPct)
}

// countOf compares a deterministic count: the (lower) median of base's and of
// new's rounds, -1 when a side has none; Varies when the rounds of a side
// (base and control together) disagree.
func countOf(base, cand, ctl []float64) Count {
	c := Count{Base: -1, New: -1}
	if m, ok := stats.LowerMedian(base); ok {
		c.Base = m
	}
	if m, ok := stats.LowerMedian(cand); ok {
		c.New = m
	}
	both := append(slices.Clone(base), ctl...)
	c.Varies = varies(both) || varies(cand)
	return c
}

func varies(xs []float64) bool {
	return len(xs) > 1 && slices.Min(xs) != slices.Max(xs)
}

// gate records b's time gate, which the estimator decided (Estimate's
// GateFailed and GateNote, with a.GatePct as Options.Gate), and decides
// its allocation gate: with a.GateAllocs, any increase in allocs/op.
func gate(b *Bench, a Result) {
	if b.NewEst.GateFailed {
		b.GatesFailed = append(b.GatesFailed, GateTime)
	}
	b.GateNote = b.NewEst.GateNote
	if a.GateAllocs && b.Allocs.Changed() && b.Allocs.New > b.Allocs.Base {
		b.GatesFailed = append(b.GatesFailed, GateAllocs)
	}
}

// lockedOf analyses a benchmark measured in lockstep: each triple's
// median ratio of new to base and of control to base, and Student's
// t-interval over the triples (verdict.AnalyzeGroups), as Compare's forks
// are, at the family-wise false-alarm rate rate (0: the default); the
// counts as benchOf compares them.
func lockedOf(lb lockedBench, a Result, rate float64) Bench {
	b := Bench{Name: lb.name, Base: lb.sides[sideBase], New: lb.sides[sideNew], Control: lb.sides[sideControl],
		Mode: ModeLockstep, Groups: lb.groups, IdleCPUPct: lb.idle.Pct(), RunWaitPct: lb.waited.Pct(), Design: lb.design,
		Stop: lb.stop, BetweenPct: lb.between, WithinPct: lb.within}
	groups := make([][]vd.Sample, 0, len(lb.groups))
	at := 0
	for _, n := range lb.groups {
		cut := func(s Side) []float64 { return s.NsPerOp[at : at+n] }
		groups = append(groups, []vd.Sample{{Name: "base", NsPerOp: cut(b.Base)}, {Name: "control", NsPerOp: cut(b.Control)}, {Name: "new", NsPerOp: cut(b.New)}})
		at += n
	}
	b.GC, b.GCNote = lb.gc, lb.gcWhy
	o := vd.Options{Negligible: a.Negligible, Gate: a.GatePct, Unit: "triples",
		UnitFix: "a longer -benchtime buys more triples and narrows it", TooFewFix: "raise -benchtime"}
	if rate > 0 {
		o.Confidence = 1 - rate
	}
	res, err := vd.AnalyzeGroups(groups, o)
	b.Confidence = res.Confidence
	finish(&b, res, err, "runs", a)
	return b
}
