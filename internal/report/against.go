package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"github.com/benchkit/go-benchkit/internal/verdict"
	"golang.org/x/perf/benchfmt"
)

// againstFailures returns the reasons a cross-build comparison fails the
// run: a benchmark that failed a gate, and a process of this binary (the
// new side) that failed. A process of the base binary that failed is a
// warning in the report, not a failure: the code under test is the new
// side.
func againstFailures(a *registry.Against) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, b := range a.Benches {
		if !b.GateFailed {
			continue
		}
		e := b.NewEst
		if a.GatePct > 0 && e.Verdict == verdict.Slower && e.DeltaPct > a.GatePct {
			out = append(out, fmt.Sprintf("benchkit: against %s: %s is %s slower than the base [%s, %s], beyond the %s%% gate; fix the regression or raise -benchkit.gate",
				a.Base.Path, b.Name, signedPct(e.DeltaPct), signedPct(e.LoPct), signedPct(e.HiPct), fmtNum(a.GatePct)))
		}
		if a.GateAllocs && b.Allocs.Changed() && b.Allocs.New > b.Allocs.Base {
			out = append(out, fmt.Sprintf("benchkit: against %s: %s allocates more, %s allocs/op against the base's %s (-benchkit.gate.allocs); remove the allocation or drop the allocation gate",
				a.Base.Path, b.Name, fmtNum(b.Allocs.New), fmtNum(b.Allocs.Base)))
		}
	}
	for _, f := range a.Failures {
		if f.Side == "new" {
			out = append(out, fmt.Sprintf("benchkit: against %s: this binary's process failed in round %d%s: %s; fix the benchmark (its output is in the report)",
				a.Base.Path, f.Round, failedNames(f), f.Message))
		}
	}
	return out
}

func failedNames(f registry.AgainstFailure) string {
	if len(f.Benchmarks) == 0 {
		return ""
	}
	return " (" + strings.Join(f.Benchmarks, ", ") + ")"
}

// against writes the cross-build comparison: how it ran, the binaries,
// one row per benchmark, the benchmarks found in one binary only, the
// gate, and the processes that failed with their output.
func (p *printer) against(a *registry.Against) {
	if a == nil {
		return
	}
	p.section(fmt.Sprintf("against %s · %s of 3 processes (base, new, base again as the A/A control) in balanced random order · -bench=%s -benchtime=%s each · %s%% sign-test intervals over rounds",
		a.Base.Path, textfmt.Plural(a.Rounds, "round"), a.Pattern, a.Benchtime, fmtNum(a.Confidence*100)))
	p.line("  base  " + binaryLine(a.Base))
	p.line("  new   " + binaryLine(a.New))
	if len(a.Benches) > 0 {
		table := [][]string{{"benchmark", "base/op", "new/op", "Δ", "interval", "control Δ", "control interval", "allocs/op", "B/op", "verdict"}}
		for _, b := range a.Benches {
			table = append(table, againstRow(b))
		}
		p.table(table)
		p.line("  · Δ = new/base − 1: the median over rounds of each round's ratio, with the sign-test interval of the median; control = base again/base, the noise floor")
		p.line("  · allocs/op and B/op: the median of each side's rounds, compared exactly (base → new); \"varies\": the rounds disagree")
	} else {
		p.line("  no benchmark was measured in both binaries")
	}
	for _, b := range a.Benches {
		if b.GateNote != "" {
			p.line("  " + b.Name + ": " + b.GateNote)
		}
	}
	if len(a.OnlyBase) > 0 {
		p.line("  only in base, not compared: " + listNames(a.OnlyBase, 8))
	}
	if len(a.OnlyNew) > 0 {
		p.line("  only in new, not compared: " + listNames(a.OnlyNew, 8))
	}
	p.againstGate(a)
	for _, w := range a.Warnings {
		p.line("  ⚠ " + w)
	}
	for _, f := range a.Failures {
		p.line(fmt.Sprintf("  ✗ %s process of round %d failed%s: %s; its output:", f.Side, f.Round, failedNames(f), f.Message))
		for _, l := range strings.Split(strings.TrimRight(f.Output, "\n"), "\n") {
			p.line("      " + l)
		}
	}
}

// againstGate writes the gates' outcome, when a gate is set.
func (p *printer) againstGate(a *registry.Against) {
	if a.GatePct <= 0 && !a.GateAllocs {
		return
	}
	var what []string
	if a.GatePct > 0 {
		what = append(what, fmtNum(a.GatePct)+"%")
	}
	if a.GateAllocs {
		what = append(what, "allocs/op")
	}
	var failed []string
	for _, b := range a.Benches {
		if b.GateFailed {
			failed = append(failed, b.Name)
		}
	}
	if len(failed) > 0 {
		p.line(fmt.Sprintf("  gate %s: FAILED (%s)", strings.Join(what, ", "), listNames(failed, 8)))
		return
	}
	p.line(fmt.Sprintf("  gate %s: passed", strings.Join(what, ", ")))
}

// binaryLine describes a binary: its path, package, Go version, VCS
// revision when stamped, and the start of its SHA-256.
func binaryLine(b registry.Binary) string {
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
// interval, the control's, the counts, and the verdict with its reason.
func againstRow(b registry.AgainstBench) []string {
	v := string(b.NewEst.Verdict)
	if b.NewEst.Reason != "" {
		v += ": " + b.NewEst.Reason
	}
	if b.Allocs.Changed() {
		v = "allocs/op " + changeWord(b.Allocs) + "; time " + v
	}
	baseNs, ok := stats.Median(b.Base.NsPerOp)
	if !ok {
		baseNs = -1
	}
	return []string{
		b.Name, fmtNs(baseNs), fmtNs(b.NewEst.NsPerOp),
		signedPct(b.NewEst.DeltaPct), "[" + signedPct(b.NewEst.LoPct) + ", " + signedPct(b.NewEst.HiPct) + "]",
		signedPct(b.ControlEst.DeltaPct), "[" + signedPct(b.ControlEst.LoPct) + ", " + signedPct(b.ControlEst.HiPct) + "]",
		countCell(b.Allocs), countCell(b.Bytes), v,
	}
}

// countCell shows a count: "3" when both sides agree, "3 → 4 (+1)" when
// they differ, "?" unknown, with ", varies" when the rounds disagree.
func countCell(c registry.Count) string {
	var s string
	switch {
	case c.Base < 0 || c.New < 0:
		return "?"
	case c.Changed():
		s = fmt.Sprintf("%s → %s (%+g)", fmtNum(c.Base), fmtNum(c.New), c.New-c.Base)
	default:
		s = fmtNum(c.New)
	}
	if c.Varies {
		s += ", varies"
	}
	return s
}

// changeWord says how a count changed: "up 3 → 4 (+1)".
func changeWord(c registry.Count) string {
	dir := "up"
	if c.New < c.Base {
		dir = "down"
	}
	return fmt.Sprintf("%s %s → %s (%+g)", dir, fmtNum(c.Base), fmtNum(c.New), c.New-c.Base)
}

// Annotations writes GitHub Actions workflow commands for the run: an
// ::error:: per failure of the analysis (gates, failed processes,
// flags), and a ::warning:: per cross-build benchmark that is decided
// slower or allocates more without failing a gate. Messages are escaped
// as workflow commands require (%, CR, LF). Lines start with "::", which
// benchfmt reads as neither a result nor a configuration line.
func Annotations(w io.Writer, in Input, a Analysis) {
	for _, f := range a.Failures {
		fmt.Fprintf(w, "::error title=benchkit::%s\n", escapeCommand(f))
	}
	if in.Against == nil {
		return
	}
	for _, b := range in.Against.Benches {
		if b.GateFailed {
			continue
		}
		if e := b.NewEst; e.Verdict == verdict.Slower {
			fmt.Fprintf(w, "::warning title=benchkit::%s\n", escapeCommand(fmt.Sprintf("%s is %s slower than the base [%s, %s]: %s",
				b.Name, signedPct(e.DeltaPct), signedPct(e.LoPct), signedPct(e.HiPct), e.Reason)))
		}
		if b.Allocs.Changed() && b.Allocs.New > b.Allocs.Base {
			fmt.Fprintf(w, "::warning title=benchkit::%s\n", escapeCommand(fmt.Sprintf("%s allocates more: allocs/op %s", b.Name, changeWord(b.Allocs))))
		}
	}
}

func escapeCommand(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// The JSON report's "against" object. See docs/report.md.

type jsonAgainst struct {
	Base          jsonBinary         `json:"base"`
	New           jsonBinary         `json:"new"`
	Pattern       string             `json:"pattern"`
	Benchtime     string             `json:"benchtime"`
	Rounds        int                `json:"rounds"`
	Seed          uint64             `json:"seed"`
	Confidence    *float64           `json:"confidence"`
	NegligiblePct float64            `json:"negligible_pct"`
	GatePct       float64            `json:"gate_pct"`
	GateAllocs    bool               `json:"gate_allocs"`
	Benchmarks    []jsonAgainstBench `json:"benchmarks"`
	OnlyBase      []string           `json:"only_base"`
	OnlyNew       []string           `json:"only_new"`
	Failures      []jsonProcFailure  `json:"failures"`
	Warnings      []string           `json:"warnings"`
}

type jsonBinary struct {
	Path        string `json:"path"`
	Package     string `json:"package"`
	GoVersion   string `json:"go_version"`
	VCSRevision string `json:"vcs_revision"`
	VCSTime     string `json:"vcs_time"`
	VCSModified bool   `json:"vcs_modified"`
	SHA256      string `json:"sha256"`
}

type jsonSide struct {
	NsPerOp     []float64 `json:"ns_per_op"`
	AllocsPerOp []float64 `json:"allocs_per_op"`
	BytesPerOp  []float64 `json:"bytes_per_op"`
}

type jsonCount struct {
	Base    *float64 `json:"base"`
	New     *float64 `json:"new"`
	Changed bool     `json:"changed"`
	Varies  bool     `json:"varies"`
}

type jsonAgainstBench struct {
	Name       string       `json:"name"`
	Base       jsonSide     `json:"base"`
	New        jsonSide     `json:"new"`
	Control    jsonSide     `json:"control"`
	Estimate   jsonEstimate `json:"estimate"`
	ControlEst jsonEstimate `json:"control_estimate"`
	Allocs     jsonCount    `json:"allocs_per_op"`
	Bytes      jsonCount    `json:"bytes_per_op"`
	GateFailed bool         `json:"gate_failed"`
	GateNote   string       `json:"gate_note"`
}

type jsonProcFailure struct {
	Side       string   `json:"side"`
	Round      int      `json:"round"`
	Benchmarks []string `json:"benchmarks"`
	Message    string   `json:"message"`
	Output     string   `json:"output"`
}

// jsonAgainstOf converts a cross-build comparison for the JSON report;
// nil stays nil (JSON null).
func jsonAgainstOf(a *registry.Against) *jsonAgainst {
	if a == nil {
		return nil
	}
	j := &jsonAgainst{
		Base: jsonBinary(a.Base), New: jsonBinary(a.New), Pattern: a.Pattern, Benchtime: a.Benchtime,
		Rounds: a.Rounds, Seed: a.Seed, Confidence: num(a.Confidence), NegligiblePct: zeroIfBad(a.Negligible),
		GatePct: zeroIfBad(a.GatePct), GateAllocs: a.GateAllocs, Benchmarks: []jsonAgainstBench{},
		OnlyBase: append([]string{}, a.OnlyBase...), OnlyNew: append([]string{}, a.OnlyNew...),
		Failures: []jsonProcFailure{}, Warnings: append([]string{}, a.Warnings...),
	}
	for _, b := range a.Benches {
		j.Benchmarks = append(j.Benchmarks, jsonAgainstBench{
			Name: b.Name, Base: jsonSideOf(b.Base), New: jsonSideOf(b.New), Control: jsonSideOf(b.Control),
			Estimate: jsonEst(b.NewEst), ControlEst: jsonEst(b.ControlEst),
			Allocs: jsonCountOf(b.Allocs), Bytes: jsonCountOf(b.Bytes), GateFailed: b.GateFailed, GateNote: b.GateNote,
		})
	}
	for _, f := range a.Failures {
		j.Failures = append(j.Failures, jsonProcFailure{Side: f.Side, Round: f.Round,
			Benchmarks: append([]string{}, f.Benchmarks...), Message: f.Message, Output: f.Output})
	}
	return j
}

func jsonSideOf(s registry.Side) jsonSide {
	return jsonSide{NsPerOp: finiteSlice(s.NsPerOp), AllocsPerOp: finiteSlice(s.AllocsPerOp), BytesPerOp: finiteSlice(s.BytesPerOp)}
}

func jsonCountOf(c registry.Count) jsonCount {
	return jsonCount{Base: known(c.Base), New: known(c.New), Changed: c.Changed(), Varies: c.Varies}
}

// againstSamples writes the cross-build samples: one result line per
// round and side, with that process's iteration count (1 when unknown),
// under the configuration "samples: against" and "side: base", "side:
// new" or "side: control" (the base binary's second process), so that
// `benchstat -col side file` puts old, new and the A/A control in
// columns, base first.
func againstSamples(bw *benchfmt.Writer, base []benchfmt.Config, a *registry.Against) error {
	if a == nil {
		return nil
	}
	for _, side := range []string{"base", "new", "control"} {
		cfg := append(append([]benchfmt.Config{}, base...),
			benchfmt.Config{Key: "samples", Value: []byte("against"), File: true},
			benchfmt.Config{Key: "side", Value: []byte(side), File: true})
		for _, b := range a.Benches {
			s := map[string]registry.Side{"base": b.Base, "new": b.New, "control": b.Control}[side]
			for r, ns := range s.NsPerOp {
				if !finite(ns) || ns < 0 {
					continue
				}
				iters := 1
				if r < len(s.Iters) {
					iters = max(s.Iters[r], 1)
				}
				res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(underscoreSpace(b.Name)), Iters: iters, Values: []benchfmt.Value{nsValue(ns)}}
				if r < len(s.AllocsPerOp) && r < len(s.BytesPerOp) {
					res.Values = append(res.Values,
						benchfmt.Value{Value: math.Trunc(s.BytesPerOp[r]), Unit: "B/op"},
						benchfmt.Value{Value: math.Trunc(s.AllocsPerOp[r]), Unit: "allocs/op"})
				}
				if err := bw.Write(res); err != nil {
					return fmt.Errorf("report: writing the samples file: %w", err)
				}
			}
		}
	}
	return nil
}
