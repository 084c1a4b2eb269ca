package report

import (
	"flag"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current text reports")

// goldenInputs are representative inputs whose whole text report is
// pinned in testdata/<name>.golden: every section, every kind of finding,
// the two empty-table cases, a large suite on a busy machine (grouped
// findings, parents, folded rows) and a cross-build comparison.
func goldenInputs() map[string]Input {
	full := fixture()
	full.Warmup.Warnings = []string{"warm-up did not settle: the last batches still drift"}
	full.Dropped = 3
	full.Benches = append(full.Benches,
		registry.Bench{Name: "BenchmarkOne", Runs: runs(2, -1, 3), TotalRuns: 1},
		registry.Bench{Name: "BenchmarkHog", Runs: runs(2, 1.2, 180), TotalRuns: 1, Timeline: hogTimeline(true)},
	)
	compareOnly := Input{Package: "example.com/c", Benches: full.Benches[5:6]}
	return map[string]Input{"full": full, "empty": {}, "compare-only": compareOnly, "busy-suite": busySuiteInput(), "against": againstInput()}
}

// busySuiteInput is a suite of 28 noisy benchmarks under contention, two
// parents that call Track and b.Run, one benchmark whose work was
// eliminated and twelve that ran once.
func busySuiteInput() Input {
	in := Input{Package: "example.com/bitset", Benches: busySuite(28)}
	for _, name := range []string{"BenchmarkUnion", "BenchmarkIntersect"} {
		in.Benches = append(in.Benches, registry.Bench{Name: name, Flags: []registry.Flag{{Kind: registry.FlagMisuse, Parent: true, Count: 1,
			Message: "benchkit: " + name + " calls b.Run, so testing measures only its sub-benchmarks and Track here records nothing. Fix: Track in each b.Run function"}}})
	}
	in.Benches = append(in.Benches, registry.Bench{Name: "BenchmarkCount", Runs: runs(2, 0.01, 0.31, 0.31, 0.31, 0.31, 0.31, 0.31), TotalRuns: 6,
		Flags: []registry.Flag{{Kind: registry.FlagEliminated, Count: 6,
			Message: "benchkit: BenchmarkCount: 0.31 ns/op is at the empty-loop floor (0.30 ns): the compiler removed the work; keep the result with sink.Keep"}}})
	for i := range 12 {
		in.Benches = append(in.Benches, registry.Bench{Name: fmt.Sprintf("BenchmarkOnce%02d", i), Runs: runs(2, 0.02, 1200*float64(i+1)), TotalRuns: 1})
	}
	return in
}

// againstInput is a cross-build comparison with a row whose medians and
// Δ point different ways and counts in the tens of thousands.
func againstInput() Input {
	a := againstFixture()
	odd := a.Benches[0]
	odd.Name = "Decode-2"
	odd.Base.NsPerOp = []float64{97.63, 90.1, 104.2}
	odd.NewEst = verdict.Estimate{Name: "new", NsPerOp: 102.5, DeltaPct: -5.14, LoPct: -7.9, HiPct: -2.2, Verdict: verdict.Faster, Reason: "the interval excludes 0"}
	odd.Allocs = against.Count{Base: 33100, New: 33101, Varies: true}
	odd.Bytes = against.Count{Base: 2.6487e6, New: 2.6487e6}
	odd.GatesFailed = nil
	odd.Mode, odd.Groups = against.ModeLockstep, []int{120, 118, 121}
	a.Benches[0].ModeNote = "it calls neither benchkit.Track nor benchkit.Loop in either binary"
	a.RunTargetNs = 3e6
	a.Benches = append(a.Benches, odd)
	return Input{Package: "example.com/p", Against: a}
}

// TestTextGolden compares the whole text report of each golden input,
// full and compact, with its file (<name>.golden and
// <name>.compact.golden); run with -update to rewrite the files after a
// deliberate change of the report.
func TestTextGolden(t *testing.T) {
	for name, in := range goldenInputs() {
		for _, full := range []bool{true, false} {
			file := name + ".golden"
			if !full {
				file = name + ".compact.golden"
			}
			t.Run(file, func(t *testing.T) {
				in.Settings.Full = full
				checkGolden(t, file, renderWith(t, Text, in))
			})
		}
	}
}

// checkGolden compares got with testdata/file, rewriting it first under
// -update.
func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -run TestTextGolden -update to create it")
	assert.Equal(t, string(want), got)
}
