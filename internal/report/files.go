package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"github.com/benchkit/go-benchkit/internal/verdict"
)

// The JSON report. See the package documentation for every field.

type jsonReport struct {
	Schema      string           `json:"schema"`
	Package     string           `json:"package"`
	GOOS        string           `json:"goos"`
	GOARCH      string           `json:"goarch"`
	StartTime   *string          `json:"start_time"`
	GoVersion   string           `json:"go_version"`
	CPU         string           `json:"cpu"`
	GoTest      jsonGoTest       `json:"go_test"`
	VCS         *jsonVCS         `json:"vcs"`
	Settings    jsonSettings     `json:"settings"`
	Environment jsonEnvironment  `json:"environment"`
	Warmup      *jsonWarmup      `json:"warmup"`
	Benchmarks  []jsonBenchmark  `json:"benchmarks"`
	Comparisons []jsonComparison `json:"comparisons"`
	Failures    []string         `json:"failures"`
	Failed      bool             `json:"failed"`
	Dropped     int              `json:"dropped_benchmarks"`
	// DroppedComparisons lists the benchmarks whose comparisons the
	// registry could not all hold, with how many it dropped.
	DroppedComparisons []jsonDropped `json:"dropped_comparisons"`
	// Against is the cross-build comparison (-benchkit.against), or null.
	Against *jsonAgainst `json:"against"`
}

type jsonDropped struct {
	Benchmark string `json:"benchmark"`
	Count     int    `json:"count"`
}

type jsonSettings struct {
	DeltaPct float64 `json:"delta_pct"`
	Strict   bool    `json:"strict"`
}

type jsonEnvironment struct {
	Facts    []jsonFact    `json:"facts"`
	Warnings []jsonWarning `json:"warnings"`
	jsonMachine
}

type jsonFact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type jsonWarning struct {
	Key     string `json:"key"`
	Message string `json:"message"`
}

type jsonWarmup struct {
	Summary     string   `json:"summary"`
	DurationNs  int64    `json:"duration_ns"`
	Batches     int      `json:"batches"`
	Converged   bool     `json:"converged"`
	FirstToLast *float64 `json:"first_to_last"`
	Warnings    []string `json:"warnings"`
}

type jsonBenchmark struct {
	Name             string       `json:"name"`
	Display          string       `json:"display"`
	Procs            int          `json:"procs"`
	TotalRuns        int          `json:"total_runs"`
	SampleSource     Source       `json:"sample_source"`
	Samples          []float64    `json:"samples_ns_per_op"`
	MedianNs         *float64     `json:"median_ns_per_op"`
	CVPct            *float64     `json:"cv_pct"`
	Grade            Grade        `json:"grade"`
	WaitPct          *float64     `json:"wait_pct"`
	RunsNeeded       *int         `json:"runs_needed"`
	RunsNeededCapped bool         `json:"runs_needed_capped"`
	Regimes          *jsonRegimes `json:"regimes"`
	Outliers         *jsonOutlier `json:"outliers"`
	Flags            []jsonFlag   `json:"flags"`
	Runs             []jsonRun    `json:"runs"`
	Timeline         []float64    `json:"timeline_ns_per_op"`

	// Added within v1 by issue 13: what the grade and runs-needed are
	// computed from, the interval of the median, and the causes.
	GradeBasis      Basis      `json:"grade_basis"`
	MedianCIPct     *float64   `json:"median_ci_pct"`
	RunsNeededBasis Basis      `json:"runs_needed_basis"`
	RunsNeededHi    *int       `json:"runs_needed_hi"`
	ColdStartRatio  *float64   `json:"cold_start_ratio"`
	Drift           *jsonDrift `json:"drift"`
}

type jsonDrift struct {
	ChangePct float64 `json:"change_pct"`
	P         float64 `json:"p"`
	Blocks    int     `json:"blocks"`
}

type jsonRegimes struct {
	Low        jsonRegime `json:"low"`
	High       jsonRegime `json:"high"`
	Split      float64    `json:"split_ns_per_op"`
	Separation float64    `json:"separation"`
	Method     string     `json:"method"`
}

type jsonRegime struct {
	Center   float64  `json:"center_ns_per_op"`
	Size     int      `json:"size"`
	Lo       float64  `json:"lo_ns_per_op"`
	Hi       float64  `json:"hi_ns_per_op"`
	Segments [][2]int `json:"segments"`
}

type jsonOutlier struct {
	Q1         float64 `json:"q1_ns_per_op"`
	Q3         float64 `json:"q3_ns_per_op"`
	LowMild    int     `json:"low_mild"`
	HighMild   int     `json:"high_mild"`
	LowSevere  int     `json:"low_severe"`
	HighSevere int     `json:"high_severe"`
	Indices    []int   `json:"indices"`
	// HighStretch is [start, end) or null.
	HighStretch *[2]int `json:"high_stretch"`
}

type jsonFlag struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Detail  string `json:"detail"`
	Count   int    `json:"count"`
	Failed  bool   `json:"failed"`
	Certain bool   `json:"certain"`
	Allowed string `json:"allowed"`
}

type jsonRun struct {
	Seq                 int      `json:"seq"`
	Procs               int      `json:"procs"`
	N                   int      `json:"n"`
	NsPerOp             *float64 `json:"ns_per_op"`
	AllocsPerOp         *float64 `json:"allocs_per_op"`
	BytesPerOp          *float64 `json:"bytes_per_op"`
	WallNs              int64    `json:"wall_ns"`
	TimedFraction       *float64 `json:"timed_fraction"`
	WaitFraction        *float64 `json:"wait_fraction"`
	InvoluntarySwitches *int64   `json:"involuntary_switches"`
	WithinCVPct         *float64 `json:"within_cv_pct"`
	// StaleProcs is GOMAXPROCS while testing measured the run when it
	// was not procs (golang/go#49980), else 0.
	StaleProcs int `json:"stale_procs"`
}

type jsonComparison struct {
	Benchmark       string         `json:"benchmark"`
	Baseline        string         `json:"baseline"`
	BaselineNsPerOp *float64       `json:"baseline_ns_per_op"`
	Control         jsonEstimate   `json:"control"`
	Candidates      []jsonEstimate `json:"candidates"`
	Rounds          int            `json:"rounds"`
	Forks           int            `json:"forks"`
	Confidence      *float64       `json:"confidence"`
	OverheadNs      *float64       `json:"overhead_ns"`
	GatePct         float64        `json:"gate_pct"`
	GateFailed      bool           `json:"gate_failed"`
	Warnings        []string       `json:"warnings"`
	Procs           int            `json:"procs"`
	BatchIters      int            `json:"batch_iters"`
}

type jsonEstimate struct {
	Name     string   `json:"name"`
	NsPerOp  *float64 `json:"ns_per_op"`
	DeltaPct *float64 `json:"delta_pct"`
	LoPct    *float64 `json:"lo_pct"`
	HiPct    *float64 `json:"hi_pct"`
	Verdict  string   `json:"verdict"`
	Reason   string   `json:"reason"`
	// ForkDeltaPct is each fork's delta, [] within one process.
	ForkDeltaPct []float64 `json:"fork_delta_pct"`
}

// num returns x, or nil (JSON null) when x is NaN or ±Inf.
func num(x float64) *float64 {
	if !finite(x) {
		return nil
	}
	return &x
}

// known returns x, or nil when x is negative (benchkit's "unknown") or
// not finite.
func known(x float64) *float64 {
	if !finite(x) || x < 0 {
		return nil
	}
	return &x
}

// finiteSlice returns a new slice of the finite values of xs, in order
// (empty, not nil, when there are none).
func finiteSlice(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if finite(x) {
			out = append(out, x)
		}
	}
	return out
}

// JSON writes the JSON report of in to w, indented, with a final newline.
// The schema is [Schema]; the package documentation describes every
// field. NaN and ±Inf never appear: such values are null.
func JSON(w io.Writer, in Input) error {
	return JSONAnalysis(w, in, Analyze(in))
}

// JSONAnalysis is [JSON] with the analysis already computed.
func JSONAnalysis(w io.Writer, in Input, a Analysis) error {
	rep := jsonReport{
		Schema:      Schema,
		Package:     in.Package,
		GOOS:        in.GOOS,
		GOARCH:      in.GOARCH,
		Settings:    jsonSettings{DeltaPct: in.Settings.delta(), Strict: in.Settings.Strict},
		Environment: jsonEnvironment{Facts: []jsonFact{}, Warnings: []jsonWarning{}},
		Benchmarks:  []jsonBenchmark{},
		Comparisons: []jsonComparison{},
		Failures:    append([]string{}, a.Failures...),
		Failed:      a.Failed(),
		Dropped:     in.Dropped,

		DroppedComparisons: []jsonDropped{},
		Against:            jsonAgainstOf(in.Against),
	}
	addMeta(&rep, in)
	for _, f := range in.Facts {
		rep.Environment.Facts = append(rep.Environment.Facts, jsonFact(f))
	}
	for _, wn := range in.Warnings {
		rep.Environment.Warnings = append(rep.Environment.Warnings, jsonWarning(wn))
	}
	if wu := in.Warmup; wu != nil {
		rep.Warmup = &jsonWarmup{
			Summary: wu.Summary, DurationNs: int64(wu.Duration), Batches: wu.Batches,
			Converged: wu.Converged, FirstToLast: known(wu.FirstToLast), Warnings: append([]string{}, wu.Warnings...),
		}
	}
	for _, r := range a.Rows {
		rep.Benchmarks = append(rep.Benchmarks, jsonBench(r))
	}
	for _, c := range a.Comparisons {
		jc := jsonComparison{
			Benchmark: c.Benchmark, Baseline: c.Baseline, BaselineNsPerOp: known(c.BaselineNsPerOp),
			Control: jsonEst(c.Control), Candidates: []jsonEstimate{}, Rounds: c.Rounds, Forks: c.Forks,
			Confidence: num(c.Confidence), OverheadNs: known(c.OverheadNsPerOp),
			GatePct: zeroIfBad(c.Gate), GateFailed: c.GateFailed, Warnings: append([]string{}, c.Warnings...),
			Procs: c.Procs, BatchIters: c.BatchIters,
		}
		for _, e := range c.Candidates {
			jc.Candidates = append(jc.Candidates, jsonEst(e))
		}
		rep.Comparisons = append(rep.Comparisons, jc)
		if c.Dropped > 0 {
			rep.DroppedComparisons = append(rep.DroppedComparisons, jsonDropped{Benchmark: c.Benchmark, Count: c.Dropped})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return fmt.Errorf("report: encoding the JSON report: %w", err)
	}
	return nil
}

func zeroIfBad(x float64) float64 {
	if !finite(x) {
		return 0
	}
	return x
}

func jsonEst(e verdict.Estimate) jsonEstimate {
	return jsonEstimate{
		Name: e.Name, NsPerOp: known(e.NsPerOp), DeltaPct: num(e.DeltaPct), LoPct: num(e.LoPct), HiPct: num(e.HiPct),
		Verdict: string(e.Verdict), Reason: e.Reason, ForkDeltaPct: finiteSlice(e.ForkDeltaPct),
	}
}

func jsonBench(r Row) jsonBenchmark {
	jb := jsonBenchmark{
		Name: r.Name, Display: r.Display, Procs: r.Procs, TotalRuns: r.TotalRuns,
		SampleSource: r.Source, Samples: finiteSlice(r.Samples),
		MedianNs: known(r.MedianNs), CVPct: known(r.CVPct), Grade: r.Grade, WaitPct: known(r.WaitPct),
		RunsNeededCapped: r.RunsNeededCapped,
		Flags:            []jsonFlag{}, Runs: []jsonRun{}, Timeline: finiteSlice(r.Timeline),
	}
	if r.RunsNeeded > 0 {
		n := r.RunsNeeded
		jb.RunsNeeded = &n
	}
	jb.GradeBasis, jb.MedianCIPct, jb.RunsNeededBasis = r.GradeBasis, known(r.CIPct), r.RunsNeededBasis
	if r.RunsNeededHi > 0 {
		hi := r.RunsNeededHi
		jb.RunsNeededHi = &hi
	}
	if r.ColdStart > 0 {
		jb.ColdStartRatio = known(r.ColdStart)
	}
	if d := r.Drift; d != nil {
		jb.Drift = &jsonDrift{ChangePct: zeroIfBad(d.ChangePct), P: zeroIfBad(d.P), Blocks: d.Blocks}
	}
	if g := r.Regimes; g != nil {
		jb.Regimes = &jsonRegimes{Low: jsonReg(g.Low), High: jsonReg(g.High), Split: zeroIfBad(g.Split), Separation: zeroIfBad(g.Separation), Method: "value-split"}
		if r.Shift {
			jb.Regimes.Method = "level-shift"
		}
	}
	if o := r.Outliers; o != nil {
		jb.Outliers = &jsonOutlier{Q1: zeroIfBad(o.Q1), Q3: zeroIfBad(o.Q3), LowMild: o.LowMild, HighMild: o.HighMild,
			LowSevere: o.LowSevere, HighSevere: o.HighSevere, Indices: append([]int{}, o.Indices...)}
		if st := r.HighStretch; st[1] > st[0] {
			jb.Outliers.HighStretch = &st
		}
	}
	for _, f := range r.Flags {
		jb.Flags = append(jb.Flags, jsonFlag{Kind: string(f.Kind), Message: f.Message, Detail: f.Detail, Count: f.Count, Failed: f.Failed,
			Certain: f.Kind.Certain(), Allowed: f.Allowed})
	}
	for _, run := range r.Runs {
		jr := jsonRun{
			Seq: run.Seq, Procs: run.Procs, N: run.N, NsPerOp: known(run.NsPerOp),
			AllocsPerOp: known(run.AllocsPerOp), BytesPerOp: known(run.BytesPerOp), WallNs: int64(run.Wall),
			TimedFraction: known(run.TimedFraction), WaitFraction: known(run.WaitFraction),
			WithinCVPct: known(run.WithinCV), StaleProcs: run.StaleProcs,
		}
		if run.InvoluntarySwitches >= 0 {
			v := run.InvoluntarySwitches
			jr.InvoluntarySwitches = &v
		}
		jb.Runs = append(jb.Runs, jr)
	}
	return jb
}

func jsonReg(g stats.Regime) jsonRegime {
	segs := append([][2]int{}, g.Segments...)
	return jsonRegime{Center: zeroIfBad(g.Center), Size: g.Size, Lo: zeroIfBad(g.Lo), Hi: zeroIfBad(g.Hi), Segments: segs}
}

// Samples writes every sample of in to w in the Go benchmark format, with
// golang.org/x/perf/benchfmt.Writer, so that benchstat reads the file
// directly. The file starts with the configuration lines goos, goarch, pkg,
// cpu (those known; cpu exactly as go test prints it, trailing spaces
// included) and "benchkit: benchkit-report/v1"; then
//
//   - under "samples: runs", one result line per recorded run:
//     Benchmark<Name>[-procs] <N> <ns> ns/op [<B> B/op <allocs> allocs/op]
//     (B/op and allocs/op only when both are known, truncated to integers
//     as go test -benchmem prints them; ns/op at full precision);
//
//   - under "samples: batches", for each benchmark whose samples are its
//     benchkit.Loop batch timeline (a single run), one line per batch with
//     its per-iteration cost in ns/op and, as iterations, the run's N over
//     the number of batches (approximate: batches are merged to stay
//     bounded);
//
//   - under "samples: rounds", for each control comparison, one line per
//     round and implementation: Benchmark<Name>/impl=<impl>[-procs] with
//     the calls per batch as iterations and that round's time per call
//     as ns/op, for the baseline, the control copy ("impl=control") and
//     each candidate (at most registry.MaxRoundTimes rounds, evenly
//     spaced); `benchstat -col /impl` puts the implementations side by
//     side. The rounds of every -count repeat share a name.
//
//   - under "samples: against", the cross-build samples of
//     -benchkit.against, labelled "side: base|new|control" (see
//     againstSamples).
//
// The samples key changes between the blocks, so benchstat puts them in
// separate tables rather than mixing run, batch, round and cross-build
// samples.
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
	roundsCfg := block("rounds")
	for _, c := range a.Comparisons {
		if err := writeRounds(bw, roundsCfg, c); err != nil {
			return fmt.Errorf("report: writing the samples file: %w", err)
		}
	}
	return againstSamples(bw, base, in.Against)
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
