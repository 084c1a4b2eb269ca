package report

import (
	"fmt"
	"github.com/benchkit/go-benchkit/internal/against"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func finiteOnly(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if finite(x) && x >= 0 {
			out = append(out, x)
		}
	}
	return out
}

// fmtNs formats a duration in nanoseconds with 3–4 significant digits and
// a unit: "27.5ns", "1.234µs", "12.3ms", "2.00s".
func fmtNs(ns float64) string {
	if !finite(ns) || ns < 0 {
		return "?"
	}
	unit, v := "ns", ns
	switch {
	case ns >= 1e9:
		unit, v = "s", ns/1e9
	case ns >= 1e6:
		unit, v = "ms", ns/1e6
	case ns >= 1e3:
		unit, v = "µs", ns/1e3
	}
	var s string
	switch {
	case v >= 100:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 10:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	default:
		s = strconv.FormatFloat(v, 'f', 3, 64)
	}
	return s + unit
}

func width(s string) int { return utf8.RuneCountInString(s) }

func pad(s string, w int) string {
	if n := width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

func pctCell(x float64) string {
	if !finite(x) || x < 0 {
		return "?"
	}
	if x >= 100 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// listNames joins names, at most max of them, then "and k more".
func listNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
}

// segments formats [start, end) index ranges 1-based and inclusive:
// "1-8, 17-20".
func segments(ss [][2]int) string {
	parts := make([]string, 0, len(ss))
	for _, s := range ss {
		if s[1]-s[0] == 1 {
			parts = append(parts, strconv.Itoa(s[0]+1))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", s[0]+1, s[1]))
		}
	}
	if len(parts) > 6 {
		parts = append(parts[:6], fmt.Sprintf("… (%d stretches in all)", len(ss)))
	}
	return strings.Join(parts, ", ")
}

// finiteSlice returns a new slice of the finite values of xs, in order
// (empty, not nil, when there are none).
func finiteSlice(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if finite(x) {
			out = append(out, x)
		}
	}
	return out
}

// changeWord says how a count changed: "up 3 → 4 (+1)".
func changeWord(c against.Count) string {
	dir := "up"
	if c.New < c.Base {
		dir = "down"
	}
	return dir + " " + countChange(c)
}

// countChange shows both sides of a count and the difference of the
// printed values: "33100 → 33164 (+64)".
func countChange(c against.Count) string {
	d := math.Trunc(c.New) - math.Trunc(c.Base)
	sign := "+"
	if d < 0 {
		sign = "-"
	}
	return fmt.Sprintf("%s → %s (%s%s)", fmtCount(c.Base), fmtCount(c.New), sign, fmtCount(math.Abs(d)))
}

// fmtCount formats a per-op count (allocs/op, B/op) as go test prints it,
// truncated to an integer: "33100", never "3.31e+04"; "?" when negative or
// not finite.
func fmtCount(x float64) string {
	if !finite(x) || x < 0 {
		return "?"
	}
	return strconv.FormatFloat(math.Trunc(x), 'f', 0, 64)
}

// fmtInstr formats instructions per op: to the integer from 100 on
// ("16022"), with one decimal below ("12.5"); "?" when negative or not
// finite.
func fmtInstr(x float64) string {
	switch {
	case !finite(x) || x < 0:
		return "?"
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// singular returns "run" for "runs" and "batch" for "batches".
func singular(unit string) string {
	if unit == "batches" {
		return "batch"
	}
	return strings.TrimSuffix(unit, "s")
}
