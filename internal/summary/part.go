package summary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Class is where a benchmark is listed in the summary.
type Class string

// The classes, in the order the summary lists them.
const (
	// Regression: a decided slowdown, a rise in allocs/op or in counted
	// instructions per op, or a failed gate.
	Regression Class = "regression"
	// Improvement: a decided speed-up or a fall in allocs/op or counted
	// instructions, and no regression.
	Improvement Class = "improvement"
	// Undecided: a time comparison that could not be decided, and
	// nothing above.
	Undecided Class = "undecided"
	// Flagged: a benchmark of a plain run with a hygiene flag that was
	// not allowed.
	Flagged Class = "flagged"
)

var classOrder = []Class{Regression, Improvement, Undecided, Flagged}

// Entry is one benchmark the summary lists.
type Entry struct {
	// Package is the import path; Name the benchmark as go test prints
	// it, without "Benchmark" ("Sum/n=10-2").
	Package string `json:"package"`
	Name    string `json:"name"`
	Class   Class  `json:"class"`
	// DeltaPct, LoPct and HiPct are Δ and its interval in percent (new
	// over base, or a candidate over Compare's baseline), CtlLoPct and
	// CtlHiPct the control's interval; nil where unknown.
	DeltaPct *float64 `json:"delta_pct"`
	LoPct    *float64 `json:"lo_pct"`
	HiPct    *float64 `json:"hi_pct"`
	CtlLoPct *float64 `json:"control_lo_pct"`
	CtlHiPct *float64 `json:"control_hi_pct"`
	// Why says in one line what decided the class: the changes, the
	// undecided reason, the flags.
	Why string `json:"why"`
}

// Part is one package's share of the summary: what its run listed, and
// the rest as counts.
type Part struct {
	Package string `json:"package"`
	// Shard is the share of the package's benchmarks the part covers
	// (the JSON report's settings.shard), nil for all of them.
	Shard *report.JSONShard `json:"shard"`
	// Against is true for a cross-build comparison, false for a plain
	// run (which lists flags).
	Against bool    `json:"against"`
	Entries []Entry `json:"entries"`
	// Rest counts the benchmarks not listed, by what they were ("same",
	// "only in the base", …).
	Rest map[string]int `json:"rest"`
	// Failures are the run's reasons to fail (the JSON report's
	// failures), Failed whether it failed.
	Failures []string `json:"failures"`
	Failed   bool     `json:"failed"`
	// NotCompared, for a cross-build comparison that compared none of
	// the package's benchmarks because of its base, says why in one line
	// (the base did not build, with the go command's first error; the
	// base's processes failed); "" otherwise.
	NotCompared string `json:"not_compared"`
	// New, for a base built from a git revision, says why the package
	// has none (it is not at the base): every benchmark is new, counted
	// as only in the new build. "" otherwise.
	New string `json:"new"`
}

// Empty reports whether p has nothing to say: no benchmark listed or
// counted, no failure, nothing that kept it from being compared.
func (p Part) Empty() bool {
	return len(p.Entries) == 0 && len(p.Rest) == 0 && len(p.Failures) == 0 && p.NotCompared == ""
}

// The kinds of Part.Rest, in the order the summary lists them.
const (
	RestSame     = "same"
	RestOnlyBase = "only in the base"
	RestOnlyNew  = "only in the new build"
	RestClean    = "without flags"
	RestCompared = "control.Compare comparisons"
)

var restOrder = []string{RestSame, RestOnlyBase, RestOnlyNew, RestClean, RestCompared}

// MaxWhy bounds Entry.Why, in runes: the summary is read at a glance,
// and each package's report holds the whole reason.
const MaxWhy = 200

// PartOf returns the summary's part of one package's JSON report.
func PartOf(rep report.JSONReport) Part {
	p := Part{Package: rep.Package, Shard: rep.Settings.Shard, Rest: map[string]int{},
		Failures: slices.Clone(rep.Failures), Failed: rep.Failed}
	if a := rep.Against; a != nil {
		p.Against = true
		for _, b := range a.Benchmarks {
			if e, ok := againstEntry(rep.Package, b); ok {
				p.Entries = append(p.Entries, e)
			} else {
				p.Rest[RestSame]++
			}
		}
		p.Rest[RestOnlyBase] += len(a.OnlyBase)
		p.Rest[RestOnlyNew] += len(a.OnlyNew)
		if a.BaseRevision != nil {
			p.New = a.BaseRevision.Missing
		}
		if len(a.Benchmarks) == 0 {
			p.NotCompared = notCompared(a.Failures)
		}
	}
	for _, b := range rep.Benchmarks {
		if e, ok := flaggedEntry(rep.Package, b); ok {
			p.Entries = append(p.Entries, e)
		} else {
			p.Rest[RestClean]++
		}
	}
	for _, c := range rep.Comparisons {
		if e, ok := compareEntry(rep.Package, c); ok {
			p.Entries = append(p.Entries, e)
		} else {
			p.Rest[RestCompared]++
		}
	}
	for k, n := range p.Rest {
		if n == 0 {
			delete(p.Rest, k)
		}
	}
	return p
}

// notCompared says in one line why a cross-build comparison that
// compared nothing had no base to compare with: the base's build failed
// (its message and the go command's first error), or a process of the
// base failed; "" when no failure of the base says so.
func notCompared(failures []report.JSONProcFailure) string {
	for _, f := range failures {
		if f.Build {
			why := "the base did not build (" + f.Message + ")"
			if line := firstError(f.Output); line != "" {
				why += ": " + line
			}
			return short(why)
		}
	}
	for _, f := range failures {
		if f.Side != "new" {
			return short("the base's processes failed: " + f.Message)
		}
	}
	return ""
}

// firstError is the first line of the go command's output that is an
// error, not its "# package" header or its FAIL line; "" when none.
func firstError(out string) string {
	for line := range strings.SplitSeq(out, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "FAIL") {
			return line
		}
	}
	return ""
}

// againstEntry classes a cross-build benchmark; ok is false for one the
// summary only counts (decided the same, nothing changed).
func againstEntry(pkg string, b report.JSONAgainstBench) (Entry, bool) {
	e := Entry{Package: pkg, Name: b.Name, DeltaPct: b.Estimate.DeltaPct, LoPct: b.Estimate.LoPct, HiPct: b.Estimate.HiPct,
		CtlLoPct: b.ControlEst.LoPct, CtlHiPct: b.ControlEst.HiPct}
	var worse, better []string
	switch b.Estimate.Verdict {
	case "slower":
		worse = append(worse, "slower")
	case "faster":
		better = append(better, "faster")
	}
	if up, what := countChange("allocs/op", b.Allocs); what != "" {
		worse, better = sortChange(up, what, worse, better)
	}
	if c := b.Instructions; c != nil && c.Changed && c.DeltaPct != nil {
		worse, better = sortChange(*c.DeltaPct > 0, "instructions/op "+textfmt.Pct(*c.DeltaPct), worse, better)
	}
	switch {
	case b.GateFailed || len(worse) > 0:
		e.Class = Regression
		if b.GateFailed {
			worse = append(worse, "a gate failed")
		}
		e.Why = strings.Join(append(worse, better...), "; ")
	case len(better) > 0:
		e.Class, e.Why = Improvement, strings.Join(better, "; ")
	case b.Estimate.Verdict == "undecided":
		e.Class, e.Why = Undecided, strings.TrimPrefix(b.Estimate.Reason, "undecided: ")
	default:
		return e, false
	}
	e.Why = short(e.Why)
	return e, true
}

// countChange describes a change of an exact per-op count ("allocs/op
// 1 → 2"), "" when there is none; up is true for a rise.
func countChange(unit string, c report.JSONCount) (up bool, what string) {
	if !c.Changed || c.Base == nil || c.New == nil {
		return false, ""
	}
	return *c.New > *c.Base, fmt.Sprintf("%s %g → %g", unit, *c.Base, *c.New)
}

// sortChange adds what to worse when up, else to better.
func sortChange(up bool, what string, worse, better []string) ([]string, []string) {
	if up {
		return append(worse, what), better
	}
	return worse, append(better, what)
}

// flaggedEntry lists a plain benchmark with a flag that was not
// allowed; ok is false for one without.
func flaggedEntry(pkg string, b report.JSONBenchmark) (Entry, bool) {
	var flags []string
	for _, f := range b.Flags {
		if f.Allowed != "" {
			continue
		}
		what := f.Kind + ": " + f.Message
		if f.Failed {
			what = f.Kind + " (failed the benchmark): " + f.Message
		}
		flags = append(flags, what)
	}
	if len(flags) == 0 {
		return Entry{}, false
	}
	return Entry{Package: pkg, Name: b.Display, Class: Flagged, Why: short(strings.Join(flags, "; "))}, true
}

// compareEntry lists a control.Compare whose gate failed, by its worst
// candidate; ok is false for one that passed.
func compareEntry(pkg string, c report.JSONComparison) (Entry, bool) {
	if !c.GateFailed {
		return Entry{}, false
	}
	e := Entry{Package: pkg, Name: c.Benchmark, Class: Regression, CtlLoPct: c.Control.LoPct, CtlHiPct: c.Control.HiPct}
	worst := ""
	for _, cand := range c.Candidates {
		if cand.Verdict == "slower" && cand.DeltaPct != nil && (e.DeltaPct == nil || *cand.DeltaPct > *e.DeltaPct) {
			e.DeltaPct, e.LoPct, e.HiPct, worst = cand.DeltaPct, cand.LoPct, cand.HiPct, cand.Name
		}
	}
	e.Why = short(fmt.Sprintf("control.Compare: %s slower than %s, beyond the %g%% gate", worst, c.Baseline, c.GatePct))
	return e, true
}

// short makes s one line of at most MaxWhy runes.
func short(s string) string { return cut(textfmt.OneLine(s), MaxWhy) }
