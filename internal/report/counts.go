package report

import (
	"fmt"
	"strings"
)

// countFinding is a findings line about instruction counts, with the
// output of the process that failed ("" when none), which the text
// report quotes as printed.
type countFinding struct {
	text, output string
}

// countFindings returns the findings about the rows' instruction counts:
// one line per distinct reason a count failed, naming the rows it failed
// for (a missing valgrind is one line, not one per benchmark), with the
// failed process's output when there is one row; then one line per row
// whose N2 stopped short of the budget, and one per row whose benchmark
// started processes (their instructions are not counted).
func countFindings(rows []Row) []countFinding {
	out := uncountedFindings(rows)
	for _, r := range rows {
		if c := r.Count; c != nil && c.Counted() && c.Capped != "" {
			out = append(out, countFinding{text: fmt.Sprintf(
				"%s: instructions counted over N2 − N1 = %d ops, short of the budget: %s; the noise of two processes can move the count by %s%%",
				r.Display, c.N2-c.N1, c.Capped, fmtNum(c.ResolutionPct))})
		}
	}
	for _, r := range rows {
		if c := r.Count; c != nil && c.Counted() && c.Children != "" {
			out = append(out, countFinding{text: r.Display + ": instructions counted in the benchmark's process only: " + c.Children})
		}
	}
	return out
}

// uncountedFindings are the first lines of [countFindings]: one per
// distinct reason a count failed, with the rows it failed for.
func uncountedFindings(rows []Row) []countFinding {
	var order []string
	names := map[string][]string{}
	output := map[string]string{}
	for _, r := range rows {
		c := r.Count
		if c == nil || c.Counted() {
			continue
		}
		key := string(c.Reason) + "\x00" + c.Error
		if _, seen := names[key]; !seen {
			order = append(order, key)
		}
		names[key] = append(names[key], r.Display)
		output[key] = c.Output
	}
	var out []countFinding
	for _, key := range order {
		reason, msg, _ := strings.Cut(key, "\x00")
		f := countFinding{text: fmt.Sprintf("%s: instructions not counted (%s): %s",
			listNames(names[key], 8), reason, strings.TrimPrefix(msg, "count: "))}
		if len(names[key]) == 1 {
			f.output = output[key]
		}
		out = append(out, f)
	}
	return out
}
