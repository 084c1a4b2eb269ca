package report

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// MinGroupRows is the least number of rows sharing a finding's kind and
// fix (contention, a drift, a grade with the same causes) that the
// findings write as one summary line instead of a line per row.
const MinGroupRows = 3

// The kinds of finding that rows share.
const (
	kindContention = "contention"
	kindDrift      = "drift"
	kindGrade      = "grade"
)

// group names what a finding shares with other rows' findings: its kind
// and, for a grade, the names of its causes joined with " and " ("" when
// none was found). The zero group is a finding specific to its row.
type group struct {
	kind, causes string
}

// finding is one findings line about one row, without the row's name.
type finding struct {
	text  string
	group group
}

// rowFinding is a finding with the row it is about.
type rowFinding struct {
	row Row
	finding
}

// findingLines returns the findings lines of rows, without indent: first
// the parents' line ([parentSummary]) and one summary line per cause
// (contention, drift) that MinGroupRows rows or more share, then each
// row's own findings and those of groups too small to summarise,
// "Name: text", then one summary line per grade group of MinGroupRows
// rows or more; virtualised as for [gradeFinding].
func findingLines(rows []Row, virtualised bool) []string {
	var all []rowFinding
	members := map[group][]Row{}
	var order []group
	for _, r := range rows {
		for _, f := range findingsOf(r, virtualised) {
			all = append(all, rowFinding{r, f})
			if f.group == (group{}) {
				continue
			}
			if _, seen := members[f.group]; !seen {
				order = append(order, f.group)
			}
			members[f.group] = append(members[f.group], r)
		}
	}
	summarised := func(g group) bool { return g != (group{}) && len(members[g]) >= MinGroupRows }
	var head, tail []string
	if p := parentSummary(rows); p != "" {
		head = append(head, p)
	}
	for _, g := range order {
		switch {
		case !summarised(g):
		case g.kind == kindGrade:
			tail = append(tail, gradeSummary(members[g], g.causes, virtualised))
		default:
			head = append(head, causeSummary(g.kind, members[g]))
		}
	}
	for _, rf := range all {
		if !summarised(rf.group) {
			head = append(head, rf.row.Display+": "+rf.text)
		}
	}
	return append(head, tail...)
}

// causeSummary is the summary line of rows that share the cause kind.
func causeSummary(kind string, rows []Row) string {
	if kind == kindDrift {
		return driftSummary(rows)
	}
	return contentionSummary(rows)
}

// extremes returns the least and the greatest value over rows (at least
// one), and the three rows where |value| is largest, largest first.
func extremes(rows []Row, value func(Row) float64) (lo, hi float64, top []Row) {
	vs := make([]float64, len(rows))
	for i, r := range rows {
		vs[i] = value(r)
	}
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(a, b Row) int { return cmp.Compare(math.Abs(value(b)), math.Abs(value(a))) })
	return slices.Min(vs), slices.Max(vs), sorted[:min(3, len(sorted))]
}

// named joins each row's name with its value: "A-2 140%, B-2 120%".
func named(rows []Row, value func(Row) string) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = r.Display + " " + value(r)
	}
	return strings.Join(parts, ", ")
}
