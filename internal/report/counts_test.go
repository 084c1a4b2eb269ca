package report

import (
	"bytes"
	"encoding/json"
	"github.com/benchkit/go-benchkit/internal/count"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"
)

// countedFixture is the fixture with instructions counted for Clean (a
// benchmark that started processes), Noisy failed under valgrind with
// its output, and the eliminated benchmark counted short of the budget.
func countedFixture() Input {
	in := fixture()
	in.Counts = map[string]count.Result{}
	in.Counts[in.Benches[0].Name] = count.Result{PerOp: 16021.6, N1: 2, N2: 62502, Total1: 14_000_000, Total2: 14_000_000 + 1_001_350_000,
		ResolutionPct: 0.04, Runs: make([]count.Run, 4), Wall: 3500 * time.Millisecond, Valgrind: "valgrind-3.19.0",
		PerOps: []float64{16021.5, 16021.7}, HalfWidthPct: 0.0079,
		Children: "the benchmark starts processes as it runs (1751 minor page faults and 49ms of CPU at N = 2, 135000 and 4s at N = 62502): " +
			"their instructions are not in the count"}
	in.Counts[in.Benches[1].Name] = count.Result{PerOp: -1, Reason: "failed", Error: "count: BenchmarkNoisy: the process at -test.benchtime=2x failed under valgrind (exit status 2)",
		Output: "panic: boom\n\ngoroutine 1 [running]:\n"}
	in.Counts[in.Benches[3].Name] = count.Result{PerOp: 3.2, N1: 2, N2: 1_000_000_002, Total1: 14_000_000, Total2: 3_214_000_000,
		ResolutionPct: 0.0125, Capped: "N2 − N1 reached its limit of 1000000000 ops", PerOps: []float64{3.2}, HalfWidthPct: -1}
	return in
}

func TestCountsText(t *testing.T) {
	in := countedFixture()
	text := renderFlat(t, in)
	head := fields(lineWith(t, text, "benchmark", "samples", "median/op"))
	require.Contains(t, head, "instr/op")
	col := len(head) - 2 // before flags
	assert.Equal(t, "instr/op", head[col])
	assert.Equal(t, "16022", fields(lineWith(t, text, "Clean-2", "runs", "excellent"))[col])
	assert.Equal(t, "n/a", fields(lineWith(t, text, "Noisy-2", "12 runs", "noisy"))[col])
	assert.Equal(t, "3.2", fields(lineWith(t, text, "Sum/eliminated-2", "6 runs", "acceptable"))[col])
	assert.Equal(t, "-", fields(lineWith(t, text, "MakeBuffer_Correct-2", "20 runs", "do-not-trust"))[col], "not counted at all")
	lineWith(t, text, "· instr/op:", "GOMAXPROCS=1", "docs/counts.md")

	f := lineWith(t, text, "Noisy-2: instructions not counted (failed)")
	assert.Contains(t, f, "exit status 2")
	assert.NotContains(t, f, "count: ", "the package's prefix is dropped")
	assert.Contains(t, text, Prefix+"      panic: boom\n", "the failed process's output is quoted")
	lineWith(t, text, "Sum/eliminated-2: instructions counted over N2 − N1 = 1000000000 ops, short of the budget", "0.0125%")
	lineWith(t, text, "Clean-2: instructions counted in the benchmark's process only: the benchmark starts processes as it runs")
	assert.NotContains(t, text, "Noisy-2: instructions counted in", "said of counted benchmarks only")

	// Without counts, no column and no legend line.
	plain := renderFlat(t, fixture())
	assert.NotContains(t, plain, "instr/op")
	assert.NotContains(t, plain, "instructions")
}

func TestCountsOneFindingPerReason(t *testing.T) {
	in := fixture()
	missing := count.Result{PerOp: -1, Reason: "valgrind-missing", Error: "count: instructions are counted under valgrind, and there is no valgrind on PATH: install it"}
	in.Counts = map[string]count.Result{}
	for i := range 4 {
		in.Counts[in.Benches[i].Name] = missing
	}
	text := renderFlat(t, in)
	f := lineWith(t, text, "instructions not counted (valgrind-missing)")
	assert.True(t, strings.HasPrefix(strings.TrimPrefix(f, Prefix), "  Clean-2, Noisy-2, MakeBuffer_Correct-2, Sum/eliminated-2: "), f)
	assert.Contains(t, f, "install it")
}

func TestCountsJSON(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, countedFixture()))
	var rep struct {
		Benchmarks []struct {
			Display           string
			InstructionsPerOp *float64 `json:"instructions_per_op"`
			Instructions      *struct {
				PerOp     *float64 `json:"per_op"`
				N1, N2    int
				Total1    int64 `json:"total1"`
				Total2    int64 `json:"total2"`
				Processes int
				WallNs    int64 `json:"wall_ns"`
				Valgrind  string
				Reason    string
				Error     string
				Output    string
				Capped    string
				Children  string
				PerProc   []float64 `json:"per_process"`
				HalfWidth *float64  `json:"halfwidth_pct"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	clean, noisy, mb, elim := rep.Benchmarks[0], rep.Benchmarks[1], rep.Benchmarks[2], rep.Benchmarks[3]
	require.NotNil(t, clean.InstructionsPerOp)
	assert.Equal(t, 16021.6, *clean.InstructionsPerOp)
	require.NotNil(t, clean.Instructions)
	assert.Equal(t, 62502, clean.Instructions.N2)
	assert.Equal(t, int64(14_000_000), clean.Instructions.Total1)
	assert.Equal(t, int64(3500e6), clean.Instructions.WallNs)
	assert.Equal(t, "valgrind-3.19.0", clean.Instructions.Valgrind)
	assert.Empty(t, clean.Instructions.Reason)
	assert.Equal(t, []float64{16021.5, 16021.7}, clean.Instructions.PerProc)
	require.NotNil(t, clean.Instructions.HalfWidth)
	assert.Equal(t, 0.0079, *clean.Instructions.HalfWidth)
	assert.Contains(t, clean.Instructions.Children, "starts processes as it runs")
	assert.Empty(t, elim.Instructions.Children)
	require.NotNil(t, elim.Instructions)
	assert.Nil(t, elim.Instructions.HalfWidth, "one process at N2: null")
	assert.Equal(t, []float64{3.2}, elim.Instructions.PerProc)

	assert.Nil(t, noisy.InstructionsPerOp, "not counted: null")
	require.NotNil(t, noisy.Instructions)
	assert.Nil(t, noisy.Instructions.PerOp)
	assert.Equal(t, "failed", noisy.Instructions.Reason)
	assert.Contains(t, noisy.Instructions.Output, "panic: boom")

	assert.Nil(t, mb.InstructionsPerOp)
	assert.Nil(t, mb.Instructions, "counts off for it: null")
	assert.NotEmpty(t, elim.Instructions.Capped)

	// The fields are there, null, in a report without counts.
	buf.Reset()
	require.NoError(t, JSON(&buf, fixture()))
	var raw struct{ Benchmarks []map[string]any }
	require.NoError(t, json.Unmarshal(buf.Bytes(), &raw))
	v, ok := raw.Benchmarks[0]["instructions_per_op"]
	assert.True(t, ok)
	assert.Nil(t, v)
}

func TestCountsSamples(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Samples(&buf, countedFixture()))
	assert.Contains(t, buf.String(), "Unit instructions/op assume=exact\n")
	r := benchfmt.NewReader(&buf, "samples.txt")
	got := map[string]float64{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			if rec.GetConfig("samples") != "counts" {
				continue
			}
			v, ok := rec.Value(UnitInstructions)
			require.True(t, ok, "%s has %s", rec.Name, UnitInstructions)
			got[rec.Name.String()] = v
			if rec.Name.String() == "Clean-2" {
				assert.Equal(t, 62500, rec.Iters, "the ops between the two processes")
			}
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		}
	}
	require.NoError(t, r.Err())
	assert.Equal(t, map[string]float64{"Clean-2": 16021.6, "Sum/eliminated-2": 3.2}, got, "one line per counted row, none for one that failed")
	if u := r.Units().Get(UnitInstructions, "assume"); assert.NotNil(t, u) {
		assert.Equal(t, "exact", u.Value)
	}

	// benchunit keeps the unit as it is and scales it as a decimal
	// quantity, so benchstat prints 16.02k, not a rescaled or binary unit.
	v, unit := benchunit.Tidy(16021.6, UnitInstructions)
	assert.Equal(t, UnitInstructions, unit)
	assert.Equal(t, 16021.6, v)
	assert.Equal(t, benchunit.Decimal, benchunit.ClassOf(UnitInstructions))
	assert.Equal(t, "16.02k", benchunit.Scale(16021.6, benchunit.Decimal))

	// Without counts, no metadata and no counts block.
	buf.Reset()
	require.NoError(t, Samples(&buf, fixture()))
	assert.NotContains(t, buf.String(), "instructions")
	assert.NotContains(t, buf.String(), "samples: counts")
}
