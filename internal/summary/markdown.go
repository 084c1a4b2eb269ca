package summary

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// classHead is how the summary heads a class's section, and what its
// last column says.
var classHead = map[Class]struct{ title, why string }{
	Regression:  {"✗ Regressions: decided slower, more allocations or instructions per op, or a failed gate; worst first", "why"},
	Improvement: {"✓ Improvements: decided faster, or fewer allocations or instructions per op", "why"},
	Undecided:   {"? Undecided: this runner could not tell", "reason"},
	Flagged:     {"⚑ Flagged: hygiene flags of plain benchmark runs", "flags"},
}

// Markdown writes the summary of parts to w: a headline with the counts,
// then the listed benchmarks of every part together, one section per
// class in the order regressions, improvements, undecided, flagged
// (each a table), the packages not compared with their reason, the
// packages new at this revision, the rest as counts, the failures and
// the packages folded (<details>). Parts are rendered in no particular order: the
// sections sort their rows.
func Markdown(w io.Writer, parts []Part) error {
	var b strings.Builder
	short := shortNames(parts)
	byClass := map[Class][]Entry{}
	for _, p := range parts {
		for _, e := range p.Entries {
			byClass[e.Class] = append(byClass[e.Class], e)
		}
	}
	b.WriteString("### benchkit: " + headline(parts, byClass) + "\n")
	for _, c := range classOrder {
		if len(byClass[c]) == 0 {
			continue
		}
		sortEntries(c, byClass[c])
		fmt.Fprintf(&b, "\n**%s**\n\n", classHead[c].title)
		writeTable(&b, c, byClass[c], short)
	}
	writeNotCompared(&b, parts, short)
	if names := newPackages(parts, short); len(names) > 0 {
		fmt.Fprintf(&b, "\n**New:** %s (not at the base: every benchmark is only in the new build)\n", strings.Join(names, ", "))
	}
	if rest := restLine(parts); rest != "" {
		b.WriteString("\n**The rest:** " + rest + "\n")
	}
	writeFailures(&b, parts, short)
	writePackages(&b, parts)
	_, err := io.WriteString(w, b.String())
	return err
}

// headline counts each class, the rest and the failed packages:
// "✗ 2 regressions · 1 improvement · 3 undecided · 12 more".
func headline(parts []Part, byClass map[Class][]Entry) string {
	var out []string
	failed := 0
	for _, p := range parts {
		if p.Failed {
			failed++
		}
	}
	if failed > 0 {
		out = append(out, "✗ "+textfmt.Plural(failed, "package")+" failed")
	}
	words := map[Class]string{Regression: "regression", Improvement: "improvement", Undecided: "undecided", Flagged: "flagged"}
	for _, c := range classOrder {
		if n := len(byClass[c]); n > 0 {
			w := textfmt.Plural(n, words[c])
			if c == Undecided || c == Flagged {
				w = strconv.Itoa(n) + " " + words[c]
			}
			out = append(out, w)
		}
	}
	if n := countParts(parts, func(p Part) bool { return p.NotCompared != "" }); n > 0 {
		out = append(out, strconv.Itoa(n)+" not compared")
	}
	if n := countParts(parts, func(p Part) bool { return p.New != "" }); n > 0 {
		out = append(out, textfmt.Plural(n, "new package"))
	}
	if n := restTotal(parts); n > 0 {
		out = append(out, strconv.Itoa(n)+" more")
	}
	if len(out) == 0 {
		return "nothing measured"
	}
	return strings.Join(out, " · ")
}

// countParts counts the packages of parts for which f holds (a package's
// shards count once).
func countParts(parts []Part, f func(Part) bool) int {
	seen := map[string]bool{}
	for _, p := range parts {
		if f(p) {
			seen[p.Package] = true
		}
	}
	return len(seen)
}

// writeNotCompared writes the table of the packages nothing of which was
// compared, with why; nothing when there are none.
func writeNotCompared(b *strings.Builder, parts []Part, short map[string]string) {
	var rows []string
	for _, p := range sortedParts(parts) {
		if p.NotCompared != "" {
			rows = append(rows, "| "+cell(short[p.Package]+shardSuffix(p))+" | "+cell(p.NotCompared)+" |")
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("\n**⊘ Not compared: no base to measure against**\n\n| package | why |\n|---|---|\n")
	b.WriteString(strings.Join(rows, "\n") + "\n")
}

// newPackages lists the packages not at the base, by their short names,
// each once.
func newPackages(parts []Part, short map[string]string) []string {
	var out []string
	for _, p := range sortedParts(parts) {
		if name := "`" + short[p.Package] + "`"; p.New != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// sortEntries orders a section: regressions by Δ, largest first;
// improvements by Δ, most negative first; then, and for the other
// classes, by package and name. An unknown Δ sorts last.
func sortEntries(c Class, es []Entry) {
	key := func(e Entry) float64 {
		switch {
		case e.DeltaPct == nil:
			return math.Inf(1)
		case c == Regression:
			return -*e.DeltaPct
		case c == Improvement:
			return *e.DeltaPct
		}
		return 0
	}
	slices.SortStableFunc(es, func(x, y Entry) int {
		return cmp.Or(cmp.Compare(key(x), key(y)), strings.Compare(x.Package, y.Package), strings.Compare(x.Name, y.Name))
	})
}

// writeTable writes one section's table: the package (short), the
// benchmark, Δ with its interval and the control's (not for flags), and
// why.
func writeTable(b *strings.Builder, c Class, es []Entry, short map[string]string) {
	if c == Flagged {
		b.WriteString("| package | benchmark | flags |\n|---|---|---|\n")
	} else {
		fmt.Fprintf(b, "| package | benchmark | Δ | interval | control | %s |\n|---|---|--:|---|---|---|\n", classHead[c].why)
	}
	for _, e := range es {
		cells := []string{cell(short[e.Package]), "`" + strings.ReplaceAll(cell(e.Name), "`", "'") + "`"}
		if c != Flagged {
			cells = append(cells, textfmt.Pct(val(e.DeltaPct)), textfmt.Interval(val(e.LoPct), val(e.HiPct)),
				textfmt.Interval(val(e.CtlLoPct), val(e.CtlHiPct)))
		}
		cells = append(cells, cell(e.Why))
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}

// restLine counts what no section lists, over every part: "9 same, 2
// only in the base"; "" when nothing.
func restLine(parts []Part) string {
	var out []string
	for _, k := range restOrder {
		n := 0
		for _, p := range parts {
			n += p.Rest[k]
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%d %s", n, k))
		}
	}
	return strings.Join(out, ", ")
}

func restTotal(parts []Part) int {
	n := 0
	for _, p := range parts {
		for _, c := range p.Rest {
			n += c
		}
	}
	return n
}

// writeFailures folds the failed packages' reasons.
func writeFailures(b *strings.Builder, parts []Part, short map[string]string) {
	var lines []string
	for _, p := range sortedParts(parts) {
		for _, f := range p.Failures {
			lines = append(lines, "- "+cell(short[p.Package])+shardSuffix(p)+": "+cell(cut(f, 400)))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>Failures (%d)</summary>\n\n%s\n\n</details>\n", len(lines), strings.Join(lines, "\n"))
}

// writePackages folds one line per part: its package, its shard and its
// counts.
func writePackages(b *strings.Builder, parts []Part) {
	if len(parts) == 0 {
		return
	}
	var lines []string
	for _, p := range sortedParts(parts) {
		lines = append(lines, "- `"+p.Package+"`"+shardSuffix(p)+": "+Headline(p))
	}
	fmt.Fprintf(b, "\n<details><summary>%s</summary>\n\n%s\n\n</details>\n", textfmt.Plural(len(parts), "package"), strings.Join(lines, "\n"))
}

// shardSuffix is " (shard 2/4)" for a part of one shard, " (shards
// 1–4 of 4)" for merged shards, "" for an unsharded one.
func shardSuffix(p Part) string {
	s := p.Shard
	switch {
	case s == nil:
		return ""
	case s.K > 0:
		return fmt.Sprintf(" (shard %d/%d)", s.K, s.N)
	}
	return fmt.Sprintf(" (%s of %d merged)", textfmt.Plural(len(s.Merged), "shard"), s.N)
}

// sortedParts returns parts by package, then shard.
func sortedParts(parts []Part) []Part {
	out := slices.Clone(parts)
	slices.SortStableFunc(out, func(x, y Part) int {
		return cmp.Or(strings.Compare(x.Package, y.Package), cmp.Compare(shardK(x), shardK(y)))
	})
	return out
}

func shardK(p Part) int {
	if p.Shard == nil {
		return 0
	}
	return p.Shard.K
}

// shortNames maps each part's package to its path after the longest
// prefix of whole elements all share, keeping at least the last element
// ("example.com/m/a", "example.com/m/b/c" → "a", "b/c").
func shortNames(parts []Part) map[string]string {
	var common []string
	for i, p := range parts {
		elems := strings.Split(p.Package, "/")
		elems = elems[:len(elems)-1]
		if i == 0 {
			common = elems
			continue
		}
		n := 0
		for n < len(common) && n < len(elems) && common[n] == elems[n] {
			n++
		}
		common = common[:n]
	}
	out := map[string]string{}
	for _, p := range parts {
		elems := strings.Split(p.Package, "/")
		out[p.Package] = strings.Join(elems[min(len(common), len(elems)-1):], "/")
	}
	return out
}

// cell makes s safe inside a Markdown table cell: one line, '|'
// escaped.
func cell(s string) string {
	return strings.ReplaceAll(textfmt.OneLine(s), "|", `\|`)
}

// cut cuts s to n runes, the last "…" when it was longer.
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// val is *p, or NaN for nil.
func val(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
