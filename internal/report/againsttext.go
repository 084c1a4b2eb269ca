package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// against writes the cross-build comparison: how it ran, the binaries,
// one row per benchmark and the legend, the notes (fallbacks, gate
// notes, the benchmarks found in one binary only, the gate, warnings),
// and the processes that failed with their output.
func (p *printer) against(a *against.Result) {
	if a == nil {
		return
	}
	p.section(againstTitle(a))
	for _, l := range binaryLines(a) {
		p.line("  " + l)
	}
	p.againstTable(a)
	for _, l := range againstNotes(a) {
		p.line("  " + l)
	}
	for _, f := range a.Failures {
		p.line("  " + procFailureLine(f))
		for _, l := range strings.Split(strings.TrimRight(f.Output, "\n"), "\n") {
			p.verbatim("      " + l)
		}
	}
}

// againstTitle heads the cross-build section: the base, the selection
// and the intervals' level (how each mode ran is in the legend).
func againstTitle(a *against.Result) string {
	base := a.BaseName()
	if r := a.BaseRev; r != nil {
		base += " (merge base " + r.ShortCommit() + ")"
	}
	return fmt.Sprintf("against %s · -bench=%s · base, new and base again (the A/A control) · %s%% intervals",
		base, a.Pattern, fmtNum(a.Confidence*100))
}

// binaryLines describe the two binaries, and for a base built from a
// revision, how it was built.
func binaryLines(a *against.Result) []string {
	base := binaryLine(a.Base)
	if a.Base.Path == "" {
		base = "none"
	}
	out := []string{"base  " + base}
	if r := a.BaseRev; r != nil {
		how := "built now"
		if r.Reused {
			how = "reused from the cache"
		}
		flags := ""
		if shown := setFlags(r.Flags); len(shown) > 0 {
			flags = " with " + strings.Join(shown, " ")
		}
		out = append(out, fmt.Sprintf("      at %s, the merge base of %s and HEAD%s (%s)", r.Commit, r.Rev, flags, how))
	}
	return append(out, "new   "+binaryLine(a.New))
}

// setFlags are the build flags and environment variables of flags that
// have a value: "CGO_CFLAGS=" (the default) says nothing.
func setFlags(flags []string) []string {
	var out []string
	for _, f := range flags {
		if !strings.HasSuffix(f, "=") {
			out = append(out, f)
		}
	}
	return out
}

// againstNotes are the lines after the cross-build table: why a benchmark
// fell back to rounds, why counts are missing, the gate notes, the benchmarks found in one binary
// only, the gates' outcome and the warnings (each after "⚠ ").
func againstNotes(a *against.Result) []string {
	var out []string
	for _, b := range a.Benches {
		if b.Mode == against.ModeRounds && b.ModeNote != "" {
			out = append(out, b.Name+": rounds, not lockstep: "+b.ModeNote+" (benchkit.Track(b) or benchkit.Loop in both builds gives lockstep)")
		}
		if b.GC != nil {
			out = append(out, b.Name+": "+b.GC.Describe(b.Bytes))
		} else if b.GCNote != "" {
			out = append(out, b.Name+": "+b.GCNote)
		}
		if b.Design != "" {
			note := b.Name + ": " + b.Design
			if b.Confidence > 0 && math.Abs(b.Confidence-a.Confidence) > 1e-9 {
				note += fmt.Sprintf(" (its intervals at %s%%)", fmtNum(b.Confidence*100))
			}
			out = append(out, note)
		}
		if b.NewEst.Verdict == verdict.Undecided && b.DetectablePct > 0 {
			out = append(out, fmt.Sprintf("%s: undecided; this run could tell a change beyond ±%s (its control's interval and as much again): a longer -benchtime tells smaller ones",
				b.Name, textfmt.Pct(b.DetectablePct)[1:]))
		}
	}
	out = append(out, instrNotes(a)...)
	for _, b := range a.Benches {
		if b.GateNote != "" {
			out = append(out, b.Name+": "+b.GateNote)
		}
	}
	if len(a.OnlyBase) > 0 {
		out = append(out, "only in base, not compared: "+listNames(a.OnlyBase, 8))
	}
	if r := a.BaseRev; r != nil && r.Missing != "" {
		out = append(out, "the package has no base ("+r.Missing+"): every benchmark is new")
	}
	if len(a.OnlyNew) > 0 {
		out = append(out, "only in new, not compared: "+listNames(a.OnlyNew, 8))
	}
	if g := againstGate(a); g != "" {
		out = append(out, g)
	}
	for _, w := range a.Warnings {
		out = append(out, "⚠ "+w)
	}
	return out
}

// procFailureLine introduces a failed process's output, or the base's
// failed build's.
func procFailureLine(f against.Failure) string {
	if f.Build {
		return fmt.Sprintf("✗ the base did not build, so nothing was compared: %s; the go command's output:", f.Message)
	}
	return fmt.Sprintf("✗ %s process of round %d failed%s: %s; its output:", f.Side, f.Round, failedNames(f), f.Message)
}

// againstModes says how each mode ran (lockstep: the triples, the runs'
// size; rounds: the processes' share) and how its Δ and
// interval are made, one line per mode present.
func againstModes(a *against.Result) []string {
	var lock []against.Bench
	rounds := false
	for _, b := range a.Benches {
		if b.Mode == against.ModeLockstep {
			lock = append(lock, b)
		} else {
			rounds = true
		}
	}
	var out []string
	if len(lock) > 0 {
		out = append(out, fmt.Sprintf("lockstep: triples of live processes, one run of N iterations (about %s each) at a time in balanced random order, %s "+
			"(each benchmark's design below); Δ is the mean over triples of each triple's median run-by-run ratio, with Student's t-interval over the triples",
			textfmt.Dur(time.Duration(a.RunTargetNs)), roundsPerTriple(lock)))
	}
	if rounds {
		out = append(out, fmt.Sprintf("rounds: %s of 3 whole processes, each running the selection once at -benchtime=%s; "+
			"Δ is the median of the rounds' ratios, with the sign-test interval of the median", textfmt.Plural(a.Rounds, "round"), a.Benchtime))
	}
	return out
}

// roundsPerTriple describes the runs per triple of the lockstep rows.
func roundsPerTriple(lock []against.Bench) string {
	lo, hi := -1, 0
	for _, b := range lock {
		for _, n := range b.Groups {
			if lo < 0 || n < lo {
				lo = n
			}
			hi = max(hi, n)
		}
	}
	if lo == hi {
		return fmt.Sprintf("%d runs per process per triple", lo)
	}
	return fmt.Sprintf("%d–%d runs per process per triple", lo, hi)
}

// againstTable writes one row per benchmark measured in both binaries
// and the table's legend, or that there is none.
func (p *printer) againstTable(a *against.Result) {
	if len(a.Benches) == 0 {
		p.line("  no benchmark was measured in both binaries")
		return
	}
	counted := instrCounted(a)
	table := [][]string{againstHeader(counted)}
	marked := false
	for _, b := range a.Benches {
		row, disagree := againstRow(b, counted)
		table = append(table, row)
		marked = marked || disagree
	}
	p.table(table)
	for _, l := range againstLegend(a, marked) {
		p.line("  · " + l)
	}
}

// againstHeader is the cross-build table's header row (the interval is
// the sixth cell); counted adds instr/op before the verdict.
func againstHeader(counted bool) []string {
	h := []string{"benchmark", "mode", "base/op", "new/op", "Δ", "interval", "control Δ", "control interval", "allocs/op", "B/op"}
	if counted {
		h = append(h, "instr/op")
	}
	return append(h, "verdict")
}

// instrCounted reports whether a's benchmarks were counted under
// valgrind (-benchkit.count=instructions).
func instrCounted(a *against.Result) bool {
	return slices.ContainsFunc(a.Benches, func(b against.Bench) bool { return b.Instr != nil })
}

// againstLegend explains the cross-build table, one line each: Δ, each
// mode present, the mark when marked (a row carries [DisagreeMark]), the
// counts.
func againstLegend(a *against.Result, marked bool) []string {
	out := append([]string{"Δ = new/base − 1, control = base again/base, the noise floor"}, againstModes(a)...)
	if marked {
		out = append(out, DisagreeMark+": the medians and Δ point different ways: Δ pairs base and new round by round (run by run in lockstep), "+
			"base/op and new/op do not (each is the median of its side alone), so a level that moved between rounds shifts the medians, not Δ; read Δ")
	}
	out = append(out, "allocs/op and B/op: the median of each side's rounds or runs, as go test prints them (truncated to integers), compared exactly (base → new); "+
		"\"varies\": the rounds of a side (base with the control, or new) printed different values: each process runs its own b.N, "+
		"so an allocation made once and amortised over b.N can move the printed value by one")
	if instrCounted(a) {
		out = append(out, "instr/op: instructions per op counted under valgrind in each binary the same way (GOMAXPROCS=1, the collector off; docs/counts.md), "+
			"base → new; a change beyond the counts' tolerance (at least 0.25%) is called; the code path, not its speed")
	}
	return out
}

// DisagreeMark follows the Δ of an against row whose sides' medians point
// the other way ([mediansDisagree]).
const DisagreeMark = "†"

// againstGate is the gates' outcome, "" when no gate is set.
func againstGate(a *against.Result) string {
	if a.GatePct <= 0 && !a.GateAllocs && a.GateInstr <= 0 {
		return ""
	}
	var what []string
	if a.GatePct > 0 {
		what = append(what, fmtNum(a.GatePct)+"%")
	}
	if a.GateAllocs {
		what = append(what, "allocs/op")
	}
	if a.GateInstr > 0 {
		what = append(what, "instructions "+fmtNum(a.GateInstr)+"%")
	}
	var failed []string
	for _, b := range a.Benches {
		if b.GateFailed() {
			failed = append(failed, b.Name)
		}
	}
	switch {
	case len(failed) > 0:
		return fmt.Sprintf("gate %s: FAILED (%s)", strings.Join(what, ", "), listNames(failed, 8))
	case a.NothingCompared != "":
		return fmt.Sprintf("gate %s: FAILED (it compared nothing)", strings.Join(what, ", "))
	}
	return fmt.Sprintf("gate %s: passed", strings.Join(what, ", "))
}

// binaryLine describes a binary: its path, package, Go version, VCS
// revision when stamped, and the start of its SHA-256.
func binaryLine(b against.Binary) string {
	parts := []string{b.Path}
	if b.Package != "" {
		parts = append(parts, "pkg "+b.Package)
	}
	if b.GoVersion != "" {
		parts = append(parts, b.GoVersion)
	}
	if b.VCSRevision != "" {
		rev := "vcs " + b.VCSRevision
		if b.VCSModified {
			rev += " (modified)"
		}
		parts = append(parts, rev)
	}
	if len(b.SHA256) >= 12 {
		parts = append(parts, "sha256 "+b.SHA256[:12])
	}
	return strings.Join(parts, "  ")
}

// againstRow is one benchmark's row: the sides' median ns/op, Δ and
// interval, the control's, the counts, and the verdict with its reason;
// disagree reports that Δ carries [DisagreeMark].
func againstRow(b against.Bench, counted bool) (row []string, disagree bool) {
	v := string(b.NewEst.Verdict)
	if b.NewEst.Reason != "" {
		v += ": " + b.NewEst.Reason
	}
	if b.Allocs.Changed() || (b.Instr != nil && b.Instr.Changed) {
		v = "time " + v
	}
	if b.Instr != nil && b.Instr.Changed {
		v = "instr/op " + textfmt.Pct(b.Instr.DeltaPct) + "; " + v
	}
	if b.Allocs.Changed() {
		v = "allocs/op " + changeWord(b.Allocs) + "; " + v
	}
	if n := instrDisagrees(b); n != "" {
		v += "; " + n
	}
	baseNs, ok := stats.Median(b.Base.NsPerOp)
	if !ok {
		baseNs = -1
	}
	delta := textfmt.Pct(b.NewEst.DeltaPct)
	disagree = mediansDisagree(baseNs, b.NewEst)
	if disagree {
		delta += " " + DisagreeMark
	}
	row = []string{
		b.Name, dash(b.Mode), fmtNs(baseNs), fmtNs(b.NewEst.NsPerOp),
		delta, textfmt.Interval(b.NewEst.LoPct, b.NewEst.HiPct),
		textfmt.Pct(b.ControlEst.DeltaPct), textfmt.Interval(b.ControlEst.LoPct, b.ControlEst.HiPct),
		countCell(b.Allocs), countCell(b.Bytes),
	}
	if counted {
		row = append(row, instrChangeCell(b.Instr))
	}
	return append(row, v), disagree
}

// instrChangeCell shows a cross-build count: "28229 → 29736 (+5.33%)",
// "28229 → 28240 (+0.04%, same within ±0.25%)" within the tolerance,
// "n/a" when a side could not be counted, "-" when none was asked for.
func instrChangeCell(c *against.InstrChange) string {
	switch {
	case c == nil:
		return "-"
	case !c.Counted():
		return "n/a"
	case !c.Changed:
		return fmt.Sprintf("%s → %s (%s, same within ±%.2f%%)", fmtInstr(c.Base.PerOp), fmtInstr(c.New.PerOp), textfmt.Pct(c.DeltaPct), c.TolerancePct)
	}
	return fmt.Sprintf("%s → %s (%s)", fmtInstr(c.Base.PerOp), fmtInstr(c.New.PerOp), textfmt.Pct(c.DeltaPct))
}

// instrDisagrees says when the time verdict and the count disagree: a
// decided time change with the instructions the same or moved the other
// way, or a decided "same" with the instructions changed; "" otherwise
// (an undecided time is not a disagreement: the count decides).
func instrDisagrees(b against.Bench) string {
	c := b.Instr
	if c == nil || !c.Counted() {
		return ""
	}
	switch v := b.NewEst.Verdict; {
	case (v == verdict.Slower || v == verdict.Faster) && !c.Changed:
		return "time and instructions disagree: the instructions did not change, so the time difference is not in the code path " +
			"(memory, caches, code layout or the machine)"
	case v == verdict.Slower && c.DeltaPct < 0, v == verdict.Faster && c.DeltaPct > 0:
		return "time and instructions disagree: they moved in opposite directions (fewer instructions can still run slower: memory, caches, layout)"
	case v == verdict.Same && c.Changed:
		return "time and instructions disagree: the instructions changed by more than the time resolved"
	}
	return ""
}

// mediansDisagree reports whether the sign of e.NsPerOp − baseNs (the new
// side's median ns/op minus the base's) is the opposite of e.DeltaPct's,
// both nonzero: Δ is the median of the rounds' ratios, which pairs each
// round's processes, and the medians of the sides need not follow it.
func mediansDisagree(baseNs float64, e verdict.Estimate) bool {
	d := e.NsPerOp - baseNs
	return baseNs >= 0 && e.NsPerOp >= 0 && finite(d) && finite(e.DeltaPct) && d*e.DeltaPct < 0
}

// countCell shows a count as an integer ([fmtCount]): "3" when both sides
// agree, "3 → 4 (+1)" when they differ, "?" unknown, with ", varies" when
// a side's rounds disagree (against.Count.Varies).
func countCell(c against.Count) string {
	var s string
	switch {
	case c.Base < 0 || c.New < 0:
		return "?"
	case c.Changed():
		s = countChange(c)
	default:
		s = fmtCount(c.New)
	}
	if c.Varies {
		s += ", varies"
	}
	return s
}

// instrSide is one binary's count of a benchmark, named for notes.
type instrSide struct {
	name string
	c    count.Result
}

// instrSides returns the base's and this binary's counts, none without
// counts.
func instrSides(ch *against.InstrChange) []instrSide {
	if ch == nil {
		return nil
	}
	return []instrSide{{"the base", ch.Base}, {"this binary", ch.New}}
}

// instrNotes say, one line per binary and reason, which benchmarks could
// not be counted and why (the message names the fix), then which were
// counted in their own process only: they started processes.
func instrNotes(a *against.Result) []string {
	var order []string
	names := map[string][]string{}
	for _, b := range a.Benches {
		for _, side := range instrSides(b.Instr) {
			if side.c.Counted() {
				continue
			}
			key := side.name + " (" + string(side.c.Reason) + "): " + strings.TrimPrefix(side.c.Error, "count: ")
			if _, ok := names[key]; !ok {
				order = append(order, key)
			}
			names[key] = append(names[key], b.Name)
		}
	}
	out := make([]string, 0, len(order))
	for _, key := range order {
		out = append(out, listNames(names[key], 8)+": instructions not counted in "+key)
	}
	for _, b := range a.Benches {
		for _, side := range instrSides(b.Instr) {
			if side.c.Counted() && side.c.Children != "" {
				out = append(out, b.Name+": instructions counted in "+side.name+"'s benchmark process only: "+side.c.Children)
			}
		}
	}
	return out
}
