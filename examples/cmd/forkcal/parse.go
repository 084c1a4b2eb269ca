package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/examples/cmd/internal/harness"
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

// parseCompare reads the log lines of a BenchmarkCompare run: one
// estimate per workload and variant, the control's line skipped. It fails
// if one is missing, printed twice or unreadable.
func parseCompare(out []byte, m string, works []string) (map[key]obs, error) {
	lines, err := harness.CompareLines(out)
	if err != nil {
		return nil, fmt.Errorf("%v; output:\n%s", err, out)
	}
	got := map[key]obs{}
	for _, l := range lines {
		if !slices.Contains(variants, l.Name) {
			continue
		}
		k := key{m, l.Work, l.Name}
		if _, dup := got[k]; dup {
			return nil, fmt.Errorf("work=%s %s: printed twice; output:\n%s", l.Work, l.Name, out)
		}
		got[k] = l.Estimate
	}
	return got, checkComplete(got, m, works, out)
}

// checkComplete fails unless got holds every workload and variant.
func checkComplete(got map[key]obs, m string, works []string, out []byte) error {
	for _, w := range works {
		for _, v := range variants {
			if _, ok := got[key{m, w, v}]; !ok {
				return fmt.Errorf("no estimate for work=%s %s in the output:\n%s", w, v, out)
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
		base := vals[harness.WorkImpl{Work: w, Impl: "base"}]
		for _, v := range variants {
			xs := vals[harness.WorkImpl{Work: w, Impl: v}]
			if len(base) == 0 || len(xs) == 0 {
				return nil, fmt.Errorf("no sec/op for work=%s impl=base or impl=%s in the output:\n%s", w, v, out)
			}
			got[key{m, w, v}] = harness.ComparePlain(base, xs)
		}
	}
	return got, nil
}
