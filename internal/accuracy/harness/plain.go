package harness

import (
	"bytes"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// WorkImpl names one implementation of one workload: the plain
// sub-benchmark work=<Work>/impl=<Impl>, or the candidate <Impl> of the
// control.Compare call under BenchmarkCompare/work=<Work>.
type WorkImpl struct{ Work, Impl string }

// PlainSamples reads go test -bench output and returns the sec/op samples
// (seconds per operation, one per -count run) of every result named
// <Benchmark>/work=<w>/impl=<i>, in output order. Results with another
// number of name parts are skipped. It fails only if out cannot be read.
func PlainSamples(out []byte) (map[WorkImpl][]float64, error) {
	vals := map[WorkImpl][]float64{}
	r := benchfmt.NewReader(bytes.NewReader(out), "plain")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		parts := NameParts(res)
		if len(parts) != 2 {
			continue
		}
		k := WorkImpl{strings.TrimPrefix(parts[0], "work="), strings.TrimPrefix(parts[1], "impl=")}
		if v, ok := res.Value("sec/op"); ok {
			vals[k] = append(vals[k], v)
		}
	}
	return vals, r.Err()
}

// NameParts returns the key=value parts of a result's name after the
// base, without their leading "/" and without the -GOMAXPROCS suffix
// benchfmt also reports as a part: ["work=sum", "impl=base"] for
// BenchmarkPlain/work=sum/impl=base-2.
func NameParts(res *benchfmt.Result) []string {
	_, parts := res.Name.Parts()
	var out []string
	for _, p := range parts {
		if len(p) > 0 && p[0] == '/' {
			out = append(out, string(p[1:]))
		}
	}
	return out
}

// ComparePlain compares the samples xs with base the plain way (see the
// package doc): Delta is the ratio of the medians in percent, Verdict
// "faster" or "slower" when p ≤ 0.05 and "same" otherwise; there is no
// interval. Both samples must be non-empty; neither is modified.
func ComparePlain(base, xs []float64) Estimate {
	s1 := benchmath.NewSample(slices.Clone(base), &benchmath.DefaultThresholds)
	s2 := benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
	c1 := benchmath.AssumeNothing.Summary(s1, 0.95)
	c2 := benchmath.AssumeNothing.Summary(s2, 0.95)
	cmp := benchmath.AssumeNothing.Compare(s1, s2)
	e := Estimate{Delta: (c2.Center/c1.Center - 1) * 100, Verdict: "same"}
	if cmp.P <= cmp.Alpha {
		e.Verdict = "slower"
		if c2.Center < c1.Center {
			e.Verdict = "faster"
		}
	}
	return e
}
