package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/registry"
)

func TestWrap(t *testing.T) {
	assert.Equal(t, []string{"  short"}, wrap("  short", 20, 4))
	assert.Equal(t, []string{"  one two three four five six"}, wrap("  one two three four five six", 0, 4), "0: no wrapping")
	assert.Equal(t, []string{
		"  a: one two three four five six seven",
		"    eight nine",
	}, wrap("  a: one two three four five six seven eight nine", 40, 4))

	// A table row wraps its last column only, aligned under it, and keeps
	// its double spaces.
	row := "  name  12.0ns  " + strings.Repeat("word ", 20)
	got := wrap(row, 56, 16)
	require.Len(t, got, 3, "%q", got)
	assert.Equal(t, "  name  12.0ns  word word word word word word word word", got[0])
	assert.Equal(t, strings.Repeat(" ", 16)+"word word word word word word word word", got[1])
	assert.Equal(t, []string{"  a  b  c " + strings.Repeat("x ", 15) + "x", "          y  z"},
		wrap("  a  b  c "+strings.Repeat("x ", 16)+" y  z", 42, 10), "double spaces are kept, a space at the break is dropped")

	// A word longer than the room is never split: it takes its own line.
	long := strings.Repeat("x", 50)
	assert.Equal(t, []string{"  ab", "    " + long, "    cd"}, wrap("  ab "+long+" cd", 40, 4))
	assert.Equal(t, []string{"  " + long, strings.Repeat(" ", 20) + "ab"}, wrap("  "+long+" ab", 40, 20), "nor is a word the hang cuts")

	// A hang too deep for the width keeps MinWrapRoom runes of room.
	deep := wrap(strings.Repeat("c", 150)+" "+strings.Repeat("w ", 40), 160, 151)
	for _, l := range deep[1:] {
		assert.LessOrEqual(t, width(l), 151+MinWrapRoom)
		assert.True(t, strings.HasPrefix(l, strings.Repeat(" ", 151)+"w"), "%q", l)
	}
}

// words returns the words of a text report, without the prefixes: what
// wrapping must keep, in order.
func words(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, strings.Fields(strings.TrimPrefix(l, strings.TrimRight(Prefix, " ")))...)
	}
	return out
}

// TestTextLineWidth: every physical line of the report holds at most
// LineWidth runes after the prefix and starts with it; wrapping moves no
// word and splits none; a table row too wide wraps its last column under
// that column. The quoted output of a failed process is left as printed.
func TestTextLineWidth(t *testing.T) {
	in := fixture()
	in.Benches = append(in.Benches, busySuite(5)...)
	in.Against = againstFixture()
	in.Against.Failures[0].Output = "--- FAIL: BenchmarkOld\n    " + strings.Repeat("quoted output ", 20) + "\n"
	text := render(t, in)
	verbatim := strings.TrimRight("          "+strings.Repeat("quoted output ", 20), " ")
	for _, l := range strings.Split(strings.TrimSuffix(text+renderCompact(t, in), "\n"), "\n") {
		require.True(t, strings.HasPrefix(l, strings.TrimRight(Prefix, " ")), "%q", l)
		if strings.TrimPrefix(l, Prefix) == verbatim {
			continue
		}
		assert.LessOrEqual(t, width(strings.TrimPrefix(l, Prefix)), LineWidth, "%q", l)
	}
	assert.Equal(t, words(renderFlat(t, in)), words(text), "wrapping changes only the line breaks")
	assert.Contains(t, text, Prefix+verbatim)

	// The against row's verdict continues under the verdict column.
	lines := strings.Split(text, "\n")
	head := lineWith(t, text, "benchmark", "base/op", "verdict")
	col := width(head[:strings.Index(head, "verdict")])
	for i, l := range lines {
		if strings.HasPrefix(l, Prefix+"  Work-2 ") {
			next := lines[i+1]
			assert.Equal(t, strings.Repeat(" ", col-width(Prefix)), strings.TrimPrefix(next, Prefix)[:col-width(Prefix)], "%q", next)
			assert.NotEqual(t, " ", next[len(Prefix)+col-width(Prefix):][:1], "%q", next)
		}
	}
}

// TestTextLineWidthFlags: a benchmark row whose flags reach beyond the
// width wraps them under the flags column.
func TestTextLineWidthFlags(t *testing.T) {
	var fs []registry.Flag
	for _, k := range []registry.FlagKind{registry.FlagEliminated, registry.FlagAllocs, registry.FlagTimerToggling, registry.FlagSetupCost, registry.FlagMisuse} {
		fs = append(fs, registry.Flag{Kind: k, Message: "benchkit: m", Count: 1})
	}
	in := Input{Benches: []registry.Bench{{Name: "BenchmarkAVeryLongBenchmarkName/with=sub/and=more/and=even/more-2", Runs: runs(2, 0.01, 100, 101, 99, 100), TotalRuns: 4, Flags: fs}}}
	text := render(t, in)
	row := lineWith(t, text, "AVeryLongBenchmarkName", "4 runs")
	head := lineWith(t, text, "benchmark", "samples", "flags")
	col := width(head[:strings.Index(head, "flags")])
	assert.Equal(t, col, width(row[:strings.Index(row, "eliminated")]))
	next := strings.Split(text[strings.Index(text, row)+len(row)+1:], "\n")[0]
	assert.Equal(t, col, width(next)-width(strings.TrimLeft(strings.TrimPrefix(next, Prefix), " ")), "%q", next)
}
