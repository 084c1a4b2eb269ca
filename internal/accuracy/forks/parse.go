package forks

import (
	"fmt"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/report"
)

// obs is one estimate of one variant against base in one repetition;
// Compare's carry an interval, the plain way's do not.
type obs = harness.Estimate

// key names a table row.
type key struct{ method, work, variant string }

// results gathers the repetitions: the estimates per row and the wall
// times per method.
type results struct {
	obs  map[key][]obs
	wall map[string][]time.Duration
}

func newResults() *results {
	return &results{obs: map[key][]obs{}, wall: map[string][]time.Duration{}}
}

// add records one process of method m.
func (r *results) add(m string, wall time.Duration, got map[key]obs) {
	r.wall[m] = append(r.wall[m], wall)
	for k, o := range got {
		r.obs[k] = append(r.obs[k], o)
	}
}

// compareObs returns the estimates of a BenchmarkCompare run from its
// JSON report rep: one per workload and variant, the swap workload's
// candidates as their rows (see swapVariant), the control and other
// candidates left out. It fails if one is missing or has no estimate,
// with the run's output out.
func compareObs(rep report.JSONReport, out []byte, m string, works []string) (map[key]obs, error) {
	outs, err := harness.CompareOutcomes(rep)
	if err != nil {
		return nil, fmt.Errorf("%v; output:\n%s", err, out)
	}
	got := map[key]obs{}
	for wi, e := range outs {
		v := wi.Impl
		if wi.Work == swapWork {
			var ok bool
			if v, ok = swapVariant(wi.Impl); !ok {
				continue
			}
		} else if !slices.Contains(variants, v) {
			continue
		}
		got[key{m, wi.Work, v}] = e
	}
	return got, checkComplete(got, m, works, out)
}

// checkComplete fails unless got holds every workload and variant of
// Compare's rows.
func checkComplete(got map[key]obs, m string, works []string, out []byte) error {
	for _, w := range works {
		for _, v := range variantsOf(w, false) {
			if _, ok := got[key{m, w, v}]; !ok {
				return fmt.Errorf("no estimate for work=%s %s in the JSON report; output:\n%s", w, v, out)
			}
		}
	}
	return nil
}

// parsePlain reads a BenchmarkPlain run and compares each variant with
// base as benchstat -col /impl does (see harness.ComparePlain).
func parsePlain(out []byte, m string, works []string) (map[key]obs, error) {
	vals, err := harness.PlainSamples(out)
	if err != nil {
		return nil, err
	}
	got := map[key]obs{}
	for _, w := range works {
		for _, v := range variantsOf(w, true) {
			bi, ci := "base", v
			if w == swapWork {
				bi, ci = "fold", "fnv" // the ratio fnv/fold
			}
			base, xs := vals[harness.WorkImpl{Work: w, Impl: bi}], vals[harness.WorkImpl{Work: w, Impl: ci}]
			if len(base) == 0 || len(xs) == 0 {
				return nil, fmt.Errorf("no sec/op for work=%s impl=%s or impl=%s in the output:\n%s", w, bi, ci, out)
			}
			got[key{m, w, v}] = harness.ComparePlain(base, xs)
		}
	}
	return got, nil
}
