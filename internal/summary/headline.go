package summary

import (
	"strconv"
	"strings"

	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Headline says in one line what p holds, worst first: "✗ failed · 2
// regressions (worst Work-2 +103.64%) · 1 undecided · 3 same", or
// "nothing measured".
func Headline(p Part) string {
	var out []string
	if p.Failed {
		out = append(out, "✗ failed")
	}
	if p.NotCompared != "" {
		out = append(out, "not compared: "+cut(p.NotCompared, 120))
	}
	if p.New != "" {
		out = append(out, "new: "+p.New)
	}
	count := map[Class]int{}
	var worst *Entry
	for i, e := range p.Entries {
		count[e.Class]++
		if e.Class == Regression && e.DeltaPct != nil && (worst == nil || *e.DeltaPct > *worst.DeltaPct) {
			worst = &p.Entries[i]
		}
	}
	if n := count[Regression]; n > 0 {
		w := textfmt.Plural(n, "regression")
		if worst != nil {
			w += " (worst " + worst.Name + " " + textfmt.Pct(*worst.DeltaPct) + ")"
		}
		out = append(out, w)
	}
	if n := count[Improvement]; n > 0 {
		out = append(out, textfmt.Plural(n, "improvement"))
	}
	for _, c := range []Class{Undecided, Flagged} {
		if n := count[c]; n > 0 {
			out = append(out, strconv.Itoa(n)+" "+string(c))
		}
	}
	for _, k := range restOrder {
		if n := p.Rest[k]; n > 0 {
			out = append(out, strconv.Itoa(n)+" "+k)
		}
	}
	if len(out) == 0 {
		return "nothing measured"
	}
	return strings.Join(out, " · ")
}

// Worst returns the first class of the summary's order that p lists,
// Regression for a failed part, Undecided for one that lists none and
// was not compared, "" for a part that lists none.
func Worst(p Part) Class {
	if p.Failed {
		return Regression
	}
	for _, c := range classOrder {
		for _, e := range p.Entries {
			if e.Class == c {
				return c
			}
		}
	}
	if p.NotCompared != "" {
		return Undecided
	}
	return ""
}
