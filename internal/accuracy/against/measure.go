package against

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// workloads are the benchmarks every run measures, by the name the table
// shows.
var workloads = []string{"Compute", "Alloc"}

const benchPattern = "^Benchmark(Compute|Alloc)$"

// outcome is one method's answer on one workload in one repetition: the
// verdict, Δ in percent and its interval (NaN bounds for plain, which has
// none).
type outcome struct {
	verdict     string
	delta       float64
	lo, hi      float64
	hasInterval bool
}

// env is every run's environment: this process's, with the workloads let
// run at a -benchtime duration.
func env() []string { return append(os.Environ(), "BENCHKIT_AGAINST_TABLE=1") }

// measure runs one repetition of method on cand against base and returns
// the outcome per workload and the wall time.
func measure(c config, method, base, cand, dir string) (map[string]outcome, time.Duration, error) {
	if method == "plain" {
		return measurePlain(c, base, cand)
	}
	return measureAgainst(c, method, base, cand, dir)
}

func measureAgainst(c config, pairing, base, cand, dir string) (map[string]outcome, time.Duration, error) {
	js := filepath.Join(dir, "r.json")
	_ = os.Remove(js)
	_, wall, err := harness.Run(cand, []string{"-test.run=^$", "-test.bench=" + benchPattern, "-test.benchtime=" + c.benchtime,
		"-benchkit.against=" + base, "-benchkit.pairing=" + pairing, "-benchkit.rounds=" + strconv.Itoa(c.rounds),
		"-benchkit.json=" + js, "-benchkit.warmup=off"}, env(), c.timeout)
	if err != nil {
		return nil, wall, err
	}
	b, err := os.ReadFile(js)
	if err != nil {
		return nil, wall, err
	}
	outs, err := parseReport(b, pairing)
	return outs, wall, err
}

// parseReport reads the verdicts of the JSON report b, checking that each
// workload was measured the way asked (pairing).
func parseReport(b []byte, pairing string) (map[string]outcome, error) {
	var rep struct {
		Against struct {
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
	outs := map[string]outcome{}
	for _, bm := range rep.Against.Benchmarks {
		name, _, _ := strings.Cut(bm.Name, "-")
		if bm.Mode != pairing {
			return nil, fmt.Errorf("%s was measured in %s, not %s: %s", bm.Name, bm.Mode, pairing, bm.ModeNote)
		}
		e := bm.Estimate
		outs[name] = outcome{verdict: e.Verdict, delta: e.DeltaPct, lo: e.LoPct, hi: e.HiPct, hasInterval: e.HiPct > e.LoPct} // lo = hi: too few rounds for one
	}
	for _, w := range workloads {
		if _, ok := outs[w]; !ok {
			return nil, fmt.Errorf("no Benchmark%s in the report", w)
		}
	}
	return outs, nil
}

func measurePlain(c config, base, cand string) (map[string]outcome, time.Duration, error) {
	args := []string{"-test.run=^$", "-test.bench=" + benchPattern, "-test.benchtime=" + c.benchtime,
		"-test.count=" + strconv.Itoa(c.count), "-benchkit.warmup=off"}
	var samples [2]map[string][]float64
	var wall time.Duration
	for i, bin := range []string{base, cand} {
		out, w, err := harness.Run(bin, args, env(), c.timeout)
		wall += w
		if err != nil {
			return nil, wall, err
		}
		if samples[i], err = benchSamples(out); err != nil {
			return nil, wall, err
		}
	}
	outs := map[string]outcome{}
	for _, w := range workloads {
		e := harness.ComparePlain(samples[0][w], samples[1][w])
		outs[w] = outcome{verdict: e.Verdict, delta: e.Delta, lo: math.NaN(), hi: math.NaN()}
	}
	return outs, wall, nil
}
