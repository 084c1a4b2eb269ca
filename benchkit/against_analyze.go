package benchkit

import (
	"fmt"
	"slices"

	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	vd "github.com/benchkit/go-benchkit/internal/verdict"
)

// result gathers the run's record: every benchmark measured in complete
// rounds, analysed, and the names found in one binary only.
func (st *againstState) result() registry.Against {
	level, _ := stats.PairedConfidence(vd.DefaultConfidence, 2)
	a := registry.Against{
		Base: st.p.base, New: st.p.new, Pattern: st.p.pattern, Benchtime: st.p.share,
		Seed: st.p.seed, Confidence: level, Negligible: vd.DefaultNegligible,
		GatePct: st.p.gate, GateAllocs: st.p.gateAllocs, Failures: st.failures, Warnings: st.warnings,
	}
	for _, name := range st.order {
		sd := st.sides[name]
		a.Benches = append(a.Benches, againstBench(name, sd[sideBase], sd[sideNew], sd[sideControl], a))
		a.Rounds = max(a.Rounds, len(sd[sideBase].NsPerOp))
	}
	base := merge(st.seen[sideBase], st.seen[sideControl])
	a.OnlyBase = st.only(base, st.seen[sideNew])
	a.OnlyNew = st.only(st.seen[sideNew], base)
	return a
}

// only returns the names in mine and not in other, sorted, leaving out
// the benchmarks that failed (they are reported as failures).
func (st *againstState) only(mine, other map[string]bool) []string {
	var out []string
	for name := range mine {
		if !other[name] && !st.failed["Benchmark"+topLevel(name)] {
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

// againstBench analyses one benchmark's rounds (base, new and control
// paired by round, every time finite and > 0) with the verdict rule of
// control.Compare (verdict.Rule, ε = a.Negligible): per round r the
// ratios new(r)/base(r) and control(r)/base(r); Δ is (median ratio −
// 1)·100 and its interval the sign-test interval of the median at level
// a.Confidence, as control.Analyze computes it over one process's rounds.
// Here every round is fresh processes, so the interval holds across
// processes, and being distribution-free it is not thrown by the odd
// round that a busy machine makes several times slower (a t-interval
// over the rounds was, on the 2-core development VM). allocs/op and
// B/op are compared exactly, as the median of each side's rounds. The
// gates of a apply: a decided Slower beyond a.GatePct, and with
// a.GateAllocs any increase in allocs/op, fail it; an undecided Δ beyond
// the gate does not, and GateNote says why.
func againstBench(name string, base, cand, ctl registry.Side, a registry.Against) registry.AgainstBench {
	b := registry.AgainstBench{Name: name, Base: base, New: cand, Control: ctl}
	n := len(base.NsPerOp)
	minN, _ := stats.PairedSignMinN(a.Confidence)
	r := vd.Rule{Base: "base", Eps: a.Negligible, N: n, Level: a.Confidence, MinN: minN,
		Groups: n, GroupName: "rounds", GroupFix: "more rounds (-benchkit.rounds) or a longer -benchtime narrow it"}
	if n < minN {
		r.NoInterval = fmt.Sprintf("only %s: a %.1f%% interval needs at least %d; raise -benchkit.rounds", textfmt.Plural(n, "complete round"), 100*a.Confidence, minN)
	}
	ctlIv, ctlOK := roundMedian(base.NsPerOp, ctl.NsPerOp, a.Confidence)
	newIv, newOK := roundMedian(base.NsPerOp, cand.NsPerOp, a.Confidence)
	b.ControlEst = estimateOf("control", ctl.NsPerOp, ctlIv)
	b.ControlEst.Verdict, b.ControlEst.Reason = verdictOf(r.DecideControl(ctlIv, ctlOK && n >= minN))
	b.NewEst = estimateOf("new", cand.NsPerOp, newIv)
	b.NewEst.Verdict, b.NewEst.Reason = verdictOf(r.Decide(ctlIv, ctlOK && n >= minN, newIv, newOK))
	b.Allocs = countOf(base.AllocsPerOp, cand.AllocsPerOp, ctl.AllocsPerOp)
	b.Bytes = countOf(base.BytesPerOp, cand.BytesPerOp, ctl.BytesPerOp)
	againstGate(&b, a)
	return b
}

// roundMedian returns the median over rounds of xs(r)/base(r) as a
// percentage and its sign-test interval at level (stats.PairedSignCI);
// ok is false, with the bounds at the median, when there is no interval.
func roundMedian(base, xs []float64, level float64) (vd.Interval, bool) {
	ratios, ok := stats.PairedRatios(base, xs)
	if !ok {
		return vd.Interval{}, false
	}
	med, _ := stats.Median(ratios)
	iv := vd.Interval{DeltaPct: vd.Pct(med), LoPct: vd.Pct(med), HiPct: vd.Pct(med)}
	ci, ok := stats.PairedSignCI(ratios, level)
	if !ok {
		return iv, false
	}
	iv.LoPct, iv.HiPct = vd.Pct(ci.Lo), vd.Pct(ci.Hi)
	return iv, true
}

func estimateOf(name string, ns []float64, iv vd.Interval) registry.Estimate {
	m, ok := stats.Median(ns)
	if !ok {
		m = -1
	}
	return registry.Estimate{Name: name, NsPerOp: m, DeltaPct: iv.DeltaPct, LoPct: iv.LoPct, HiPct: iv.HiPct}
}

func verdictOf(v vd.Verdict, why string) (registry.Verdict, string) { return registry.Verdict(v), why }

// countOf compares a deterministic count: the median of base's and of
// new's rounds, -1 when a side has none; Varies when the rounds of a side
// (base and control together) disagree.
func countOf(base, cand, ctl []float64) registry.Count {
	c := registry.Count{Base: -1, New: -1}
	if m, ok := stats.Median(base); ok {
		c.Base = m
	}
	if m, ok := stats.Median(cand); ok {
		c.New = m
	}
	both := append(slices.Clone(base), ctl...)
	c.Varies = varies(both) || varies(cand)
	return c
}

func varies(xs []float64) bool {
	return len(xs) > 1 && slices.Min(xs) != slices.Max(xs)
}

// againstGate applies a's gates to b.
func againstGate(b *registry.AgainstBench, a registry.Against) {
	e := b.NewEst
	if a.GatePct > 0 && e.DeltaPct > a.GatePct {
		switch e.Verdict {
		case registry.Slower:
			b.GateFailed = true
		case registry.Undecided:
			b.GateNote = fmt.Sprintf("gate not applied: %+.2f%% is above the %.3g%% gate but undecided (the row says why), and an undecided comparison never fails the gate", e.DeltaPct, a.GatePct)
		}
	}
	if a.GateAllocs && b.Allocs.Changed() && b.Allocs.New > b.Allocs.Base {
		b.GateFailed = true
	}
}
