package child

import (
	"bufio"
	"bytes"
	"fmt"
	"go/token"
	"strings"
)

// ListBenchmarks runs the test binary s describes with -test.run=^$
// -test.list=^Benchmark (s.Args are replaced) and returns the top-level
// benchmark functions it lists ("BenchmarkSum"), in its order. Lines
// that are not such a name (what a TestMain prints) are skipped. A binary
// that fails to list gives an error with its output.
func ListBenchmarks(s Spec) ([]string, error) {
	s.Args = []string{"-test.run=^$", "-test.list=^Benchmark"}
	r, err := Run(s)
	if err != nil {
		return nil, fmt.Errorf("listing the benchmarks of %s: %w", s.shown(), err)
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(r.Stdout))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "Benchmark") && token.IsIdentifier(line) {
			names = append(names, line)
		}
	}
	return names, nil
}
