package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
)

// AgainstOutcome is one benchmark's answer in a -benchkit.against JSON
// report: the verdict, Δ and its interval in percent, and the mode that
// measured it, with the reason it fell back.
type AgainstOutcome struct {
	Verdict                string
	DeltaPct, LoPct, HiPct float64
	Mode, ModeNote         string
}

// ReadAgainst reads a benchkit JSON report's cross-build comparison:
// each benchmark's outcome by its name without the -procs suffix
// ([TrimProcs]: "Work" for "Work-2").
func ReadAgainst(b []byte) (map[string]AgainstOutcome, error) {
	var rep struct {
		Against *struct {
			Benchmarks []struct {
				Name     string `json:"name"`
				Mode     string `json:"mode"`
				ModeNote string `json:"mode_note"`
				Estimate struct {
					DeltaPct float64 `json:"delta_pct"`
					LoPct    float64 `json:"lo_pct"`
					HiPct    float64 `json:"hi_pct"`
					Verdict  string  `json:"verdict"`
				} `json:"estimate"`
			} `json:"benchmarks"`
		} `json:"against"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, err
	}
	if rep.Against == nil {
		return nil, fmt.Errorf("the report holds no cross-build comparison")
	}
	outs := map[string]AgainstOutcome{}
	for _, bm := range rep.Against.Benchmarks {
		e := bm.Estimate
		outs[TrimProcs(bm.Name)] = AgainstOutcome{Verdict: e.Verdict, DeltaPct: e.DeltaPct, LoPct: e.LoPct, HiPct: e.HiPct, Mode: bm.Mode, ModeNote: bm.ModeNote}
	}
	return outs, nil
}

// RunAgainst runs cand with -benchkit.against=base and args (go test's
// and benchkit's flags: the selection, -benchtime, the pairing), writing
// its JSON report into dir, and returns each benchmark's outcome
// ([ReadAgainst]) and the wall time. env is the process's environment
// (nil: this one's); its temporary directory is moved inside dir, so that
// the working directory of a -benchkit.against parent killed with this
// process (which it cannot remove itself) goes with dir.
func RunAgainst(cand, base, dir string, args, env []string, timeout time.Duration) (map[string]AgainstOutcome, time.Duration, error) {
	js := filepath.Join(dir, "against.json")
	_ = os.Remove(js)
	args = append([]string{"-test.run=^$", "-benchkit.against=" + base, "-benchkit.json=" + js, "-benchkit.warmup=off"}, args...)
	if env == nil {
		env = os.Environ()
	}
	env = append(slices.Clip(env), child.ChildEnv(dir)...)
	_, wall, err := Run(cand, args, env, timeout)
	if err != nil {
		return nil, wall, err
	}
	b, err := os.ReadFile(js)
	if err != nil {
		return nil, wall, err
	}
	outs, err := ReadAgainst(b)
	return outs, wall, err
}
