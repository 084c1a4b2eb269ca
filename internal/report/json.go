package report

import (
	"encoding/json"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/settings"
	"io"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// JSONReport is the JSON report (schema [Schema]), as [JSONAnalysis]
// writes it and [ReadJSON] reads it back. docs/report.md describes every
// field. A pointer field is null when the value is unknown or not finite.
type JSONReport struct {
	Schema      string           `json:"schema"`
	Package     string           `json:"package"`
	GOOS        string           `json:"goos"`
	GOARCH      string           `json:"goarch"`
	StartTime   *string          `json:"start_time"`
	GoVersion   string           `json:"go_version"`
	CPU         string           `json:"cpu"`
	GoTest      JSONGoTest       `json:"go_test"`
	VCS         *JSONVCS         `json:"vcs"`
	Settings    JSONSettings     `json:"settings"`
	Environment JSONEnvironment  `json:"environment"`
	Warmup      *JSONWarmup      `json:"warmup"`
	Benchmarks  []JSONBenchmark  `json:"benchmarks"`
	Comparisons []JSONComparison `json:"comparisons"`
	Failures    []string         `json:"failures"`
	Failed      bool             `json:"failed"`
	Dropped     int              `json:"dropped_benchmarks"`
	// DroppedComparisons lists the benchmarks whose comparisons the
	// registry could not all hold, with how many it dropped.
	DroppedComparisons []JSONDropped `json:"dropped_comparisons"`
	// Against is the cross-build comparison (-benchkit.against), or null.
	Against *JSONAgainst `json:"against"`
}

// JSONDropped is one element of "dropped_comparisons".
type JSONDropped struct {
	Benchmark string `json:"benchmark"`
	Count     int    `json:"count"`
}

// JSONSettings is the report's "settings" object.
type JSONSettings struct {
	DeltaPct float64 `json:"delta_pct"`
	Strict   bool    `json:"strict"`
	// Shard is -benchkit.shard, null when the run measured every selected
	// benchmark.
	Shard *JSONShard `json:"shard"`
}

// JSONShard is "settings.shard": shard k of n (1 ≤ k ≤ n) of one run,
// or, in a report merged from the shards' (k 0), the shards merged.
type JSONShard struct {
	K      int   `json:"k"`
	N      int   `json:"n"`
	Merged []int `json:"merged"`
}

func jsonShardOf(s settings.Shard) *JSONShard {
	if !s.Set() {
		return nil
	}
	return &JSONShard{K: s.K, N: s.N, Merged: []int{}}
}

// JSONEnvironment is the report's "environment" object: the facts and
// warnings, and the snapshot's typed fields ([JSONMachine]) flattened
// beside them.
type JSONEnvironment struct {
	Facts    []JSONFact    `json:"facts"`
	Warnings []JSONWarning `json:"warnings"`
	JSONMachine
}

// JSONFact is one element of "environment.facts".
type JSONFact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// JSONWarning is one element of "environment.warnings".
type JSONWarning struct {
	Key     string `json:"key"`
	Message string `json:"message"`
	// Short is the warning in a few words, as the compact report's header
	// line shows it ("load 3.10 above 2 CPUs").
	Short string `json:"short"`
}

// JSONWarmup is the report's "warmup" object, null without a warm-up.
type JSONWarmup struct {
	Summary     string   `json:"summary"`
	DurationNs  int64    `json:"duration_ns"`
	Batches     int      `json:"batches"`
	Converged   bool     `json:"converged"`
	FirstToLast *float64 `json:"first_to_last"`
	Warnings    []string `json:"warnings"`
}

// JSONBenchmark is one element of "benchmarks": one row of the report,
// one benchmark at one -procs value.
type JSONBenchmark struct {
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
	Regimes          *JSONRegimes `json:"regimes"`
	Outliers         *JSONOutlier `json:"outliers"`
	Flags            []JSONFlag   `json:"flags"`
	Runs             []JSONRun    `json:"runs"`
	Timeline         []float64    `json:"timeline_ns_per_op"`

	// Added within v1: what the grade and runs-needed are
	// computed from, the interval of the median, and the causes.
	GradeBasis      Basis      `json:"grade_basis"`
	MedianCIPct     *float64   `json:"median_ci_pct"`
	RunsNeededBasis Basis      `json:"runs_needed_basis"`
	RunsNeededHi    *int       `json:"runs_needed_hi"`
	ColdStartRatio  *float64   `json:"cold_start_ratio"`
	Drift           *JSONDrift `json:"drift"`

	// Added within v1: the instructions per op counted under valgrind
	// (-benchkit.count=instructions), null when not counted, and the
	// count's details, null when counts were off.
	InstructionsPerOp *float64          `json:"instructions_per_op"`
	Instructions      *JSONInstructions `json:"instructions"`
}

// JSONInstructions is a benchmark's instruction count under valgrind
// (-benchkit.count=instructions); per_op is null when it was not made.
type JSONInstructions struct {
	PerOp         *float64 `json:"per_op"`
	N1            int      `json:"n1"`
	N2            int      `json:"n2"`
	Total1        int64    `json:"total1"`
	Total2        int64    `json:"total2"`
	ResolutionPct *float64 `json:"resolution_pct"`
	// Added within v1: each process's per-op value at n2 and the
	// half-width of their mean's 95% t-interval (null with one).
	PerProcess   []float64 `json:"per_process"`
	HalfWidthPct *float64  `json:"halfwidth_pct"`
	Capped       string    `json:"capped"`
	Processes    int       `json:"processes"`
	WallNs       int64     `json:"wall_ns"`
	Valgrind     string    `json:"valgrind"`
	Reason       string    `json:"reason"`
	Error        string    `json:"error"`
	Output       string    `json:"output"`
	// Added within v1: that the benchmark started processes, whose
	// instructions are not counted ("" when none was seen).
	Children string `json:"children"`
}

// jsonInstrOf converts a count; per_op is null when it was not made.
func jsonInstrOf(c count.Result) *JSONInstructions {
	j := &JSONInstructions{
		N1: c.N1, N2: c.N2, Total1: c.Total1, Total2: c.Total2, ResolutionPct: known(c.ResolutionPct), Capped: c.Capped, Children: c.Children,
		PerProcess: append([]float64{}, c.PerOps...), HalfWidthPct: known(c.HalfWidthPct),
		Processes: c.Processes(), WallNs: int64(c.Wall), Valgrind: c.Valgrind, Reason: string(c.Reason), Error: c.Error, Output: c.Output,
	}
	if c.Counted() {
		j.PerOp = known(c.PerOp)
	}
	return j
}

// JSONInstrChange is a cross-build benchmark's counts: each binary's,
// and the change (delta_pct null unless both were counted).
type JSONInstrChange struct {
	Base         *JSONInstructions `json:"base"`
	New          *JSONInstructions `json:"new"`
	DeltaPct     *float64          `json:"delta_pct"`
	TolerancePct float64           `json:"tolerance_pct"`
	Changed      bool              `json:"changed"`
}

func jsonInstrChangeOf(c *against.InstrChange) *JSONInstrChange {
	if c == nil {
		return nil
	}
	j := &JSONInstrChange{Base: jsonInstrOf(c.Base), New: jsonInstrOf(c.New), TolerancePct: zeroIfBad(c.TolerancePct), Changed: c.Changed}
	if c.Counted() {
		j.DeltaPct = num(c.DeltaPct)
	}
	return j
}

// JSONDrift is a benchmark's "drift" object, null without drift.
type JSONDrift struct {
	ChangePct float64 `json:"change_pct"`
	P         float64 `json:"p"`
	Blocks    int     `json:"blocks"`
}

// JSONRegimes is a benchmark's "regimes" object, null with one regime.
type JSONRegimes struct {
	Low        JSONRegime `json:"low"`
	High       JSONRegime `json:"high"`
	Split      float64    `json:"split_ns_per_op"`
	Separation float64    `json:"separation"`
	Method     string     `json:"method"`
}

// JSONRegime is one regime of [JSONRegimes], in ns/op; segments are
// [start, end) run indices.
type JSONRegime struct {
	Center   float64  `json:"center_ns_per_op"`
	Size     int      `json:"size"`
	Lo       float64  `json:"lo_ns_per_op"`
	Hi       float64  `json:"hi_ns_per_op"`
	Segments [][2]int `json:"segments"`
}

// JSONOutlier is a benchmark's "outliers" object, in ns/op.
type JSONOutlier struct {
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

// JSONFlag is one element of a benchmark's "flags".
type JSONFlag struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Detail  string `json:"detail"`
	Count   int    `json:"count"`
	Failed  bool   `json:"failed"`
	Certain bool   `json:"certain"`
	Allowed string `json:"allowed"`
}

// JSONRun is one element of a benchmark's "runs": one timed run.
type JSONRun struct {
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

// JSONComparison is one element of "comparisons": one control.Compare
// call. Benchmark is the benchmark's name as go test prints it, with the
// -procs suffix when procs is not 1.
type JSONComparison struct {
	Benchmark       string         `json:"benchmark"`
	Baseline        string         `json:"baseline"`
	BaselineNsPerOp *float64       `json:"baseline_ns_per_op"`
	Control         JSONEstimate   `json:"control"`
	Candidates      []JSONEstimate `json:"candidates"`
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

// JSONEstimate is one implementation's estimate against the baseline:
// ns_per_op, delta_pct and the interval [lo_pct, hi_pct] in percent of the
// baseline. A number that is not finite is null; lo_pct and hi_pct are
// both null when there is no interval (too few rounds, forks or triples).
type JSONEstimate struct {
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

// JSONGCParts are the parts of a comparison measured with the collector
// in: new's time over base's at equal collections in percent (null when
// unknown), each side's collections per op at a long run's rate and its
// collector CPU time per op in ns (null when unknown), and the triples
// run at a random phase of the collector's cycle.
type JSONGCParts struct {
	MutatorDeltaPct *float64 `json:"mutator_delta_pct"`
	CyclesPerOpBase float64  `json:"cycles_per_op_base"`
	CyclesPerOpNew  float64  `json:"cycles_per_op_new"`
	GCCPUBaseNs     *float64 `json:"gc_cpu_base_ns_per_op"`
	GCCPUNewNs      *float64 `json:"gc_cpu_new_ns_per_op"`
	Triples         int      `json:"triples"`
}

func jsonGCOf(p *against.GCParts) *JSONGCParts {
	if p == nil {
		return nil
	}
	return &JSONGCParts{MutatorDeltaPct: num(p.MutatorDeltaPct), CyclesPerOpBase: p.CyclesPerOpBase, CyclesPerOpNew: p.CyclesPerOpNew,
		GCCPUBaseNs: num(p.GCCPUBaseNs), GCCPUNewNs: num(p.GCCPUNewNs), Triples: p.Triples}
}

// positive returns x, or nil when x is not above 0 (benchkit's "none").
func positive(x float64) *float64 {
	if !finite(x) || x <= 0 {
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

// JSON writes the JSON report of in to w, indented, with a final newline.
// The schema is [Schema]; the package documentation describes every
// field. NaN and ±Inf never appear: such values are null.
func JSON(w io.Writer, in Input) error {
	return JSONAnalysis(w, in, Analyze(in))
}

// JSONAnalysis is [JSON] with the analysis already computed.
func JSONAnalysis(w io.Writer, in Input, a Analysis) error {
	return encodeJSON(w, jsonReportOf(in, a))
}

// PackageFile returns the name of package pkg's file in a directory
// that holds one per package: the import path with '/', '\' and ':'
// replaced by '_', and ext ("example.com/p", ".json" →
// "example.com_p.json"); "benchkit"+ext for an unknown package.
func PackageFile(pkg, ext string) string {
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' {
			return '_'
		}
		return r
	}, pkg)
	if name == "" {
		name = "benchkit"
	}
	return name + ext
}

// JSONReportOf returns the JSON report of in and its analysis a, as
// [JSONAnalysis] writes it.
func JSONReportOf(in Input, a Analysis) JSONReport { return jsonReportOf(in, a) }

// WriteJSON writes rep to w as [JSON] writes a report: indented, with a
// final newline.
func WriteJSON(w io.Writer, rep JSONReport) error { return encodeJSON(w, rep) }

// encodeJSON writes rep to w as [JSON] does: indented by two spaces, with
// a final newline.
func encodeJSON(w io.Writer, rep JSONReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return fmt.Errorf("report: encoding the JSON report: %w", err)
	}
	return nil
}

// ReadJSON decodes a JSON report from r, as [JSON] writes it. It fails,
// naming what it found, unless the report's "schema" is [Schema]; fields
// it does not know (added in a later version of v1) are ignored, and
// fields the report lacks keep their zero value. NaN and ±Inf are never
// read: the report holds them as null, a nil pointer.
func ReadJSON(r io.Reader) (JSONReport, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return JSONReport{}, fmt.Errorf("report: reading a JSON report: %w", err)
	}
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return JSONReport{}, fmt.Errorf("report: reading a JSON report: %w", err)
	}
	switch {
	case head.Schema == nil:
		return JSONReport{}, fmt.Errorf("report: not a benchkit JSON report: no \"schema\" field, want %q", Schema)
	case *head.Schema != Schema:
		return JSONReport{}, fmt.Errorf("report: the JSON report's schema is %q, want %q", *head.Schema, Schema)
	}
	var rep JSONReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return JSONReport{}, fmt.Errorf("report: reading a JSON report (schema %s): %w", Schema, err)
	}
	return rep, nil
}

// jsonReportOf builds the JSON report of in and its analysis a.
func jsonReportOf(in Input, a Analysis) JSONReport {
	rep := JSONReport{
		Schema:      Schema,
		Package:     in.Package,
		GOOS:        in.GOOS,
		GOARCH:      in.GOARCH,
		Settings:    JSONSettings{DeltaPct: in.Settings.delta(), Strict: in.Settings.Strict, Shard: jsonShardOf(in.Settings.Shard)},
		Environment: JSONEnvironment{Facts: []JSONFact{}, Warnings: []JSONWarning{}},
		Benchmarks:  []JSONBenchmark{},
		Comparisons: []JSONComparison{},
		Failures:    append([]string{}, a.Failures...),
		Failed:      a.Failed(),
		Dropped:     in.Dropped,

		DroppedComparisons: []JSONDropped{},
		Against:            jsonAgainstOf(in.Against),
	}
	addMeta(&rep, in)
	for _, f := range in.Facts {
		rep.Environment.Facts = append(rep.Environment.Facts, JSONFact(f))
	}
	for _, wn := range in.Warnings {
		rep.Environment.Warnings = append(rep.Environment.Warnings, JSONWarning{Key: wn.Key, Message: wn.Message, Short: wn.Headline()})
	}
	if wu := in.Warmup; wu != nil {
		rep.Warmup = &JSONWarmup{
			Summary: wu.Summary, DurationNs: int64(wu.Duration), Batches: wu.Batches,
			Converged: wu.Converged, FirstToLast: known(wu.FirstToLast), Warnings: append([]string{}, wu.Warnings...),
		}
	}
	for _, r := range a.Rows {
		rep.Benchmarks = append(rep.Benchmarks, jsonBench(r))
	}
	for _, c := range a.Comparisons {
		jc := JSONComparison{
			Benchmark: c.Benchmark, Baseline: c.Baseline, BaselineNsPerOp: known(c.BaselineNsPerOp),
			Control: jsonEst(c.Control), Candidates: []JSONEstimate{}, Rounds: c.Rounds, Forks: c.Forks,
			Confidence: num(c.Confidence), OverheadNs: known(c.OverheadNsPerOp),
			GatePct: zeroIfBad(c.Gate), GateFailed: c.GateFailed, Warnings: append([]string{}, c.Warnings...),
			Procs: c.Procs, BatchIters: c.BatchIters,
		}
		for _, e := range c.Candidates {
			jc.Candidates = append(jc.Candidates, jsonEst(e))
		}
		rep.Comparisons = append(rep.Comparisons, jc)
		if c.Dropped > 0 {
			rep.DroppedComparisons = append(rep.DroppedComparisons, JSONDropped{Benchmark: c.Benchmark, Count: c.Dropped})
		}
	}
	return rep
}

func zeroIfBad(x float64) float64 {
	if !finite(x) {
		return 0
	}
	return x
}

func jsonEst(e verdict.Estimate) JSONEstimate {
	return JSONEstimate{
		Name: e.Name, NsPerOp: known(e.NsPerOp), DeltaPct: num(e.DeltaPct), LoPct: num(e.LoPct), HiPct: num(e.HiPct),
		Verdict: string(e.Verdict), Reason: e.Reason, ForkDeltaPct: finiteSlice(e.ForkDeltaPct),
	}
}

func jsonBench(r Row) JSONBenchmark {
	jb := JSONBenchmark{
		Name: r.Name, Display: r.Display, Procs: r.Procs, TotalRuns: r.TotalRuns,
		SampleSource: r.Source, Samples: finiteSlice(r.Samples),
		MedianNs: known(r.MedianNs), CVPct: known(r.CVPct), Grade: r.Grade, WaitPct: known(r.WaitPct),
		RunsNeededCapped: r.RunsNeededCapped,
		Flags:            []JSONFlag{}, Runs: []JSONRun{}, Timeline: finiteSlice(r.Timeline),
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
	if c := r.Count; c != nil {
		jb.Instructions = jsonInstrOf(*c)
		jb.InstructionsPerOp = jb.Instructions.PerOp
	}
	if d := r.Drift; d != nil {
		jb.Drift = &JSONDrift{ChangePct: zeroIfBad(d.ChangePct), P: zeroIfBad(d.P), Blocks: d.Blocks}
	}
	if g := r.Regimes; g != nil {
		jb.Regimes = &JSONRegimes{Low: jsonReg(g.Low), High: jsonReg(g.High), Split: zeroIfBad(g.Split), Separation: zeroIfBad(g.Separation), Method: "value-split"}
		if r.Shift {
			jb.Regimes.Method = "level-shift"
		}
	}
	if o := r.Outliers; o != nil {
		jb.Outliers = &JSONOutlier{Q1: zeroIfBad(o.Q1), Q3: zeroIfBad(o.Q3), LowMild: o.LowMild, HighMild: o.HighMild,
			LowSevere: o.LowSevere, HighSevere: o.HighSevere, Indices: append([]int{}, o.Indices...)}
		if st := r.HighStretch; st[1] > st[0] {
			jb.Outliers.HighStretch = &st
		}
	}
	for _, f := range r.Flags {
		jb.Flags = append(jb.Flags, JSONFlag{Kind: string(f.Kind), Message: f.Message, Detail: f.Detail, Count: f.Count, Failed: f.Failed,
			Certain: f.Kind.Certain(), Allowed: f.Allowed})
	}
	for _, run := range r.Runs {
		jr := JSONRun{
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

func jsonReg(g stats.Regime) JSONRegime {
	segs := append([][2]int{}, g.Segments...)
	return JSONRegime{Center: zeroIfBad(g.Center), Size: g.Size, Lo: zeroIfBad(g.Lo), Hi: zeroIfBad(g.Hi), Segments: segs}
}

// JSONAgainst is the report's "against" object, the cross-build
// comparison (-benchkit.against); null without one. See docs/report.md.
type JSONAgainst struct {
	Base JSONBinary `json:"base"`
	// BaseRevision, for a base built from a git revision, says which
	// commit and how; null for a base binary given by path.
	BaseRevision  *JSONRevision      `json:"base_revision"`
	New           JSONBinary         `json:"new"`
	Pattern       string             `json:"pattern"`
	Benchtime     string             `json:"benchtime"`
	Rounds        int                `json:"rounds"`
	Seed          uint64             `json:"seed"`
	Pairing       string             `json:"pairing"`
	RunTargetNs   int64              `json:"run_target_ns"`
	Confidence    *float64           `json:"confidence"`
	NegligiblePct float64            `json:"negligible_pct"`
	GatePct       float64            `json:"gate_pct"`
	GateAllocs    bool               `json:"gate_allocs"`
	GateInstrPct  float64            `json:"gate_instructions_pct"`
	Benchmarks    []JSONAgainstBench `json:"benchmarks"`
	OnlyBase      []string           `json:"only_base"`
	OnlyNew       []string           `json:"only_new"`
	Failures      []JSONProcFailure  `json:"failures"`
	Warnings      []string           `json:"warnings"`
}

// JSONRevision is "against.base_revision": the revision as given, the
// merge base built, whether the cache had the binary, the build flags
// and environment carried, and why the package has no base ("" when it
// has one).
type JSONRevision struct {
	Rev     string   `json:"rev"`
	Commit  string   `json:"commit"`
	Reused  bool     `json:"reused"`
	Flags   []string `json:"flags"`
	Missing string   `json:"missing"`
}

// JSONBinary is one binary of a cross-build comparison ("base" or "new").
type JSONBinary struct {
	Path        string `json:"path"`
	Package     string `json:"package"`
	GoVersion   string `json:"go_version"`
	VCSRevision string `json:"vcs_revision"`
	VCSTime     string `json:"vcs_time"`
	VCSModified bool   `json:"vcs_modified"`
	SHA256      string `json:"sha256"`
}

// JSONSide is one side's per-round values of a cross-build benchmark.
type JSONSide struct {
	NsPerOp     []float64 `json:"ns_per_op"`
	AllocsPerOp []float64 `json:"allocs_per_op"`
	BytesPerOp  []float64 `json:"bytes_per_op"`
}

// JSONCount is a cross-build benchmark's allocs/op or B/op in each
// binary, null when unknown.
type JSONCount struct {
	Base    *float64 `json:"base"`
	New     *float64 `json:"new"`
	Changed bool     `json:"changed"`
	Varies  bool     `json:"varies"`
}

// JSONAgainstBench is one element of "against.benchmarks". Name is the
// benchmark's name as go test prints it, without "Benchmark" and with the
// -procs suffix when procs is not 1.
type JSONAgainstBench struct {
	Name       string       `json:"name"`
	Base       JSONSide     `json:"base"`
	New        JSONSide     `json:"new"`
	Control    JSONSide     `json:"control"`
	Estimate   JSONEstimate `json:"estimate"`
	ControlEst JSONEstimate `json:"control_estimate"`
	Allocs     JSONCount    `json:"allocs_per_op"`
	Bytes      JSONCount    `json:"bytes_per_op"`
	GateFailed bool         `json:"gate_failed"`
	GateNote   string       `json:"gate_note"`
	Mode       string       `json:"mode"`
	ModeNote   string       `json:"mode_note"`
	Groups     []int        `json:"groups"`
	// Instructions are the counts of both binaries
	// (-benchkit.count=instructions), null without them.
	Instructions *JSONInstrChange `json:"instructions_per_op"`
	// WaitingCPUPct is, in lockstep, the CPU time the waiting processes
	// used during the runs, in percent of the runs' wall time; null when
	// unknown.
	WaitingCPUPct *float64 `json:"waiting_cpu_pct"`
	// RunWaitPct is, in lockstep, the share of the runs' timed time
	// during which the benchmark's thread waited for a CPU another
	// program held, in percent, taken out of the runs' times (their
	// ns_per_op are without it); null when unknown.
	RunWaitPct *float64 `json:"run_wait_pct"`
	// Design says, in lockstep, how the triples were shaped and why they
	// stopped; Confidence is the level of this benchmark's intervals
	// (null: the comparison's); DetectablePct the smallest change either
	// way the run could have decided, in percent (null without a control
	// interval).
	Design        string   `json:"design"`
	Confidence    *float64 `json:"confidence"`
	DetectablePct *float64 `json:"detectable_pct"`
	// Stop is why lockstep's triples stopped: "decided", "budget",
	// "rounds", "max" or "failed" ("" in rounds); BetweenPct and
	// WithinPct how much processes and runs within one differed, as one
	// process's CVs in percent (null when unknown).
	Stop       string   `json:"stop"`
	BetweenPct *float64 `json:"between_pct"`
	WithinPct  *float64 `json:"within_pct"`
	// GC is, where the runs held collections and the collector could be
	// separated, the parts of the cost per op recomposed at a long run's
	// rate (the estimate is then of that cost); null otherwise. GCNote
	// says why runs that held collections could not be recomposed.
	GC     *JSONGCParts `json:"gc"`
	GCNote string       `json:"gc_note"`
}

// JSONProcFailure is one element of "against.failures": a process that
// failed.
type JSONProcFailure struct {
	Side  string `json:"side"`
	Round int    `json:"round"`
	// Build is true for a base built from a revision that did not build
	// (Output is the go command's).
	Build      bool     `json:"build"`
	Benchmarks []string `json:"benchmarks"`
	Message    string   `json:"message"`
	Output     string   `json:"output"`
}

// jsonAgainstOf converts a cross-build comparison for the JSON report;
// nil stays nil (JSON null).
func jsonAgainstOf(a *against.Result) *JSONAgainst {
	if a == nil {
		return nil
	}
	j := &JSONAgainst{
		Base: JSONBinary(a.Base), New: JSONBinary(a.New), Pattern: a.Pattern, Benchtime: a.Benchtime,
		Rounds: a.Rounds, Seed: a.Seed, Pairing: a.Pairing, RunTargetNs: a.RunTargetNs, Confidence: num(a.Confidence), NegligiblePct: zeroIfBad(a.Negligible),
		GatePct: zeroIfBad(a.GatePct), GateAllocs: a.GateAllocs, GateInstrPct: zeroIfBad(a.GateInstr), Benchmarks: []JSONAgainstBench{},
		OnlyBase: append([]string{}, a.OnlyBase...), OnlyNew: append([]string{}, a.OnlyNew...),
		Failures: []JSONProcFailure{}, Warnings: append([]string{}, a.Warnings...),
	}
	if r := a.BaseRev; r != nil {
		j.BaseRevision = &JSONRevision{Rev: r.Rev, Commit: r.Commit, Reused: r.Reused, Flags: append([]string{}, r.Flags...), Missing: r.Missing}
	}
	for _, b := range a.Benches {
		j.Benchmarks = append(j.Benchmarks, JSONAgainstBench{
			Name: b.Name, Base: jsonSideOf(b.Base), New: jsonSideOf(b.New), Control: jsonSideOf(b.Control),
			Estimate: jsonEst(b.NewEst), ControlEst: jsonEst(b.ControlEst),
			Allocs: jsonCountOf(b.Allocs), Bytes: jsonCountOf(b.Bytes), GateFailed: b.GateFailed(), GateNote: b.GateNote,
			Mode: b.Mode, ModeNote: b.ModeNote, Groups: append([]int{}, b.Groups...), Instructions: jsonInstrChangeOf(b.Instr),
			WaitingCPUPct: known(b.IdleCPUPct), RunWaitPct: known(b.RunWaitPct), Design: b.Design, Confidence: positive(b.Confidence), DetectablePct: positive(b.DetectablePct),
			Stop: b.Stop, BetweenPct: known(b.BetweenPct), WithinPct: known(b.WithinPct), GC: jsonGCOf(b.GC), GCNote: b.GCNote,
		})
	}
	for _, f := range a.Failures {
		j.Failures = append(j.Failures, JSONProcFailure{Side: f.Side, Round: f.Round, Build: f.Build,
			Benchmarks: append([]string{}, f.Benchmarks...), Message: f.Message, Output: f.Output})
	}
	return j
}

func jsonSideOf(s against.Side) JSONSide {
	return JSONSide{NsPerOp: finiteSlice(s.NsPerOp), AllocsPerOp: finiteSlice(s.AllocsPerOp), BytesPerOp: finiteSlice(s.BytesPerOp)}
}

func jsonCountOf(c against.Count) JSONCount {
	return JSONCount{Base: known(c.Base), New: known(c.New), Changed: c.Changed(), Varies: c.Varies}
}

// JSONGoTest is the report's "go_test" object: go test's flags for the run.
type JSONGoTest struct {
	Bench     string `json:"bench"`
	Benchtime string `json:"benchtime"`
	Count     int    `json:"count"`
	CPU       string `json:"cpu"`
	Benchmem  bool   `json:"benchmem"`
}

// JSONVCS is the report's "vcs" object, null outside version control.
type JSONVCS struct {
	System   string `json:"system"`
	Revision string `json:"revision"`
	Time     string `json:"time"`
	Modified *bool  `json:"modified"`
}

// JSONMachine is the environment snapshot as typed fields, flattened into
// the JSON report's "environment" object next to facts and warnings.
// Unknown numbers and booleans are null; unknown enums are "unknown".
type JSONMachine struct {
	CPUModel      *string  `json:"cpu_model"`
	CPUs          *int     `json:"cpus"`
	OnlineCPUs    *int     `json:"online_cpus"`
	GOMAXPROCS    *int     `json:"gomaxprocs"`
	GOMAXPROCSEnv string   `json:"gomaxprocs_env"`
	Load1         *float64 `json:"load_1m"`
	Load5         *float64 `json:"load_5m"`
	Load15        *float64 `json:"load_15m"`
	// Governor is "performance" (every CPU read), "not-performance" (at
	// least one CPU is not) or "unknown".
	Governor           string   `json:"governor"`
	Governors          []string `json:"governors"`
	GovernorCPUs       *int     `json:"governor_cpus"`
	NotPerformanceCPUs *int     `json:"not_performance_cpus"`
	// Turbo is "on", "off" or "unknown".
	Turbo       string `json:"turbo"`
	TurboSource string `json:"turbo_source"`
	// Virtualisation is "yes", "none-detected" or "unknown".
	Virtualisation   string   `json:"virtualisation"`
	Hypervisor       string   `json:"hypervisor"`
	StealNs          *int64   `json:"steal_ns"`
	StealPct         *float64 `json:"steal_pct"`
	Race             *bool    `json:"race"`
	Cover            *bool    `json:"cover"`
	CoverMode        string   `json:"cover_mode"`
	OptimisationsOff *bool    `json:"optimisations_off"`
	GCFlags          string   `json:"gcflags"`
}

// addMeta fills the run's metadata and the environment's typed fields of
// rep from in.
func addMeta(rep *JSONReport, in Input) {
	m := in.Meta
	if !m.Start.IsZero() {
		s := m.Start.UTC().Format(time.RFC3339Nano)
		rep.StartTime = &s
	}
	rep.GoVersion = m.GoVersion
	rep.CPU = in.CPU
	rep.GoTest = JSONGoTest(m.GoTest)
	if v := m.VCS; v != nil {
		rep.VCS = &JSONVCS{System: v.System, Revision: v.Revision, Time: v.Time, Modified: v.Modified}
	}
	rep.Environment.JSONMachine = machine(m.Env)
}

// machine converts a snapshot; nil gives every field unknown.
func machine(s *env.Snapshot) JSONMachine {
	j := JSONMachine{Governor: env.Unknown, Governors: []string{}, Turbo: env.Unknown, Virtualisation: env.Unknown}
	if s == nil {
		return j
	}
	intp := func(v int) *int { return &v }
	boolp := func(v bool) *bool { return &v }
	if s.CPUModelKnown {
		j.CPUModel = &s.CPUModel
	}
	j.CPUs, j.GOMAXPROCS, j.GOMAXPROCSEnv = intp(s.NumCPU), intp(s.GOMAXPROCS), s.GOMAXPROCSEnv
	if s.OnlineCPUsKnown {
		j.OnlineCPUs = intp(s.OnlineCPUs)
	}
	if s.LoadKnown {
		j.Load1, j.Load5, j.Load15 = num(s.Load1), num(s.Load5), num(s.Load15)
	}
	if s.GovernorKnown {
		j.Governor = "performance"
		if s.NotPerformanceCPUs > 0 {
			j.Governor = "not-performance"
		}
		j.Governors = append(j.Governors, s.Governors...)
		j.GovernorCPUs, j.NotPerformanceCPUs = intp(s.GovernorCPUs), intp(s.NotPerformanceCPUs)
	}
	if s.TurboKnown {
		j.Turbo, j.TurboSource = "off", s.TurboSource
		if s.Turbo {
			j.Turbo = "on"
		}
	}
	if s.VirtualisedKnown {
		j.Virtualisation, j.Hypervisor = "none-detected", s.Hypervisor
		if s.Virtualised {
			j.Virtualisation = "yes"
		}
	}
	if s.StealKnown {
		ns := int64(s.StealTime)
		j.StealNs, j.StealPct = &ns, num(s.StealPercent)
	}
	if s.BuildKnown {
		j.Race, j.Cover, j.OptimisationsOff = boolp(s.Race), boolp(s.Cover), boolp(s.OptimisationsOff)
		j.CoverMode, j.GCFlags = s.CoverMode, s.GCFlags
	}
	return j
}
