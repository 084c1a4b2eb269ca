package report

import (
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"golang.org/x/perf/benchfmt"
)

// Samples writes every sample of in to w in the Go benchmark format, with
// golang.org/x/perf/benchfmt.Writer, so that benchstat reads the file
// directly: the configuration lines goos, goarch, pkg, cpu (as go test
// prints it) and "benchkit: benchkit-report/v1", then one block per
// source, each under its own "samples:" key so that benchstat never mixes
// them: runs (one line per recorded run), batches (a single run's Loop
// timeline), counts (one line per benchmark counted under valgrind, in
// instructions/op), rounds (control comparisons,
// Benchmark<Name>/impl=<impl>) and against (-benchkit.against, labelled
// "side: base|new|control").
// docs/report.md describes each line.
func Samples(w io.Writer, in Input) error {
	return SamplesAnalysis(w, in, Analyze(in))
}

// SamplesAnalysis is [Samples] with the analysis already computed.
func SamplesAnalysis(w io.Writer, in Input, a Analysis) error {
	bw := benchfmt.NewWriter(w)
	var base []benchfmt.Config
	add := func(key, value string) {
		value = textfmt.OneLine(value)
		if value != "" {
			base = append(base, benchfmt.Config{Key: key, Value: []byte(value), File: true})
		}
	}
	add("goos", in.GOOS)
	add("goarch", in.GOARCH)
	add("pkg", in.Package)
	if cpu := strings.Map(noControl, in.CPU); strings.TrimSpace(cpu) != "" {
		// As go test prints it, trailing spaces included: benchfmt keeps
		// them, and benchstat splits tables on a differing value.
		base = append(base, benchfmt.Config{Key: "cpu", Value: []byte(cpu), File: true})
	}
	add("benchkit", Schema)
	block := func(samples string) []benchfmt.Config {
		cfg := append([]benchfmt.Config{}, base...)
		return append(cfg, benchfmt.Config{Key: "samples", Value: []byte(samples), File: true})
	}
	runsCfg := block("runs")
	for _, r := range a.Rows {
		for _, run := range r.Runs {
			if !finite(run.NsPerOp) || run.NsPerOp < 0 {
				continue
			}
			res := &benchfmt.Result{Config: runsCfg, Name: benchfmt.Name(benchName(r)), Iters: max(run.N, 1)}
			res.Values = append(res.Values, nsValue(run.NsPerOp))
			if finite(run.BytesPerOp) && run.BytesPerOp >= 0 && finite(run.AllocsPerOp) && run.AllocsPerOp >= 0 {
				res.Values = append(res.Values,
					benchfmt.Value{Value: math.Trunc(run.BytesPerOp), Unit: "B/op"},
					benchfmt.Value{Value: math.Trunc(run.AllocsPerOp), Unit: "allocs/op"})
			}
			if err := bw.Write(res); err != nil {
				return fmt.Errorf("report: writing the samples file: %w", err)
			}
		}
	}
	batchCfg := block("batches")
	for _, r := range a.Rows {
		if r.Source != SourceBatches {
			continue
		}
		iters := 1
		if len(r.Runs) > 0 && len(r.Samples) > 0 {
			iters = max(1, r.Runs[len(r.Runs)-1].N/len(r.Samples))
		}
		for _, v := range r.Samples {
			res := &benchfmt.Result{Config: batchCfg, Name: benchfmt.Name(benchName(r)), Iters: iters,
				Values: []benchfmt.Value{nsValue(v)}}
			if err := bw.Write(res); err != nil {
				return fmt.Errorf("report: writing the samples file: %w", err)
			}
		}
	}
	if err := writeCounts(bw, block("counts"), a.Rows); err != nil {
		return fmt.Errorf("report: writing the samples file: %w", err)
	}
	roundsCfg := block("rounds")
	for _, c := range a.Comparisons {
		if err := writeRounds(bw, roundsCfg, c); err != nil {
			return fmt.Errorf("report: writing the samples file: %w", err)
		}
	}
	return againstSamples(bw, base, in.Against)
}

// UnitInstructions is the unit of the samples file's instruction counts.
// benchunit leaves it as it is (no "ns" or "MB" token to rescale) and
// scales it as a decimal quantity: benchstat prints 16.02k.
const UnitInstructions = "instructions/op"

// writeCounts writes the rows' instruction counts, one line per counted
// row, Benchmark<Name> <N2 − N1> <count> instructions/op, after the unit
// metadata line "Unit instructions/op assume=exact": a count is one
// value per process pair, which benchstat compares across files as it
// would an exact quantity (the delta, never "~"); nothing when no row
// was counted.
func writeCounts(bw *benchfmt.Writer, cfg []benchfmt.Config, rows []Row) error {
	wrote := false
	for _, r := range rows {
		c := r.Count
		if c == nil || !c.Counted() || !finite(c.PerOp) {
			continue
		}
		if !wrote {
			u := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: UnitInstructions, Key: "assume"},
				OrigUnit: UnitInstructions, Value: "exact"}
			if err := bw.Write(u); err != nil {
				return err
			}
			wrote = true
		}
		res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(benchName(r)), Iters: max(c.N2-c.N1, 1),
			Values: []benchfmt.Value{{Value: c.PerOp, Unit: UnitInstructions}}}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	return nil
}

// writeRounds writes one line per round and implementation of a control
// comparison: Benchmark<Name>/impl=<impl>[-procs] <calls per batch> <ns>
// ns/op, the implementations in the order baseline, control, candidates.
// A comparison without recorded rounds, or with a round count per
// implementation that does not match its names, writes nothing.
func writeRounds(bw *benchfmt.Writer, cfg []benchfmt.Config, c ComparisonRow) error {
	names := []string{c.Baseline, c.Control.Name}
	if names[1] == "" {
		names[1] = "control"
	}
	for _, e := range c.Candidates {
		names = append(names, e.Name)
	}
	if len(c.RoundNs) != len(names) {
		return nil
	}
	base, suffix := roundsName(c.Benchmark, c.Procs)
	for i, ns := range c.RoundNs {
		name := benchfmt.Name(base + "/impl=" + names[i] + suffix)
		for _, v := range ns {
			if !finite(v) || v <= 0 {
				continue
			}
			res := &benchfmt.Result{Config: cfg, Name: name, Iters: max(c.BatchIters, 1), Values: []benchfmt.Value{nsValue(v)}}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}

// roundsName splits a comparison's registry key ("BenchmarkFormat-2")
// into the name without "Benchmark" and the GOMAXPROCS suffix ("Format",
// "-2"), so that "/impl=x" goes before the suffix as go test would print
// a sub-benchmark. Whitespace becomes '_'.
func roundsName(key string, procs int) (base, suffix string) {
	base = strings.TrimPrefix(key, "Benchmark")
	if procs > 1 {
		suffix = "-" + strconv.Itoa(procs)
		base = strings.TrimSuffix(base, suffix)
	}
	return underscoreSpace(base), suffix
}

// noControl maps control characters to spaces, so that a value stays on
// one line.
func noControl(r rune) rune {
	if r < ' ' || r == 0x7f {
		return ' '
	}
	return r
}

// benchName is the result name benchfmt writes after "Benchmark": the
// display name with spaces (which go test never prints) replaced by '_'.
func benchName(r Row) string { return underscoreSpace(r.Display) }

// underscoreSpace replaces spaces, tabs and line breaks in a benchmark
// name with '_', as go test prints them, so that the name stays one field
// of a result line.
func underscoreSpace(name string) string {
	return strings.Map(func(c rune) rune {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			return '_'
		}
		return c
	}, name)
}

func nsValue(ns float64) benchfmt.Value {
	return benchfmt.Value{Value: ns * 1e-9, Unit: "sec/op", OrigValue: ns, OrigUnit: "ns/op"}
}

// againstSamples writes the cross-build samples: one result line per
// round and side, with that process's iteration count (1 when unknown;
// for a benchmark measured in lockstep, one line per triple and side,
// [perTriple]),
// under the configuration "samples: against" and "side: base", "side:
// new" or "side: control" (the base binary's second process), so that
// `benchstat -col side file` puts old, new and the A/A control in
// columns, base first.
func againstSamples(bw *benchfmt.Writer, base []benchfmt.Config, a *against.Result) error {
	if a == nil {
		return nil
	}
	for _, side := range []string{"base", "new", "control"} {
		cfg := append(append([]benchfmt.Config{}, base...),
			benchfmt.Config{Key: "samples", Value: []byte("against"), File: true},
			benchfmt.Config{Key: "side", Value: []byte(side), File: true})
		for _, b := range a.Benches {
			s := map[string]against.Side{"base": b.Base, "new": b.New, "control": b.Control}[side]
			if len(b.Groups) > 0 {
				s = perTriple(s, b.Groups)
			}
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

// perTriple reduces a lockstep side, groups[t] runs per triple t, to one
// value per triple: the median of its runs' ns/op, the lower median of
// their allocs/op and B/op (a whole count),
// with iterations the triple's total. A triple is one process of each
// side, the unit benchstat's test assumes independent; its runs are not.
func perTriple(s against.Side, groups []int) against.Side {
	var out against.Side
	at := 0
	for _, n := range groups {
		if n <= 0 || at+n > len(s.NsPerOp) {
			break
		}
		ns, ok := stats.Median(s.NsPerOp[at : at+n])
		if !ok {
			ns = math.NaN() // left out, as a round's NaN is
		}
		out.NsPerOp = append(out.NsPerOp, ns)
		if at+n <= len(s.AllocsPerOp) && at+n <= len(s.BytesPerOp) {
			allocs, _ := stats.LowerMedian(s.AllocsPerOp[at : at+n])
			bytes, _ := stats.LowerMedian(s.BytesPerOp[at : at+n])
			out.AllocsPerOp, out.BytesPerOp = append(out.AllocsPerOp, allocs), append(out.BytesPerOp, bytes)
		}
		iters := 0
		for _, it := range s.Iters[min(at, len(s.Iters)):min(at+n, len(s.Iters))] {
			iters += it
		}
		out.Iters = append(out.Iters, iters)
		at += n
	}
	return out
}
