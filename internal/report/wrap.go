package report

import "strings"

// LineWidth is the most visible characters (runes) a line of the text
// report holds after [Prefix]. A longer line is wrapped at spaces onto
// continuation lines, each starting with the prefix: free text with a
// hanging indent two deeper than its own, a table row in its last column
// only, aligned under it.
const LineWidth = 160

// MinWrapRoom is the least room, in runes, that wrapping keeps for the
// text after the hanging indent: a table row whose other columns reach
// beyond LineWidth − MinWrapRoom is wider than LineWidth.
const MinWrapRoom = 32

// wrap splits s, a report line without the prefix, into lines of at most
// cols runes (at most hang + MinWrapRoom when that is more). The first
// hang runes of s stay whole on the first line; the rest is broken at
// spaces only, so that no number or word is split, and every continuation
// line is indented by hang spaces. A word longer than the room takes a
// line of its own, longer than cols. cols ≤ 0 leaves s whole.
func wrap(s string, cols, hang int) []string {
	rs := []rune(s)
	if cols <= 0 || len(rs) <= cols || hang >= len(rs) {
		return []string{s}
	}
	limit := max(cols, hang+MinWrapRoom)
	words := strings.Split(string(rs[hang:]), " ")
	var out []string
	var cur strings.Builder
	cur.WriteString(string(rs[:hang]) + words[0])
	n := hang + width(words[0])
	for _, w := range words[1:] {
		switch {
		case n+1+width(w) <= limit:
			cur.WriteString(" " + w)
			n += 1 + width(w)
		case w == "":
			// A space where the line breaks is dropped.
		default:
			out = append(out, strings.TrimRight(cur.String(), " "))
			cur.Reset()
			cur.WriteString(strings.Repeat(" ", hang) + w)
			n = hang + width(w)
		}
	}
	return append(out, strings.TrimRight(cur.String(), " "))
}

// hangOf is the hanging indent of a free-text line: its leading spaces
// and two more.
func hangOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) + 2 }
