package against

import (
	"bytes"
	"fmt"

	"golang.org/x/perf/benchfmt"
)

// benchSamples returns the sec/op of every result of Benchmark<w> in out
// (go test -bench output), in output order. It fails when there is none.
func benchSamples(out []byte, w string) ([]float64, error) {
	var xs []float64
	r := benchfmt.NewReader(bytes.NewReader(out), "plain")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok || string(res.Name.Base()) != w {
			continue
		}
		if v, ok := res.Value("sec/op"); ok {
			xs = append(xs, v)
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("no Benchmark%s result in the output:\n%s", w, out)
	}
	return xs, nil
}
