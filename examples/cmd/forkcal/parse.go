package main

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

var (
	// verdictRE matches Compare's log line for one implementation:
	// name, estimate, interval ends (percent, two decimals) and verdict.
	verdictRE = regexp.MustCompile(`control: (\S+)\s+([+-][0-9.]+)% \[([+-][0-9.]+)%, ([+-][0-9.]+)%\] (\w+):`)
	// benchRE matches the header go test prints above a benchmark's log.
	benchRE = regexp.MustCompile(`^--- BENCH: BenchmarkCompare/work=(\w+)`)
)

// obs is one estimate of one variant against base in one repetition, in
// percent of base.
type obs struct {
	delta, lo, hi float64
	hasCI         bool   // lo and hi were printed (Compare)
	verdict       string // faster, slower, same or undecided
}

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
// if one is missing or printed twice.
func parseCompare(out []byte, m string, works []string) (map[key]obs, error) {
	got := map[key]obs{}
	work := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if h := benchRE.FindStringSubmatch(line); h != nil {
			work = h[1]
			continue
		}
		if !strings.HasPrefix(line, " ") {
			work = "" // log lines are indented under their header
		}
		v := verdictRE.FindStringSubmatch(line)
		if v == nil || work == "" || !slices.Contains(variants, v[1]) {
			continue
		}
		k := key{m, work, v[1]}
		o, err := compareObs(v)
		if _, dup := got[k]; dup || err != nil {
			return nil, fmt.Errorf("work=%s %s: line %q printed twice or unreadable (%v); output:\n%s", work, v[1], line, err, out)
		}
		got[k] = o
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return got, checkComplete(got, m, works, out)
}

// compareObs converts verdictRE's submatches into an obs.
func compareObs(v []string) (obs, error) {
	var f [3]float64
	for i := range f {
		x, err := strconv.ParseFloat(v[2+i], 64)
		if err != nil {
			return obs{}, err
		}
		f[i] = x
	}
	return obs{delta: f[0], lo: f[1], hi: f[2], hasCI: true, verdict: v[5]}, nil
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
// base as benchstat -col /impl does (see comparePlain).
func parsePlain(out []byte, m string, works []string) (map[key]obs, error) {
	vals := map[[2]string][]float64{} // (work, impl) → sec/op samples
	r := benchfmt.NewReader(bytes.NewReader(out), "plain")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		parts := nameParts(res)
		if len(parts) != 2 {
			continue
		}
		wi := [2]string{strings.TrimPrefix(string(parts[0]), "/work="), strings.TrimPrefix(string(parts[1]), "/impl=")}
		if v, ok := res.Value("sec/op"); ok {
			vals[wi] = append(vals[wi], v)
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	got := map[key]obs{}
	for _, w := range works {
		base := vals[[2]string{w, "base"}]
		for _, v := range variants {
			xs := vals[[2]string{w, v}]
			if len(base) == 0 || len(xs) == 0 {
				return nil, fmt.Errorf("no sec/op for work=%s impl=base or impl=%s in the output:\n%s", w, v, out)
			}
			got[key{m, w, v}] = comparePlain(base, xs)
		}
	}
	return got, nil
}

// comparePlain is benchstat's comparison of samples xs against base:
// benchmath.AssumeNothing, the delta of the medians in percent, and a
// Mann-Whitney U test; the verdict is decided (faster or slower) when
// p ≤ α = 0.05, that is when benchstat prints a delta instead of ~.
func comparePlain(base, xs []float64) obs {
	s1 := benchmath.NewSample(slices.Clone(base), &benchmath.DefaultThresholds)
	s2 := benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
	c1 := benchmath.AssumeNothing.Summary(s1, 0.95)
	c2 := benchmath.AssumeNothing.Summary(s2, 0.95)
	cmp := benchmath.AssumeNothing.Compare(s1, s2)
	o := obs{delta: (c2.Center/c1.Center - 1) * 100, verdict: "same"}
	if cmp.P <= cmp.Alpha {
		o.verdict = "slower"
		if c2.Center < c1.Center {
			o.verdict = "faster"
		}
	}
	return o
}

// nameParts returns the /key=value parts of a result's name, without the
// -GOMAXPROCS suffix benchfmt also reports as a part.
func nameParts(res *benchfmt.Result) [][]byte {
	_, parts := res.Name.Parts()
	var out [][]byte
	for _, p := range parts {
		if len(p) > 0 && p[0] == '/' {
			out = append(out, p)
		}
	}
	return out
}
