package stats

import "math"

// MaxLehrRuns is the largest run count [LehrRuns] reports as usable. A
// change that needs more runs per side than this cannot be resolved on
// that machine in any reasonable time; LehrRuns then returns MaxLehrRuns
// with ok=false.
const MaxLehrRuns = 100000

// lehrTolerance is the relative distance within which 16·(cv/Δ)² counts
// as the integer it is next to, so that a rounding error in the division
// (16·(0.6/0.2)² = 144.00000000000003 in float64) does not add a run.
const lehrTolerance = 1e-9

// LehrRuns returns Lehr's rule of thumb for the number of runs per side
// needed to resolve a change of deltaPct percent between two benchmarks
// whose run-to-run coefficient of variation is cvPct percent:
//
//	runs = ⌈16·(cvPct/deltaPct)²⌉
//
// For example 5% CV and a 5% change need 16 runs per side; seed 001's
// loaded machine (CV 18.88%) needs 229 for a 5% change.
//
// The rule is 16σ²/Δ² per group for a two-sided two-sample test at
// α = 0.05 with about 80% power (16 ≈ 2·(1.96+0.84)²), and it assumes
// independent, normally distributed run-to-run noise with the same σ on
// both sides. Two regimes (see [TwoRegimes]) break it: the noise is then a
// mixture, the CV overstates the noise within a regime and understates the
// bias between them, and no run count removes the bias. Mann-Whitney
// (benchstat) cannot reach p < 0.05 with fewer than 4 runs per side, and
// its median CI needs 6; callers may take the larger of those and this.
//
// A value of 16·(cv/Δ)² within a relative 1e-9 of an integer counts as
// that integer. ok is false, with runs 0, when either input is NaN, ±Inf,
// zero or negative. When the rule asks for more than [MaxLehrRuns] runs,
// runs is MaxLehrRuns and ok is false.
func LehrRuns(cvPct, deltaPct float64) (runs int, ok bool) {
	if !isFinite(cvPct) || !isFinite(deltaPct) || cvPct <= 0 || deltaPct <= 0 {
		return 0, false
	}
	r := cvPct / deltaPct // finite and > 0 unless it under/overflows
	if r > math.Sqrt(MaxLehrRuns/16.0)*2 {
		return MaxLehrRuns, false
	}
	x := 16 * r * r
	n := math.Round(x)
	if math.Abs(x-n) > lehrTolerance*n {
		n = math.Ceil(x)
	}
	if n < 1 {
		n = 1 // a positive CV always needs at least one run
	}
	if n > MaxLehrRuns {
		return MaxLehrRuns, false
	}
	return int(n), true
}
