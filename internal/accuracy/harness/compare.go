package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Estimate is one candidate's comparison with the baseline; see the
// package doc for the units.
type Estimate struct {
	Delta   float64 // percent of the baseline
	Lo, Hi  float64 // interval ends in percent; meaningful only when HasCI
	HasCI   bool    // an interval was printed (control.Compare)
	Verdict string  // faster, slower, same or undecided
}

// Line is one candidate's log line of control.Compare, under the
// sub-benchmark work=<Work>.
type Line struct {
	Work, Name string
	Estimate
}

var (
	// verdictRE matches Compare's log line for one candidate: name,
	// estimate, interval ends (percent, two decimals) and verdict.
	verdictRE = regexp.MustCompile(`control: (\S+)\s+([+-][0-9.]+)% \[([+-][0-9.]+)%, ([+-][0-9.]+)%\] (\w+):`)
	// benchRE matches the header go test prints above a sub-benchmark's log.
	benchRE = regexp.MustCompile(`^--- BENCH: BenchmarkCompare/work=(\w+)`)
)

// CompareLines returns, in output order, every candidate line that
// control.Compare logged under a "--- BENCH: BenchmarkCompare/work=<w>"
// header of out (go test -bench output). Log lines are indented under
// their header; any unindented line ends the header's scope, so lines
// outside one are skipped. The control's own line (its noise floor, named
// after the control) is returned like the others. It fails if a matched
// line's numbers cannot be read. Callers keep the names they want and
// check for missing and repeated lines.
func CompareLines(out []byte) ([]Line, error) {
	var lines []Line
	work := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		text := sc.Text()
		if h := benchRE.FindStringSubmatch(text); h != nil {
			work = h[1]
			continue
		}
		if !strings.HasPrefix(text, " ") {
			work = ""
		}
		v := verdictRE.FindStringSubmatch(text)
		if v == nil || work == "" {
			continue
		}
		e, err := estimate(v)
		if err != nil {
			return nil, fmt.Errorf("work=%s %s: line %q: %v", work, v[1], text, err)
		}
		lines = append(lines, Line{Work: work, Name: v[1], Estimate: e})
	}
	return lines, sc.Err()
}

// estimate converts verdictRE's submatches into an Estimate.
func estimate(v []string) (Estimate, error) {
	var f [3]float64
	for i := range f {
		x, err := strconv.ParseFloat(v[2+i], 64)
		if err != nil {
			return Estimate{}, err
		}
		f[i] = x
	}
	return Estimate{Delta: f[0], Lo: f[1], Hi: f[2], HasCI: true, Verdict: v[5]}, nil
}
