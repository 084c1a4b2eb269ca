package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/settings"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// render is the full text report of in (in.Settings.Full).
func render(t *testing.T, in Input) string {
	t.Helper()
	in.Settings.Full = true
	return renderWith(t, Text, in)
}

// renderCompact is the compact text report of in, the default.
func renderCompact(t *testing.T, in Input) string {
	t.Helper()
	in.Settings.Full = false
	return renderWith(t, Text, in)
}

// renderWith returns what write writes for in.
func renderWith(t *testing.T, write func(io.Writer, Input) error, in Input) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, write(&buf, in))
	return buf.String()
}

// renderFlat is the text report of in without wrapping: one line per
// line of free text or table row, for tests of what a line says.
func renderFlat(t *testing.T, in Input) string {
	t.Helper()
	var buf bytes.Buffer
	in.Settings.Full = true
	require.NoError(t, textWidth(&buf, in, Analyze(in), 0))
	return buf.String()
}

func rowByName(t *testing.T, a Analysis, display string) Row {
	t.Helper()
	for _, r := range a.Rows {
		if r.Display == display {
			return r
		}
	}
	require.FailNowf(t, "no such row", "%q", display)
	return Row{}
}

// lineWith returns the one report line that contains all of subs.
func lineWith(t *testing.T, text string, subs ...string) string {
	t.Helper()
	var found []string
	for _, l := range strings.Split(text, "\n") {
		ok := true
		for _, s := range subs {
			ok = ok && strings.Contains(l, s)
		}
		if ok {
			found = append(found, l)
		}
	}
	require.Len(t, found, 1, "lines containing %q", subs)
	return found[0]
}

// fields splits a report table line into its columns (two or more spaces).
func fields(line string) []string {
	line = strings.TrimPrefix(line, Prefix)
	var out []string
	for _, f := range strings.Split(strings.TrimSpace(line), "  ") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// TestEveryLineIsPrefixed: every line of both forms of the report, for
// every golden input and one with newlines in its texts, starts with the
// prefix.
func TestEveryLineIsPrefixed(t *testing.T) {
	in := fixture()
	in.Facts = append(in.Facts, env.Fact{Name: "cpu", Value: "two\nlines: with a colon"})
	in.Warnings = append(in.Warnings, env.Warning{Key: "x", Message: "two\nlines", Short: "short\nlines"})
	in.Benches[2].Flags = append(in.Benches[2].Flags, registry.Flag{Kind: registry.FlagMisuse, Message: "multi\nline\rmessage", Count: 1})
	inputs := goldenInputs()
	inputs["newlines"] = in
	for name, in := range inputs {
		for _, text := range []string{render(t, in), renderCompact(t, in)} {
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			for i, l := range lines {
				assert.True(t, strings.HasPrefix(l, "benchkit │"), "%s: line %d not prefixed: %q", name, i+1, l)
			}
			assert.True(t, strings.HasSuffix(text, "\n"))
		}
	}
	assert.Greater(t, strings.Count(render(t, in), "\n"), 30)
}

// TestTextParsesClean puts the report after a go test -bench output, as
// benchkit.Main prints it, and reads the whole with benchfmt.Reader: only
// the harness's results and configuration come out.
func TestTextParsesClean(t *testing.T) {
	harness := "goos: linux\ngoarch: amd64\npkg: example.com/p\ncpu: Test CPU\n" +
		"BenchmarkClean-2   \t 1000000\t       100.1 ns/op\n" +
		"BenchmarkMakeBuffer_Correct-2 \t 1000000\t 39.39 ns/op\t 64 B/op\t 1 allocs/op\n" +
		"--- BENCH: BenchmarkMakeBuffer_Correct-2\n    x_test.go:9: a log line: with a colon\n" +
		"PASS\n"
	in := fixture()
	in.Warnings = append(in.Warnings, env.Warning{Key: "governor", Message: "governor: powersave"})
	for _, report := range []string{render(t, in), renderCompact(t, in), renderCompact(t, againstInput())} {
		checkParsesClean(t, harness+report)
	}
}

// checkParsesClean reads all, go test's output followed by a report,
// with benchfmt.Reader: only go test's two results come out, with its
// configuration, and the report alone holds no record and no
// configuration.
func checkParsesClean(t *testing.T, all string) {
	t.Helper()
	report := all[strings.Index(all, "PASS\n")+len("PASS\n"):]

	r := benchfmt.NewReader(strings.NewReader(all), "out.txt")
	var names []string
	var keys map[string]string
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			names = append(names, rec.Name.String())
			keys = map[string]string{}
			for _, c := range rec.Config {
				keys[c.Key] = string(c.Value)
			}
		case *benchfmt.SyntaxError:
			assert.Failf(t, "syntax error", "%v", rec)
		case *benchfmt.UnitMetadata:
			assert.Failf(t, "unit metadata from the report", "%v", rec)
		}
	}
	require.NoError(t, r.Err())
	assert.Equal(t, []string{"Clean-2", "MakeBuffer_Correct-2"}, names)
	assert.Equal(t, map[string]string{"goos": "linux", "goarch": "amd64", "pkg": "example.com/p", "cpu": "Test CPU"}, keys)

	// The report alone holds no record at all, and no configuration.
	r = benchfmt.NewReader(strings.NewReader(report+"BenchmarkLast 1 1 ns/op\n"), "report.txt")
	n := 0
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		require.True(t, ok)
		assert.Empty(t, res.Config, "the report set configuration keys")
		n++
	}
	assert.Equal(t, 1, n)
}

func TestRowsOfFixture(t *testing.T) {
	in := fixture()
	a := Analyze(in)
	text := renderFlat(t, in)

	clean := rowByName(t, a, "Clean-2")
	assert.Equal(t, SourceRuns, clean.Source)
	assert.Equal(t, GradeExcellent, clean.Grade)
	assert.Nil(t, clean.Regimes)
	assert.Equal(t, MinRunsForCI, clean.RunsNeeded)
	assert.Equal(t, []string{"Clean-2", "10 runs", "100.0ns", "0.2", "0.2", "excellent", "0.1", "6", "-"},
		fields(lineWith(t, text, "Clean-2", "excellent")))

	noisy := rowByName(t, a, "Noisy-2")
	assert.Equal(t, GradeNoisy, noisy.Grade)
	assert.InDelta(t, 5.9, noisy.CVPct, 0.05)
	assert.Nil(t, noisy.Regimes, "normal noise is not two regimes")
	assert.Equal(t, 23, noisy.RunsNeeded) // ⌈16·(5.93/5)²⌉
	assert.Contains(t, lineWith(t, text, "Noisy-2: cv"), "noisy; resolving a small change needs 23 runs per side")

	mb := rowByName(t, a, "MakeBuffer_Correct-2")
	assert.Equal(t, GradeDoNotTrust, mb.Grade)
	require.NotNil(t, mb.Regimes)
	assert.Equal(t, 8, mb.Regimes.Low.Size)
	assert.Equal(t, 12, mb.Regimes.High.Size)
	assert.InDelta(t, 41.0, mb.WaitPct, 1e-9)
	row := fields(lineWith(t, text, "MakeBuffer_Correct-2", "20 runs"))
	assert.Equal(t, []string{"MakeBuffer_Correct-2", "20 runs", "37.60ns", "15.3", "18.9", "do-not-trust", "41.0", "n/a",
		"two-regimes 27.12ns×8|39.25ns×12"}, row)
	assert.Equal(t, []string{"MakeBuffer_Correct-2", "runs", "▆▇█▆▇▇▆▅▂▁▂▁▂▂▁▁▄▆▆▆", "25.40ns … 43.90ns"},
		fields(lineWith(t, text, "MakeBuffer_Correct-2", "▆")))
	reg := lineWith(t, text, "MakeBuffer_Correct-2: two regimes")
	assert.Contains(t, reg, "8 around 27.12ns (runs 9-16) and 12 around 39.25ns (runs 1-8, 17-20)")
	assert.Contains(t, reg, "Lehr's rule does not apply")

	elim := rowByName(t, a, "Sum/eliminated-2")
	assert.Equal(t, "eliminated", elim.Tags()[0])
	msg := lineWith(t, text, "Sum/eliminated-2: eliminated (from timing):")
	assert.Contains(t, msg, "keep the result with sink.Keep (raised by 6 runs)")
	assert.Contains(t, msg, "Sum/eliminated-2: eliminated (from timing): 0.31 ns/op", "the message's prefix and subject are not repeated")

	loop := rowByName(t, a, "Loop-2")
	assert.Equal(t, SourceBatches, loop.Source)
	assert.Len(t, loop.Samples, 60)
	assert.Equal(t, 60.0, loop.MedianNs, "the median of one run is its ns/op, not the batches'")
	require.NotNil(t, loop.Regimes)
	assert.Equal(t, [][2]int{{20, 40}}, loop.Regimes.High.Segments)
	assert.Equal(t, "1 run, 60 batches", fields(lineWith(t, text, "Loop-2", "1 run, 60"))[1])
	assert.Equal(t, strings.Repeat("▁", 20)+strings.Repeat("█", 20)+strings.Repeat("▁", 20),
		fields(lineWith(t, text, "Loop-2", "▁▁▁"))[2])

	assert.NotContains(t, text, "  Compare  ", "a comparison-only benchmark has no table row")
	assert.Contains(t, strings.SplitN(text, "\n", 2)[0], "hygiene report · 5 benchmarks · 49 runs · 1 comparison · example.com/p")
}

func TestComparisonsAndGate(t *testing.T) {
	in := fixture()
	a := Analyze(in)
	require.Len(t, a.Comparisons, 1)
	require.Len(t, a.Failures, 1)
	assert.True(t, a.Failed())
	assert.True(t, strings.HasPrefix(a.Failures[0], "benchkit: Compare: gate 5% failed: plus10 +10.0%"))
	text := render(t, in)
	assert.Equal(t, []string{"control (old again)", "246.9ns/op", "+0.30%", "[-0.80%, +1.20%]", "noise floor, same"},
		fields(lineWith(t, text, "control (old again)")))
	assert.Equal(t, []string{"new", "233.9ns/op", "-5.10%", "[-6.00%, -4.20%]", "faster"}, fields(lineWith(t, text, " new ")))
	assert.Contains(t, text, "gate 5%: FAILED")
	assert.Contains(t, lineWith(t, text, "✗"), "fix the regression or raise the gate")

	in.Benches[5].Comparisons[0].GateFailed = false
	assert.False(t, Analyze(in).Failed())
	assert.Contains(t, render(t, in), "gate 5%: passed")

	// A comparison alone: no table rows, and a reason that already says
	// "noise floor" is not prefixed with it again.
	only := Input{Benches: in.Benches[5:]}
	only.Benches[0].Comparisons[0].Control.Reason = "noise floor: a copy of old lies within [-0.80%, +1.20%]"
	text = render(t, only)
	assert.Contains(t, text, "none tracked (the comparisons are below): call benchkit.Track(b)")
	assert.Contains(t, strings.SplitN(text, "\n", 2)[0], "hygiene report · 0 benchmarks · 0 runs · 1 comparison")
	assert.Equal(t, "same: noise floor: a copy of old lies within [-0.80%, +1.20%]", fields(lineWith(t, text, "control (old again)"))[4])
}

func TestStrictFailsOnFlags(t *testing.T) {
	in := fixture()
	in.Benches[5].Comparisons[0].GateFailed = false
	in.Settings.Strict = true
	a := Analyze(in)
	require.Len(t, a.Failures, 1)
	assert.Contains(t, a.Failures[0], "Sum/eliminated-2 raised eliminated")
	assert.Contains(t, a.Failures[0], "drop -benchkit.strict")
}

func TestGradeCV(t *testing.T) {
	for cv, g := range map[float64]Grade{
		0: GradeExcellent, 1.99: GradeExcellent, 2: GradeAcceptable, 4.99: GradeAcceptable, 5: GradeNoisy,
		9.99: GradeNoisy, 10: GradeDoNotTrust, 250: GradeDoNotTrust, -1: GradeUnknown, math.NaN(): GradeUnknown,
		math.Inf(1): GradeUnknown,
	} {
		assert.Equal(t, g, GradeCV(cv), "cv %v", cv)
	}
}

func TestStrip(t *testing.T) {
	s := Strip([]float64{1, 2, 3, 4, 5, 6, 7, 8}, 64)
	assert.Equal(t, StripPlot{Plot: "▁▂▃▄▅▆▇█", Lo: 1, Hi: 8, Min: 1, Max: 8, PerColumn: 1}, s)
	assert.Equal(t, "1.000ns … 8.000ns", s.Label("runs"))
	assert.Equal(t, "▁▁▁", Strip([]float64{5, 5, 5}, 64).Plot, "flat")
	assert.Equal(t, "▁█", Strip([]float64{1, math.NaN(), 8, math.Inf(1)}, 64).Plot, "non-finite values are skipped")
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(i / 500)
	}
	s = Strip(xs, 10)
	assert.Equal(t, "▁▁▁▁▁█████", s.Plot, "buckets of 100, two regimes unclipped")
	assert.Equal(t, 100, s.PerColumn)
	assert.Empty(t, Strip(nil, 10).Plot)

	// One spike: Q1 11, Q3 12.25 (type 7), so the scale stops at
	// Q3 + 3·IQR = 12.25 + 3·1.25 = 16.
	spike := []float64{10, 11, 12, 13, 11, 12, 1000, 12, 11, 10, 13, 12}
	s = Strip(spike, 64)
	assert.True(t, s.Clipped)
	assert.InDelta(t, 16, s.Hi, 1e-9)
	assert.Equal(t, 1000.0, s.Max)
	assert.Equal(t, "10.00ns … 1.000µs (█ at 16.00ns and above)", s.Label("runs"))
	assert.Equal(t, "▁▂▃▅▂▃█▃▂▁▅▃", s.Plot)
	assert.False(t, Strip(spike[:7], 64).Clipped, "too few points to clip")
}

func TestProcsSplitAndOddInput(t *testing.T) {
	rs := append(runs(1, -1, 10, 11, 12), runs(4, -1, 5, 6, 7)...)
	rs[1].NsPerOp = math.NaN()
	in := Input{Benches: []registry.Bench{
		{Name: "BenchmarkX", Runs: rs, TotalRuns: 6, Timeline: []float64{1, 2, math.Inf(1)}},
		{Name: "BenchmarkOne", Runs: runs(2, -1, 3), TotalRuns: 1},
		{Name: "BenchmarkKeyed-2", Runs: runs(2, -1, 3), TotalRuns: 1},
	}}
	a := Analyze(in)
	require.Len(t, a.Rows, 4)
	assert.Equal(t, "Keyed-2", a.Rows[3].Display, "a key that carries the suffix keeps one")
	x1, x4 := rowByName(t, a, "X"), rowByName(t, a, "X-4")
	assert.Equal(t, []float64{10, 12}, x1.Samples, "NaN is dropped")
	assert.Equal(t, -1.0, x1.WaitPct)
	assert.Nil(t, x1.Timeline, "the timeline belongs to the last run's procs")
	assert.Equal(t, []float64{1, 2, math.Inf(1)}, x4.Timeline)
	one := rowByName(t, a, "One-2")
	assert.Equal(t, SourceNone, one.Source)
	assert.Equal(t, GradeUnknown, one.Grade)
	assert.Zero(t, one.RunsNeeded)
	text := render(t, in)
	assert.Equal(t, []string{"One-2", "1 run", "3.000ns", "?", "?", "unknown", "?", "?", "-"}, fields(lineWith(t, text, "One-2", "unknown")))
	assert.Contains(t, text, "  One-2, Keyed-2: one run and fewer than 2 timed batches, so no spread is known; run with -count=10")
	assert.Equal(t, "a, b, c and 2 more", listNames([]string{"a", "b", "c", "d", "e"}, 3))
	assert.Contains(t, lineWith(t, text, "off: the first benchmark"), "-benchkit.warmup")

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in), "NaN and Inf never reach the encoder")
}

func TestEmptyInput(t *testing.T) {
	text := render(t, Input{})
	assert.Contains(t, text, "hygiene report · 0 benchmarks · 0 runs")
	assert.Contains(t, text, "none recorded: call benchkit.Track(b) or benchkit.Loop(b, f)")
	assert.Contains(t, text, "unknown: no environment probe ran")
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, Input{}))
	var m map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &m))
	assert.Equal(t, []any{}, m["benchmarks"])
	assert.Nil(t, m["warmup"])
}

func TestJSON(t *testing.T) {
	in := fixture()
	in.Benches[0].Runs[0].WaitFraction = -1
	in.Benches[0].Runs[0].AllocsPerOp = math.NaN()
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Schema   string `json:"schema"`
		Package  string `json:"package"`
		Settings struct {
			DeltaPct float64 `json:"delta_pct"`
		}
		Warmup     *struct{ Batches int }
		Benchmarks []struct {
			Display      string
			SampleSource string   `json:"sample_source"`
			CVPct        *float64 `json:"cv_pct"`
			Grade        string
			RunsNeeded   *int `json:"runs_needed"`
			Regimes      *struct {
				Low struct {
					Size     int
					Segments [][2]int
				}
			}
			Runs []struct {
				NsPerOp      *float64 `json:"ns_per_op"`
				AllocsPerOp  *float64 `json:"allocs_per_op"`
				WaitFraction *float64 `json:"wait_fraction"`
			}
			Timeline []float64 `json:"timeline_ns_per_op"`
		}
		Comparisons []struct {
			Candidates []struct{ Verdict string }
			GateFailed bool `json:"gate_failed"`
		}
		Failed bool
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	assert.Equal(t, Schema, rep.Schema)
	assert.Equal(t, "example.com/p", rep.Package)
	assert.Equal(t, settings.DefaultDeltaPct, rep.Settings.DeltaPct)
	require.NotNil(t, rep.Warmup)
	assert.Equal(t, 52, rep.Warmup.Batches)
	require.Len(t, rep.Benchmarks, 6)
	b0 := rep.Benchmarks[0]
	assert.Equal(t, "Clean-2", b0.Display)
	assert.Nil(t, b0.Runs[0].WaitFraction, "unknown (-1) is null")
	assert.Nil(t, b0.Runs[0].AllocsPerOp, "NaN is null")
	require.NotNil(t, b0.Runs[0].NsPerOp)
	assert.Equal(t, 100.1, *b0.Runs[0].NsPerOp)
	mb := rep.Benchmarks[2]
	require.NotNil(t, mb.Regimes)
	assert.Equal(t, 8, mb.Regimes.Low.Size)
	assert.Equal(t, [][2]int{{8, 16}}, mb.Regimes.Low.Segments)
	assert.Equal(t, "do-not-trust", mb.Grade)
	assert.Equal(t, "batches", rep.Benchmarks[4].SampleSource)
	assert.Len(t, rep.Benchmarks[4].Timeline, 60)
	cmp := rep.Benchmarks[5]
	assert.Nil(t, cmp.CVPct)
	assert.Nil(t, cmp.RunsNeeded)
	require.Len(t, rep.Comparisons, 1)
	assert.Equal(t, "slower", rep.Comparisons[0].Candidates[1].Verdict)
	assert.True(t, rep.Comparisons[0].GateFailed)
	assert.True(t, rep.Failed)
}

func TestSamplesRoundTrip(t *testing.T) {
	in := fixture()
	in.Benches[0].Runs[0].AllocsPerOp = 1.9999 // truncated as go test prints it
	var buf bytes.Buffer
	require.NoError(t, Samples(&buf, in))
	r := benchfmt.NewReader(&buf, "samples.txt")
	type key struct{ name, samples string }
	got := map[key][]float64{}
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		require.True(t, ok, "unexpected record %#v", r.Result())
		assert.Equal(t, "linux", res.GetConfig("goos"))
		assert.Equal(t, "amd64", res.GetConfig("goarch"))
		assert.Equal(t, "example.com/p", res.GetConfig("pkg"))
		assert.Equal(t, "Test CPU @ 2.0GHz", res.GetConfig("cpu"))
		assert.Equal(t, Schema, res.GetConfig("benchkit"))
		v, ok := res.Value("sec/op")
		require.True(t, ok)
		k := key{res.Name.String(), res.GetConfig("samples")}
		got[k] = append(got[k], v*1e9)
		if k.name == "Clean-2" {
			b, ok := res.Value("B/op")
			assert.True(t, ok)
			assert.Equal(t, 64.0, b)
			a, ok := res.Value("allocs/op")
			assert.True(t, ok)
			assert.Equal(t, 1.0, a)
			assert.Equal(t, 1000000, res.Iters)
		}
		if k.samples == "batches" {
			assert.Equal(t, 1000000/60, res.Iters)
		}
	}
	require.NoError(t, r.Err())
	assert.Len(t, got, 6)
	assert.InDeltaSlice(t, seed001, got[key{"MakeBuffer_Correct-2", "runs"}], 1e-9)
	assert.Len(t, got[key{"Loop-2", "runs"}], 1)
	assert.Len(t, got[key{"Loop-2", "batches"}], 60)
	assert.InDelta(t, 80.0, got[key{"Loop-2", "batches"}][20], 1e-9)
	assert.Len(t, got[key{"Sum/eliminated-2", "runs"}], 6)
	assert.Len(t, got[key{"Noisy-2", "runs"}], 12)
}

func TestDeltaSetting(t *testing.T) {
	in := fixture()
	in.Settings.DeltaPct = 2
	a := Analyze(in)
	noisy := rowByName(t, a, "Noisy-2")
	assert.Equal(t, int(math.Ceil(16*(noisy.CVPct/2)*(noisy.CVPct/2))), noisy.RunsNeeded)
	text := render(t, in)
	assert.Contains(t, lineWith(t, text, "benchmark", "samples", "median/op"), "runs@2%")
	assert.Contains(t, text, "· runs@2%: runs per side to resolve a 2% change, ⌈16·(cv/Δ)²⌉ (Lehr's rule), at least 6")

	in.Settings.DeltaPct = math.NaN()
	assert.Equal(t, rowByName(t, Analyze(fixture()), "Noisy-2").RunsNeeded, rowByName(t, Analyze(in), "Noisy-2").RunsNeeded,
		"a bad delta falls back to the default")
}

func TestHighStretch(t *testing.T) {
	xs := make([]float64, 200)
	for i := range xs {
		xs[i] = 50 + float64(i%5)*0.2
		if i >= 100 && i < 110 {
			xs[i] = 200 + float64(i%3)*50
		}
	}
	in := Input{Benches: []registry.Bench{{Name: "BenchmarkS-2", Runs: runs(2, -1, 60), TotalRuns: 1, Timeline: xs}}}
	r := rowByName(t, Analyze(in), "S-2")
	require.Nil(t, r.Regimes, "10 of 200 is too small a share for a regime")
	assert.Equal(t, [2]int{100, 110}, r.HighStretch)
	assert.Contains(t, r.Tags(), "outliers 10 (10 in a row)")
	text := render(t, in)
	assert.Contains(t, text, "S-2: 10 batches in a row above the upper fence (batches 101-110), median 250.0ns against 50.40ns for the rest")

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Benchmarks []struct {
			Outliers struct {
				HighStretch *[2]int `json:"high_stretch"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	require.NotNil(t, rep.Benchmarks[0].Outliers.HighStretch)
	assert.Equal(t, [2]int{100, 110}, *rep.Benchmarks[0].Outliers.HighStretch)

	assert.Equal(t, [2]int{}, highStretch([]float64{1, 9, 9, 9, 9, 1}, 5), "4 in a row is below MinStretch")
	assert.Equal(t, [2]int{3, 8}, highStretch([]float64{9, 1, 1, 9, 9, 9, 9, 9}, 5), "a stretch at the end counts")
	long := make([]float64, 200)
	copy(long[10:], []float64{9, 9, 9, 9, 9, 9})
	assert.Equal(t, [2]int{}, highStretch(long, 5), "6 of 200 is below 5%")
}

func TestComparisonForks(t *testing.T) {
	forked := registry.Comparison{Result: verdict.Result{Baseline: "old", BaselineNsPerOp: 100, Rounds: 5000, Confidence: 0.975, Forks: 5, Control: verdict.Estimate{Name: "control", NsPerOp: 100, Verdict: verdict.Same, Reason: "noise floor: x",
		ForkDeltaPct: []float64{0, 0.01, -0.02, 0, 0}}, Candidates: []verdict.Estimate{{Name: "new", NsPerOp: 105, DeltaPct: 4.9, LoPct: 3.6, HiPct: 6.2,
		Verdict: verdict.Slower, Reason: "r", ForkDeltaPct: []float64{5.77, 4.43, 4.51, 4.29, 4.53}}}}}
	inProcess := registry.Comparison{Result: verdict.Result{Baseline: "old", BaselineNsPerOp: 100, Rounds: 900, Confidence: 0.975, Forks: 1, Control: verdict.Estimate{Name: "control"}, Candidates: []verdict.Estimate{{Name: "new"}}}}
	in := Input{Benches: []registry.Bench{{Name: "BenchmarkF", Comparisons: []registry.Comparison{forked}},
		{Name: "BenchmarkP", Comparisons: []registry.Comparison{inProcess}}}}
	text := render(t, in)
	lineWith(t, text, "F: baseline old", ", 5 forks (t-interval over them)")
	lineWith(t, text, "new", "forks +4.29%…+5.77%", "slower: r")
	lineWith(t, text, "control (old again)", "forks -0.02%…+0.01%")
	lineWith(t, text, "P: baseline old", ", within one process")

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Comparisons []struct {
			Forks      int
			Candidates []struct {
				ForkDeltaPct []float64 `json:"fork_delta_pct"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	require.Len(t, rep.Comparisons, 2)
	assert.Equal(t, 5, rep.Comparisons[0].Forks)
	assert.Equal(t, []float64{5.77, 4.43, 4.51, 4.29, 4.53}, rep.Comparisons[0].Candidates[0].ForkDeltaPct)
	assert.Equal(t, 1, rep.Comparisons[1].Forks)
	assert.NotNil(t, rep.Comparisons[1].Candidates[0].ForkDeltaPct, "[] within one process, never null")
	assert.Empty(t, rep.Comparisons[1].Candidates[0].ForkDeltaPct)
}

// TestComparisonNoRounds: a comparison that measured no rounds (an
// implementation slower than the budget) shows "?" and "no rounds", not
// "+0.00% [+0.00%, +0.00%]".
func TestComparisonNoRounds(t *testing.T) {
	stopped := "measuring stopped: one call of \"glacial\" took 300ms, more than the whole budget of 200ms"
	c := registry.Comparison{Result: verdict.Result{Baseline: "old", Rounds: 0, Confidence: 0.975, Forks: 1, Control: verdict.Estimate{Name: "control", Verdict: verdict.Undecided, Reason: stopped}, Candidates: []verdict.Estimate{{Name: "big", Verdict: verdict.Undecided, Reason: stopped}}}}
	text := render(t, Input{Benches: []registry.Bench{{Name: "BenchmarkS", Comparisons: []registry.Comparison{c}}}})
	lineWith(t, text, "S: baseline old", "0 rounds")
	row := lineWith(t, text, " big ", "no rounds", "undecided: measuring stopped")
	assert.NotContains(t, row, "0.00%")
	assert.NotContains(t, row, "0 ns/op")
	ctl := lineWith(t, text, "control (old again)", "no rounds")
	assert.NotContains(t, ctl, "0.00%")
}

// TestDroppedComparisons: comparisons the registry could not hold are
// counted in the numbering, named in the text report and listed in the
// JSON; a benchmark that dropped none says nothing.
func TestDroppedComparisons(t *testing.T) {
	c := registry.Comparison{Result: verdict.Result{Baseline: "old", BaselineNsPerOp: 100, Rounds: 900, Confidence: 0.975, Forks: 1, Control: verdict.Estimate{Name: "control"}, Candidates: []verdict.Estimate{{Name: "new"}}}}
	in := Input{Benches: []registry.Bench{
		{Name: "BenchmarkD-2", Comparisons: []registry.Comparison{c, c, c}, DroppedComparisons: 2},
		{Name: "BenchmarkK-2", Comparisons: []registry.Comparison{c}},
	}}
	text := render(t, in)
	lineWith(t, text, "D-2 (3 of 5): baseline old")
	lineWith(t, text, "2 more comparisons of D-2 were not recorded", "at most 256 per benchmark")
	assert.Equal(t, 1, strings.Count(text, "were not recorded"), text)

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Dropped []struct {
			Benchmark string
			Count     int
		} `json:"dropped_comparisons"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	require.Len(t, rep.Dropped, 1)
	assert.Equal(t, "BenchmarkD-2", rep.Dropped[0].Benchmark)
	assert.Equal(t, 2, rep.Dropped[0].Count)

	buf.Reset()
	require.NoError(t, JSON(&buf, Input{}))
	assert.Contains(t, buf.String(), `"dropped_comparisons": []`, "never null")
}

// TestFailedFlagFailsTheRun: a flag that failed its benchmark is a failure
// of the run without strict mode, and the JSON marks it; a flag that only
// warned is not.
func TestFailedFlagFailsTheRun(t *testing.T) {
	in := Input{Benches: []registry.Bench{
		{Name: "BenchmarkS-2", Flags: []registry.Flag{{Kind: registry.FlagTimerStopped, Message: "benchkit: stopped", Count: 2, Failed: true}}},
		{Name: "BenchmarkW-2", Flags: []registry.Flag{{Kind: registry.FlagEliminated, Message: "benchkit: gone", Count: 1}}},
	}}
	a := Analyze(in)
	require.Len(t, a.Failures, 1)
	assert.Contains(t, a.Failures[0], "benchkit: S-2: timer-stopped failed the benchmark")
	lineWith(t, render(t, in), "✗ benchkit: S-2: timer-stopped failed the benchmark")

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Failed     bool
		Benchmarks []struct {
			Flags []struct{ Failed bool }
		}
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	assert.True(t, rep.Failed)
	require.Len(t, rep.Benchmarks, 2)
	assert.True(t, rep.Benchmarks[0].Flags[0].Failed)
	assert.False(t, rep.Benchmarks[1].Flags[0].Failed)
	assert.Contains(t, buf.String(), `"failed": false`)
}

// TestStaleProcsRun: a run testing measured at another GOMAXPROCS than
// the -cpu value it printed (golang/go#49980) is named in the findings
// and the JSON.
func TestStaleProcsRun(t *testing.T) {
	in := Input{Benches: []registry.Bench{{Name: "BenchmarkL-2", TotalRuns: 2, Runs: []registry.Run{
		{Seq: 1, Procs: 2, N: 10, NsPerOp: 5, StaleProcs: 1, AllocsPerOp: -1, BytesPerOp: -1, TimedFraction: -1, WaitFraction: -1, WithinCV: -1},
		{Seq: 2, Procs: 2, N: 10, NsPerOp: 6, AllocsPerOp: -1, BytesPerOp: -1, TimedFraction: -1, WaitFraction: -1, WithinCV: -1},
	}}}}
	lineWith(t, render(t, in), "L-2: run 1 measured by testing at GOMAXPROCS=1")
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	assert.Contains(t, buf.String(), `"stale_procs": 1`)
	assert.Contains(t, buf.String(), `"stale_procs": 0`)
}

// TestAllowedAndDetailedFlags: an allowed flag is shown with its reason
// and fails nothing, even in strict mode; a flag's detail, not its
// headline, is the findings line; certainty reaches the JSON.
func TestAllowedAndDetailedFlags(t *testing.T) {
	in := Input{Settings: Settings{Strict: true}, Benches: []registry.Bench{
		{Name: "BenchmarkTiny-2", Flags: []registry.Flag{{Kind: registry.FlagEliminated, Message: "benchkit: BenchmarkTiny: short",
			Detail: "benchkit: BenchmarkTiny: the long story", Allowed: "a 1 ns body checked in the assembly", Count: 3}}},
		{Name: "BenchmarkDCE-2", Flags: []registry.Flag{{Kind: registry.FlagAllocs, Message: "benchkit: BenchmarkDCE: short", Count: 1}}},
	}}
	a := Analyze(in)
	require.Len(t, a.Failures, 1, "strict fails on the flag not allowed only: %v", a.Failures)
	assert.Contains(t, a.Failures[0], "DCE-2 raised allocs")
	text := render(t, in)
	lineWith(t, text, "Tiny-2: eliminated (from timing) (allowed: a 1 ns body checked in the assembly): the long story (raised by 3 runs)")
	lineWith(t, text, "DCE-2: allocs: short")
	assert.Equal(t, "eliminated (allowed)", rowByName(t, a, "Tiny-2").Tags()[0])
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	assert.Contains(t, buf.String(), `"allowed": "a 1 ns body checked in the assembly"`)
	assert.Contains(t, buf.String(), `"certain": true`)
	assert.Contains(t, buf.String(), `"detail": "benchkit: BenchmarkTiny: the long story"`)
}

// TestOnceRowsFold: a -count=1 suite of many benchmarks gives one line for
// the rows with nothing known beyond one ns/op, not a row each;
// rows with a flag stay, and few such rows are listed one by one.
func TestOnceRowsFold(t *testing.T) {
	run := func(ns float64) registry.Run {
		return registry.Run{Procs: 2, N: 100, NsPerOp: ns, AllocsPerOp: -1, BytesPerOp: -1, TimedFraction: -1, WaitFraction: 0.01, WithinCV: -1}
	}
	var in Input
	for i := range 300 {
		in.Benches = append(in.Benches, registry.Bench{Name: fmt.Sprintf("BenchmarkB%03d-2", i), TotalRuns: 1, Runs: []registry.Run{run(float64(10 + i))}})
	}
	in.Benches = append(in.Benches, registry.Bench{Name: "BenchmarkFlagged-2", TotalRuns: 1, Runs: []registry.Run{run(0.3)},
		Flags: []registry.Flag{{Kind: registry.FlagEliminated, Message: "benchkit: gone", Count: 1}}})
	text := renderFlat(t, in)
	assert.Less(t, strings.Count(text, "\n"), 60, "hundreds of once-run rows are folded:\n%s", text)
	folded := lineWith(t, text, "+ 300 benchmarks with one run each, folded: ns/op 10.00ns … 309.0ns, median wait 1.0%, no spread from one run")
	assert.Contains(t, folded, "their go test lines and the JSON report have the numbers")
	lineWith(t, text, "Flagged-2  ", "1 run", "eliminated")
	assert.NotContains(t, text, "B150-2  ", "a folded row is not in the table")
	lineWith(t, text, "B000-2, B001-2, B002-2, B003-2 and 297 more: one run")

	in.Benches = in.Benches[:MaxOnceRows]
	text = renderFlat(t, in)
	assert.NotContains(t, text, "folded")
	lineWith(t, text, "B007-2", "1 run")
}

// TestStripBucketsKeepTheDataRange: with more samples than columns each
// character is a bucket's mean, and the label still gives the data's true
// minimum and maximum (a 41.7 µs run among 8 µs buckets), says that the
// plot shows means and how many per column.
func TestStripBucketsKeepTheDataRange(t *testing.T) {
	xs := make([]float64, 1100)
	for i := range xs {
		xs[i] = 8000 + float64(i%7)
	}
	xs[500] = 41700
	s := Strip(xs, PlotWidth)
	assert.Equal(t, 18, s.PerColumn, "⌈1100/64⌉")
	assert.Equal(t, 41700.0, s.Max)
	assert.Less(t, s.Hi, 11000.0, "the plotted means stop far below the spike")
	assert.Equal(t, "8.000µs … 41.70µs (means of 18 runs per column; █ at "+fmtNs(s.Hi)+" and above)", s.Label("runs"))

	in := Input{Benches: []registry.Bench{{Name: "BenchmarkMany-2", Runs: runs(2, -1, xs...), TotalRuns: len(xs)}}}
	row := fields(lineWith(t, render(t, in), "Many-2", "runs", "▁"))
	assert.Equal(t, "8.000µs … 41.70µs (means of 18 runs per column; █ at "+fmtNs(s.Hi)+" and above)", row[3])
}
