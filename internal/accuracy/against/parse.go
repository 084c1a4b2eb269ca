package against

import (
	"bytes"
	"fmt"

	"golang.org/x/perf/benchfmt"
)

// workSamples returns the sec/op of every BenchmarkWork result in out.
func workSamples(out []byte) ([]float64, error) {
	var xs []float64
	r := benchfmt.NewReader(bytes.NewReader(out), "plain")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok || string(res.Name.Base()) != "Work" {
			continue
		}
		if v, ok := res.Value("sec/op"); ok {
			xs = append(xs, v)
		}
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("no BenchmarkWork result in the output:\n%s", out)
	}
	return xs, r.Err()
}
