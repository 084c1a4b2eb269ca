package calibrate

import (
	"slices"
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/examples/seed000"
)

// TestWork checks the inputs and results the package doc promises: every
// lookup hits, sorting sorts and leaves its input alone, the words are
// distinct and 8 to 15 bytes long, and the variants read longer prefixes.
// TestSortComparisons checks the sort variants' sizes.
func TestWork(t *testing.T) {
	for _, s := range []Sizes{SumSizes, AllocSizes, MapSizes, SortSizes} {
		if !(s.Base < s.P2 && s.P2 < s.P5 && s.P5 < s.P10) {
			t.Errorf("sizes %+v: want base < p2 < p5 < p10", s)
		}
	}
	if len(Table) != MapEntries {
		t.Errorf("Table has %d entries, want %d", len(Table), MapEntries)
	}
	for i, k := range Keys {
		if _, ok := Table[k]; !ok {
			t.Fatalf("Keys[%d] = %#x is not in Table", i, k)
		}
	}
	seen := map[string]bool{}
	for _, w := range Words {
		if len(w) < 8 || len(w) > 15 || seen[w] {
			t.Errorf("word %q: want 8 to 15 bytes, distinct", w)
		}
		seen[w] = true
	}
	in := slices.Clone(Words[:SortSizes.Base])
	out := SortCopy(in)
	if !slices.IsSorted(out) || !slices.Equal(in, Words[:SortSizes.Base]) {
		t.Errorf("SortCopy: sorted %v, input kept %v; want true, true", slices.IsSorted(out), slices.Equal(in, Words[:SortSizes.Base]))
	}
	if got := seed000.Alloc(3); got != 64 {
		t.Errorf("seed000.Alloc(3) = %d, want 64", got)
	}
	if got, want := seed000.Sum(Xs[:2]), Xs[0]+Xs[1]; got != want {
		t.Errorf("seed000.Sum(Xs[:2]) = %d, want %d", got, want)
	}
}

// comparisons returns how many comparisons slices.Sort makes on a copy of
// ws (it sorts with the same algorithm as slices.SortFunc).
func comparisons(ws []string) int {
	n := 0
	slices.SortFunc(slices.Clone(ws), func(a, b string) int { n++; return strings.Compare(a, b) })
	return n
}

// TestSortComparisons checks that the sort variants make more comparisons
// than base, within about a point or two of their nominal sizes (see
// the package doc). If a new Go release changes slices.Sort and this
// fails, pick a new WordSeed by the rule WordSeed's doc states.
func TestSortComparisons(t *testing.T) {
	base := float64(comparisons(Words[:SortSizes.Base]))
	for _, tc := range []struct {
		name   string
		n      int
		lo, hi float64 // percent more comparisons than base
	}{
		{"p2", SortSizes.P2, 1, 3},
		{"p5", SortSizes.P5, 4, 7},
		{"p10", SortSizes.P10, 8, 12},
	} {
		got := (float64(comparisons(Words[:tc.n]))/base - 1) * 100
		if got < tc.lo || got > tc.hi {
			t.Errorf("%s: %d strings take %+.1f%% comparisons over %d, want %+.0f%% to %+.0f%%", tc.name, tc.n, got, SortSizes.Base, tc.lo, tc.hi)
		}
	}
}
