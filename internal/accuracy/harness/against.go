package harness

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/report"
)

// AgainstOutcome is one benchmark's answer in a -benchkit.against JSON
// report: the estimate of the new binary against the base (the verdict,
// Δ and its interval in percent; Δ NaN when the report holds none, no
// interval when too few rounds or triples gave one), and the mode that
// measured it, with the reason it fell back.
//
// In lockstep, Triples is how many triples were run (the length of
// "groups"), Stop why they stopped ("decided", "budget", "rounds", "max"
// or "failed") and BetweenPct, WithinPct how much processes and runs
// within one differed, as one process's CVs in percent (NaN when the
// report holds none). In rounds, Triples is 0 and Stop "".
type AgainstOutcome struct {
	Estimate
	Mode, ModeNote        string
	Triples               int
	Stop                  string
	BetweenPct, WithinPct float64
	// MutatorPct is new's time over base's at equal collections, and
	// CyclesPct new's collections per op over base's, both in percent;
	// NaN where the row has no collector parts (no collection, or not
	// lockstep).
	MutatorPct, CyclesPct float64
}

// AgainstOutcomes returns rep's cross-build comparison: each benchmark's
// outcome by its name without the -procs suffix (the tables run without
// -cpu, so every name carries this process's GOMAXPROCS): "Work"
// for "Work-2"). It fails when rep holds no cross-build comparison.
func AgainstOutcomes(rep report.JSONReport) (map[string]AgainstOutcome, error) {
	if rep.Against == nil {
		return nil, fmt.Errorf("the report holds no cross-build comparison")
	}
	outs := map[string]AgainstOutcome{}
	for _, bm := range rep.Against.Benchmarks {
		o := AgainstOutcome{Estimate: estimateOf(bm.Estimate), Mode: bm.Mode, ModeNote: bm.ModeNote,
			Stop: bm.Stop, BetweenPct: orNaN(bm.BetweenPct), WithinPct: orNaN(bm.WithinPct), MutatorPct: math.NaN(), CyclesPct: math.NaN()}
		if g := bm.GC; g != nil {
			o.MutatorPct = orNaN(g.MutatorDeltaPct)
			if g.CyclesPerOpBase > 0 {
				o.CyclesPct = 100 * (g.CyclesPerOpNew/g.CyclesPerOpBase - 1)
			}
		}
		if bm.Mode == "lockstep" {
			o.Triples = len(bm.Groups)
		}
		outs[benchname.Trim(bm.Name, runtime.GOMAXPROCS(0))] = o
	}
	return outs, nil
}

// RunAgainst runs cand with -benchkit.against=base and args (go test's
// and benchkit's flags: the selection, -benchtime, the pairing), writing
// its JSON report into dir, and returns each benchmark's outcome
// ([AgainstOutcomes]) and the wall time. env is the process's environment
// (nil: this one's); its temporary directory is moved inside dir, so that
// the working directory of a -benchkit.against parent killed with this
// process (which it cannot remove itself) goes with dir.
func RunAgainst(cand, base, dir string, args, env []string, timeout time.Duration) (map[string]AgainstOutcome, time.Duration, error) {
	args = append([]string{"-test.run=^$", "-benchkit.against=" + base, "-benchkit.warmup=off"}, args...)
	if env == nil {
		env = os.Environ()
	}
	env = append(slices.Clip(env), child.ChildEnv(dir)...)
	rep, _, wall, err := RunReport(cand, filepath.Join(dir, "against.json"), args, env, timeout)
	if err != nil {
		return nil, wall, err
	}
	outs, err := AgainstOutcomes(rep)
	return outs, wall, err
}
