package benchkit_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/internal/testbin"
)

// TestAgainstE2E builds testdata/against twice, as the base and (with
// -tags against_new) as the new version, and runs the subtests with both.
func TestAgainstE2E(t *testing.T) {
	base := testbin.BuildAs(t, "./testdata/against", "base")
	cand := testbin.BuildAs(t, "./testdata/against", "new", "-tags=against_new")
	t.Run("Compare", func(t *testing.T) { againstCompare(t, base, cand) })
	t.Run("PanicInNew", func(t *testing.T) { againstPanicInNew(t, base, cand) })
	t.Run("BadInput", func(t *testing.T) { againstBadInput(t, base, cand) })
	t.Run("HangAndFakeInBase", func(t *testing.T) { againstHangAndFake(t, base, cand) })
	t.Run("LockstepMidway", func(t *testing.T) { againstMidway(t, base, cand) })
	t.Run("Instructions", func(t *testing.T) { againstInstructions(t, base, cand) })
	t.Run("LockstepSubAndCPU", func(t *testing.T) { againstSubAndCPU(t, base, cand) })
	t.Run("NothingCompared", func(t *testing.T) { againstNothingCompared(t, base, cand) })
	t.Run("Unstartable", func(t *testing.T) { againstUnstartable(t, base, cand) })
	t.Run("Phantom", func(t *testing.T) { againstPhantom(t, base, cand) })
	t.Run("ReplacedBase", func(t *testing.T) { againstReplacedBase(t, base, cand) })
	t.Run("Interrupted", func(t *testing.T) { againstInterrupted(t, base, cand) })
	t.Run("Spinning", func(t *testing.T) { againstSpinning(t, base, cand) })
}

// againstSubAndCPU: sub-benchmarks and -cpu=1,2 in lockstep: every leaf
// at every -cpu value is its own row, measured in lockstep, and the
// processes run at that GOMAXPROCS (the name carries it).
func againstSubAndCPU(t *testing.T, base, cand string) {
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	run := testbin.Run(t, cand, "", 5*time.Minute, nil,
		"-test.run=^$", "-test.bench=^BenchmarkSizes$", "-test.benchtime=20ms", "-test.cpu=1,2",
		"-benchkit.against="+base, "-benchkit.rounds=2", "-benchkit.json="+jsonPath)
	require.Equal(t, 0, run.Code, run.Combined())
	rep := readAgainstJSON(t, jsonPath)
	require.NotNil(t, rep.Against)
	var rows []string
	for _, bm := range rep.Against.Benchmarks {
		rows = append(rows, bm.Name+" "+bm.Mode)
	}
	assert.Equal(t, []string{"Sizes/n=512 lockstep", "Sizes/n=512-2 lockstep", "Sizes/n=64 lockstep", "Sizes/n=64-2 lockstep"}, rows)
	assert.Empty(t, rep.Against.Failures)
}

// againstHangAndFake: a base benchmark that hangs in its first call is
// isolated to itself (killed at its deadline, left out, the others
// compared), and a line a base benchmark prints that looks like a result
// is rejected, never taken.
func againstHangAndFake(t *testing.T, base, cand string) {
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	run := testbin.Run(t, cand, "", 5*time.Minute, []string{"BENCHKIT_TESTDATA_HANG=1", "BENCHKIT_TESTDATA_FAKE=1"},
		"-test.run=^$", "-test.bench=^Benchmark(Same|Hangs|Prints)$", "-test.benchtime=20ms", "-test.timeout=15s",
		"-benchkit.against="+base, "-benchkit.rounds=3", "-benchkit.json="+jsonPath)
	out := run.Combined()
	require.Equal(t, 0, run.Code, "a base that fails is reported, not failed on:\n%s", out)
	assert.NotContains(t, out, "a process failed without naming a benchmark")
	rep := readAgainstJSON(t, jsonPath)
	require.NotNil(t, rep.Against)
	var compared []string
	for _, bench := range rep.Against.Benchmarks {
		compared = append(compared, strings.TrimSuffix(bench.Name, "-2"))
	}
	assert.Equal(t, []string{"Same"}, compared, "only the benchmark that worked in both is compared")
	assert.Equal(t, 3, rep.Against.Rounds, "the run went on after the hang")
	var hang, fake bool
	for _, f := range rep.Against.Failures {
		assert.NotEqual(t, "new", f.Side, "only the base binary misbehaves")
		hang = hang || slices.Contains(f.Benchmarks, "BenchmarkHangs")
		fake = fake || slices.ContainsFunc(f.Benchmarks, func(n string) bool { return strings.HasPrefix(n, "BenchmarkPrints") })
	}
	assert.True(t, hang, "the hung benchmark is named: %+v", rep.Against.Failures)
	assert.True(t, fake, "the fake result is rejected: %+v", rep.Against.Failures)
	assert.Contains(t, out, "its result was not taken")
}

// againstJSON is the part of the JSON report the tests read.
// readAgainstJSON reads the JSON report at path; msgAndArgs say what
// to print if it cannot be read (the run's output).
func readAgainstJSON(t *testing.T, path string, msgAndArgs ...any) againstJSON {
	t.Helper()
	var rep againstJSON
	b, err := os.ReadFile(path)
	require.NoError(t, err, msgAndArgs...)
	require.NoError(t, json.Unmarshal(b, &rep))
	return rep
}

type againstJSON struct {
	Failures []string `json:"failures"`
	Against  *struct {
		Base struct {
			Path    string `json:"path"`
			Package string `json:"package"`
			SHA256  string `json:"sha256"`
		} `json:"base"`
		Rounds     int `json:"rounds"`
		Benchmarks []struct {
			Name string `json:"name"`
			Base struct {
				NsPerOp []float64 `json:"ns_per_op"`
			} `json:"base"`
			Estimate   againstEst `json:"estimate"`
			ControlEst againstEst `json:"control_estimate"`
			Allocs     struct {
				Base    float64 `json:"base"`
				New     float64 `json:"new"`
				Changed bool    `json:"changed"`
			} `json:"allocs_per_op"`
			GateFailed bool   `json:"gate_failed"`
			Mode       string `json:"mode"`
			ModeNote   string `json:"mode_note"`
			Groups     []int  `json:"groups"`
			GC         *struct {
				CyclesPerOpBase float64 `json:"cycles_per_op_base"`
				CyclesPerOpNew  float64 `json:"cycles_per_op_new"`
				Triples         int     `json:"triples"`
			} `json:"gc"`
		} `json:"benchmarks"`
		OnlyBase []string `json:"only_base"`
		OnlyNew  []string `json:"only_new"`
		Failures []struct {
			Side       string   `json:"side"`
			Benchmarks []string `json:"benchmarks"`
			Message    string   `json:"message"`
			Output     string   `json:"output"`
		} `json:"failures"`
	} `json:"against"`
}

type againstEst struct {
	DeltaPct float64 `json:"delta_pct"`
	Verdict  string  `json:"verdict"`
	Reason   string  `json:"reason"`
}

// againstCompare runs the new build of testdata/against against the base
// build and checks: the direction of BenchmarkWork's change (twice the
// work; its verdict is Slower, or Undecided when the machine is too
// noisy, never Faster or Same), BenchmarkAlloc's extra allocation (exact,
// and failing -benchkit.gate.allocs), both measured in lockstep (they
// call Track), BenchmarkSame in rounds (it does not) with the reason, the
// control row, the benchmarks in one binary only, the base's failing
// benchmark with its output, the files, the full text report and the
// GitHub annotations. No time is asserted.
func againstCompare(t *testing.T, base, cand string) {
	dir := t.TempDir()
	jsonPath, samplesPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "s.txt")
	run := testbin.Run(t, cand, "", 5*time.Minute, []string{"GITHUB_ACTIONS=true"},
		"-test.paniconexit0", // as go test passes it: a child's os.Exit(0) must not panic
		"-test.run=^$", "-test.bench=^Benchmark(Work|Classic|Alloc|OnlyBase|OnlyNew|Fixed|Same)$", "-test.benchtime=30ms",
		"-benchkit.against="+base, "-benchkit.rounds=8", "-benchkit.gate=5", "-benchkit.gate.allocs",
		"-benchkit.json="+jsonPath, "-benchkit.samples="+samplesPath, "-benchkit.report=full")
	assert.Equal(t, 1, run.Code, "the allocation gate fails the run:\n%s", run.Combined())

	rep := readAgainstJSON(t, jsonPath)
	a := rep.Against
	require.NotNil(t, a, "the JSON report has the comparison")
	assert.Equal(t, base, a.Base.Path)
	assert.Equal(t, "github.com/benchkit/go-benchkit/benchkit/testdata/against", a.Base.Package)
	assert.Len(t, a.Base.SHA256, 64)
	assert.Equal(t, 8, a.Rounds)

	names := map[string]int{}
	for i, bm := range a.Benchmarks {
		names[bm.Name] = i
	}
	require.Contains(t, names, e2eName("Work"))
	require.Contains(t, names, e2eName("Alloc"))
	assert.NotContains(t, names, e2eName("Fixed"), "a benchmark that failed in one binary is not compared")

	require.Contains(t, names, e2eName("Same"))
	require.Contains(t, names, e2eName("Classic"))
	for _, name := range []string{"Work", "Classic", "Alloc"} {
		bm := a.Benchmarks[names[e2eName(name)]]
		assert.Equal(t, "lockstep", bm.Mode, name)
		assert.Len(t, bm.Groups, 8, "%s: -benchkit.rounds triples", name)
		runs := 0
		for _, n := range bm.Groups {
			assert.GreaterOrEqual(t, n, 7, "%s: each triple has its least number of rounds or more", name)
			runs += n
		}
		assert.Len(t, bm.Base.NsPerOp, runs, "%s: one sample per run", name)
	}
	same := a.Benchmarks[names[e2eName("Same")]]
	assert.Equal(t, "rounds", same.Mode)
	assert.Contains(t, same.ModeNote, "calls neither benchkit.Track nor benchkit.Loop in either binary")
	assert.Len(t, same.Base.NsPerOp, 8, "one sample per round")
	assert.Empty(t, same.Groups)

	classic := a.Benchmarks[names[e2eName("Classic")]]
	assert.Greater(t, classic.Estimate.DeltaPct, 0.0, "a b.N loop in lockstep: twice the work is slower")
	work := a.Benchmarks[names[e2eName("Work")]]
	assert.Greater(t, work.Estimate.DeltaPct, 0.0, "twice the work is slower")
	assert.Contains(t, []string{"slower", "undecided"}, work.Estimate.Verdict, work.Estimate.Reason)
	if work.Estimate.Verdict == "slower" {
		assert.True(t, work.GateFailed, "a decided +%.0f%% is beyond the 5%% gate", work.Estimate.DeltaPct)
	}
	assert.Contains(t, []string{"same", "undecided"}, work.ControlEst.Verdict, "the control row is the noise floor: %s", work.ControlEst.Reason)
	assert.NotEmpty(t, work.ControlEst.Reason)

	alloc := a.Benchmarks[names[e2eName("Alloc")]]
	assert.Equal(t, 1.0, alloc.Allocs.Base)
	assert.Equal(t, 2.0, alloc.Allocs.New)
	assert.True(t, alloc.Allocs.Changed)
	assert.True(t, alloc.GateFailed, "one more allocation fails -benchkit.gate.allocs whatever the time says")
	// BenchmarkAlloc's runs hold collections: measured with the collector
	// in, its triples after the first at a random phase of the cycle; new
	// allocates half as much again, so it collects more often per op.
	require.NotNil(t, alloc.GC, "an allocating benchmark is measured with the collector in")
	assert.Equal(t, 8, alloc.GC.Triples, "the sizing triple is left out, and one more run")
	assert.Greater(t, alloc.GC.CyclesPerOpBase, 0.0)
	assert.Greater(t, alloc.GC.CyclesPerOpNew, alloc.GC.CyclesPerOpBase*1.2)
	assert.Nil(t, work.GC, "a benchmark that does not allocate is measured as before")
	assert.Contains(t, run.Stdout, e2eName("Alloc")+": collector in, at a long run's rate (8 triples at a random phase of its cycle)")

	assert.Equal(t, []string{e2eName("OnlyBase")}, a.OnlyBase)
	assert.Equal(t, []string{e2eName("OnlyNew")}, a.OnlyNew)
	require.Len(t, a.Failures, 1, "reported once (the base binary's second process fails alike), then skipped in the later rounds")
	assert.Contains(t, []string{"base", "control"}, a.Failures[0].Side)
	assert.Equal(t, []string{"BenchmarkFixed"}, a.Failures[0].Benchmarks)
	assert.Contains(t, a.Failures[0].Output, "broken in the base version")
	require.NotEmpty(t, rep.Failures)
	assert.Contains(t, strings.Join(rep.Failures, "\n"), "Alloc")

	out := run.Stdout
	assert.Contains(t, out, "benchkit │ against "+base)
	assert.Contains(t, out, "benchkit │   only in base, not compared: "+e2eName("OnlyBase"))
	assert.Contains(t, out, "1 → 2 (+1)")
	assert.Contains(t, out, "::error title=benchkit::")
	assert.Contains(t, out, "benchkit │   "+e2eName("Same")+": rounds, not lockstep: it calls neither benchkit.Track nor benchkit.Loop")
	assert.NotContains(t, out, "\nBenchmark", "no child's result line reaches this process's stdout")
	againstCheckParses(t, out)
	againstCheckSamples(t, samplesPath)
}

// againstCheckParses reads the whole stdout with benchfmt: no result and
// no configuration line besides go test's own.
func againstCheckParses(t *testing.T, out string) {
	t.Helper()
	r := benchfmt.NewReader(strings.NewReader(out), "stdout")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			t.Errorf("stdout holds a result: %s", res.Name)
			for _, c := range res.Config {
				assert.Contains(t, []string{"goos", "goarch", "pkg", "cpu"}, c.Key)
			}
		}
	}
}

// againstCheckSamples reads the samples file: every side of the compared
// benchmarks, a line per round or triple, labelled for benchstat -col side.
func againstCheckSamples(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	r := benchfmt.NewReader(bytes.NewReader(b), path)
	count := map[string]int{}
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		assert.Equal(t, "against", res.GetConfig("samples"))
		count[res.GetConfig("side")+" "+res.Name.String()]++
	}
	for _, side := range []string{"base", "new", "control"} {
		for _, name := range []string{"Work", "Alloc", "Same"} {
			assert.Equal(t, 8, count[side+" "+e2eName(name)], "%s %s: one line per round or triple", side, name)
		}
	}
}

// againstPanicInNew: a benchmark that panics in this binary fails the
// run with its output; the benchmarks before it are still compared.
func againstPanicInNew(t *testing.T, base, cand string) {
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	run := testbin.Run(t, cand, "", 5*time.Minute, []string{"BENCHKIT_TESTDATA_PANIC=1"},
		"-test.run=^$", "-test.bench=Work|Panics", "-test.benchtime=1x",
		"-benchkit.against="+base, "-benchkit.rounds=2", "-benchkit.json="+jsonPath)
	assert.Equal(t, 1, run.Code, run.Combined())
	rep := readAgainstJSON(t, jsonPath)
	require.NotNil(t, rep.Against)
	require.Len(t, rep.Against.Failures, 1, "Panics is skipped after the first failure")
	f := rep.Against.Failures[0]
	assert.Equal(t, "new", f.Side)
	require.Len(t, f.Benchmarks, 1, "the failed process printed:\n%s", f.Output)
	assert.True(t, strings.HasPrefix(f.Benchmarks[0], "BenchmarkPanics"), "named from its cut-short line or from the stack: %v", f.Benchmarks)
	assert.Contains(t, f.Output, "a deliberate panic in the new version")
	assert.Contains(t, strings.Join(rep.Failures, "\n"), "this binary's process failed")
	var compared []string
	for _, bm := range rep.Against.Benchmarks {
		compared = append(compared, bm.Name)
	}
	assert.True(t, slices.Contains(compared, e2eName("Work")), "Work ran before the panic: %v", compared)
	assert.Contains(t, run.Stdout, "a deliberate panic in the new version", "the report shows the output")
}

// againstBadInput: each bad input stops the run before anything is
// measured, with exit code 2 and a message that names the fix.
func againstBadInput(t *testing.T, base, cand string) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text.test")
	require.NoError(t, os.WriteFile(text, []byte("#!/bin/sh\necho not go\n"), 0o755))
	noexec := filepath.Join(dir, "noexec.test")
	b, err := os.ReadFile(base)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(noexec, b, 0o644))
	other := e2eBuild(t, "maincompare")
	flagged := testbin.BuildAs(t, "./testdata/against", "flagged", "-gcflags=-B") // no bounds checks: a build setting that changes speed
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"missing", []string{"-benchkit.against=" + filepath.Join(dir, "nope.test")}, []string{"no such file", "go test -c -o base.test"}},
		{"not executable", []string{"-benchkit.against=" + noexec}, []string{"is not executable", "chmod +x"}},
		{"not go", []string{"-benchkit.against=" + text}, []string{"is not a Go binary", "go test -c"}},
		{"other package", []string{"-benchkit.against=" + other}, []string{"test binary of package github.com/benchkit/go-benchkit/benchkit/testdata/maincompare", "build the base from the same package"}},
		{"count", []string{"-benchkit.against=" + base, "-test.count=5"}, []string{"-count=5 cannot apply", "drop -count", "-benchkit.rounds"}},
		{"no bench", []string{"-benchkit.against=" + base, "-test.bench="}, []string{"add -bench=PATTERN"}},
		{"rounds", []string{"-benchkit.against=" + base, "-benchkit.rounds=0"}, []string{"not a number of rounds"}},
		{"settings with a gate", []string{"-benchkit.against=" + flagged, "-benchkit.gate=5"},
			[]string{"built with different settings (-gcflags: -B → unset)", "a gate would judge the build settings, not the code"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-test.run=^$", "-test.bench=Work"}, tc.args...)
			run := testbin.Run(t, cand, "", time.Minute, nil, args...)
			assert.Equal(t, 2, run.Code, run.Combined())
			for _, w := range tc.want {
				assert.Contains(t, run.Stderr, w)
			}
			assert.NotContains(t, run.Stdout, "benchkit │", "nothing ran")
		})
	}
}

// againstMidway: a lockstep process of the base that dies, hangs or
// writes garbage on the protocol's descriptor in the middle of a triple
// is a failure of that benchmark, with its output, and the comparison
// goes on without it (a base failure is not the run's); the result line
// it printed never reaches stdout. The same death in this binary's
// process fails the run.
func againstMidway(t *testing.T, base, cand string) {
	for _, tc := range []struct{ mode, newSide, want, output string }{
		{"die", "", "exited with status 3", "BenchmarkMidway dies midway"},
		{"hang", "", "did not report its step within its deadline of", ""},
		{"garbage", "", `not a lockstep report: "garbage"`, ""},
		{"closefd", "", "closed the report pipe (descriptor 3) and did not end within its step's deadline", "descriptor 3 closed"},
		{"forge", "", "does not answer the step the parent started", ""},
		{"die", "1", "exited with status 3", "BenchmarkMidway dies midway"},
	} {
		t.Run(tc.mode+map[string]string{"": "", "1": "InNew"}[tc.newSide], func(t *testing.T) {
			jsonPath := filepath.Join(t.TempDir(), "r.json")
			run := testbin.Run(t, cand, "", 5*time.Minute, []string{"BENCHKIT_TESTDATA_MIDWAY=" + tc.mode, "BENCHKIT_TESTDATA_MIDWAY_NEW=" + tc.newSide},
				"-test.run=^$", "-test.bench=^Benchmark(Work|Midway)$", "-test.benchtime=20ms",
				"-benchkit.against="+base, "-benchkit.rounds=2", "-benchkit.json="+jsonPath)
			out := run.Combined()
			rep := readAgainstJSON(t, jsonPath, out)
			require.NotNil(t, rep.Against)
			var compared []string
			for _, bm := range rep.Against.Benchmarks {
				compared = append(compared, strings.TrimSuffix(bm.Name, "-2")+" "+bm.Mode)
			}
			assert.Equal(t, []string{"Work lockstep"}, compared, "Midway is left out, Work still compared:\n%s", out)
			require.Len(t, rep.Against.Failures, 1, out)
			f := rep.Against.Failures[0]
			assert.Equal(t, []string{"BenchmarkMidway"}, f.Benchmarks)
			assert.Contains(t, f.Message, "lockstep: ")
			assert.Contains(t, f.Message, tc.want)
			assert.Contains(t, f.Output, tc.output)
			againstCheckParses(t, run.Stdout) // a child's result line never reaches go test's stdout
			if tc.newSide == "" {
				assert.Contains(t, []string{"base", "control"}, f.Side)
				assert.Equal(t, 0, run.Code, "a base that fails is reported, not failed on:\n%s", out)
			} else {
				assert.Equal(t, "new", f.Side)
				assert.Equal(t, 1, run.Code, out)
				assert.Contains(t, strings.Join(rep.Failures, "\n"), "this binary's process failed")
			}
		})
	}
}

// againstInstructions: with -benchkit.count=instructions both binaries'
// BenchmarkWork are counted under valgrind (skipped without it): twice
// the work reads as about twice the instructions, in the row and the
// JSON report, and fails -benchkit.gate.instructions.
func againstInstructions(t *testing.T, base, cand string) {
	testbin.Valgrind(t)
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	run := testbin.Run(t, cand, "", 10*time.Minute, nil,
		"-test.run=^$", "-test.bench=^BenchmarkWork$", "-test.benchtime=20ms",
		"-benchkit.against="+base, "-benchkit.rounds=2", "-benchkit.count=instructions", "-benchkit.gate.instructions=10",
		"-benchkit.json="+jsonPath)
	assert.Equal(t, 1, run.Code, "the instruction gate fails the run:\n%s", run.Combined())
	b, err := os.ReadFile(jsonPath)
	require.NoError(t, err)
	var rep struct {
		Failures []string `json:"failures"`
		Against  struct {
			Benchmarks []struct {
				Instr *struct {
					DeltaPct *float64 `json:"delta_pct"`
					Changed  bool     `json:"changed"`
				} `json:"instructions_per_op"`
			} `json:"benchmarks"`
		} `json:"against"`
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	require.Len(t, rep.Against.Benchmarks, 1)
	in := rep.Against.Benchmarks[0].Instr
	require.NotNil(t, in, run.Combined())
	require.NotNil(t, in.DeltaPct, "both binaries counted:\n%s", run.Combined())
	assert.InDelta(t, 100, *in.DeltaPct, 15, "twice the work")
	assert.True(t, in.Changed)
	assert.Contains(t, strings.Join(rep.Failures, "\n"), "beyond the 10% instruction gate")
	assert.Contains(t, run.Stdout, "instr/op")
	againstCheckParses(t, run.Stdout)
}
