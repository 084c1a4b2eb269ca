package against

import (
	"bytes"
	"fmt"

	"golang.org/x/perf/benchfmt"
)

// benchSamples returns the sec/op of every result of each workload in
// out, by workload.
func benchSamples(out []byte) (map[string][]float64, error) {
	xs := map[string][]float64{}
	r := benchfmt.NewReader(bytes.NewReader(out), "plain")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		if v, ok := res.Value("sec/op"); ok {
			xs[string(res.Name.Base())] = append(xs[string(res.Name.Base())], v)
		}
	}
	for _, w := range workloads {
		if len(xs[w]) == 0 {
			return nil, fmt.Errorf("no Benchmark%s result in the output:\n%s", w, out)
		}
	}
	return xs, r.Err()
}
