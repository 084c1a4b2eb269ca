// Package mainreport is a fixture for benchkit's Main tests: a package whose
// TestMain is benchkit.Main, built with go test -c and run by
// benchkit/main_real_test.go. Environment variables switch on deliberate
// failures:
//
//	MAINREPORT_FAIL_TEST=1  TestPasses fails (m.Run returns 1)
//	MAINREPORT_FAIL_BENCH=1 BenchmarkGate fails (m.Run returns 1)
//	MAINREPORT_GATE=1       BenchmarkGate records a failed control gate
//	MAINREPORT_FLAG=1       BenchmarkTracked raises a misuse flag
package mainreport

import (
	"os"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

func TestPasses(t *testing.T) {
	if os.Getenv("MAINREPORT_FAIL_TEST") == "1" {
		t.Fatal("deliberate failure (MAINREPORT_FAIL_TEST=1)")
	}
}

var xs = func() []uint64 {
	s := make([]uint64, 256)
	for i := range s {
		s[i] = uint64(i) * 2654435761
	}
	return s
}()

func sum(s []uint64) uint64 {
	var t uint64
	for _, x := range s {
		t += x
	}
	return t
}

func BenchmarkTracked(b *testing.B) {
	benchkit.Track(b)
	if os.Getenv("MAINREPORT_FLAG") == "1" {
		registry.Default().AddFlag(b.Name()+"-2", registry.Flag{Kind: registry.FlagMisuse,
			Message: "benchkit: deliberate flag (MAINREPORT_FLAG=1)"})
	}
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

func BenchmarkLooped(b *testing.B) {
	benchkit.Loop(b, func() uint64 { return sum(xs) })
}

// BenchmarkPlain does not use benchkit: it is in go test's output but not
// in the report.
func BenchmarkPlain(b *testing.B) {
	for b.Loop() {
		sink.Keep(sum(xs))
	}
}

// BenchmarkGate stands in for a control.Compare with a gate: with
// MAINREPORT_GATE=1 it records a comparison whose gate failed.
func BenchmarkGate(b *testing.B) {
	if os.Getenv("MAINREPORT_FAIL_BENCH") == "1" {
		b.Fatal("deliberate failure (MAINREPORT_FAIL_BENCH=1)")
	}
	if os.Getenv("MAINREPORT_GATE") == "1" {
		registry.Default().AddComparison(b.Name(), registry.Comparison{Result: verdict.Result{Baseline: "old", BaselineNsPerOp: 100, Rounds: 20, Confidence: 0.975, Gate: 5, GateFailed: true, Control: verdict.Estimate{Name: "old", NsPerOp: 100, DeltaPct: 0.1, LoPct: -1, HiPct: 1, Verdict: verdict.Same}, Candidates: []verdict.Estimate{{Name: "new", NsPerOp: 110, DeltaPct: 10, LoPct: 9, HiPct: 11, Verdict: verdict.Slower, GateFailed: true}}}})
	}
	for b.Loop() {
		sink.Keep(sum(xs[:8]))
	}
}
