package child

import (
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkListedA and BenchmarkListedB are what TestListBenchmarks
// finds in this test binary.
func BenchmarkListedA(b *testing.B) {
	for b.Loop() {
	}
}

func BenchmarkListedB(b *testing.B) {
	for b.Loop() {
	}
}

func TestListBenchmarks(t *testing.T) {
	names, err := ListBenchmarks(Spec{Path: os.Args[0], Timeout: time.Minute})
	require.NoError(t, err)
	assert.Equal(t, []string{"BenchmarkListedA", "BenchmarkListedB"}, names, "the benchmarks only, in order")

	_, err = ListBenchmarks(Spec{Path: os.Args[0], Timeout: time.Nanosecond})
	assert.ErrorContains(t, err, "listing the benchmarks of "+os.Args[0])
}

// TestTopFilter: the filter selects exactly the given top-level names
// (never a longer name, never one with metacharacters read as such),
// keeps the pattern's deeper levels, and with no names selects none.
func TestTopFilter(t *testing.T) {
	for _, tc := range []struct {
		bench string
		tops  []string
		want  string
	}{
		{".", []string{"BenchmarkA", "BenchmarkB"}, "^(BenchmarkA|BenchmarkB)$"},
		{"Sum/n=1$", []string{"BenchmarkSum"}, "^(BenchmarkSum)$/n=1$"},
		{"(A|B)/x/y", []string{"BenchmarkA"}, "^(BenchmarkA)$/x/y"},
		{".", nil, "^$"},
	} {
		assert.Equal(t, tc.want, TopFilter(tc.bench, tc.tops), "bench %q", tc.bench)
	}
	f := TopFilter(".", []string{"BenchmarkA", "BenchmarkB"})
	for name, want := range map[string]bool{"BenchmarkA": true, "BenchmarkA/x": true, "BenchmarkB": true, "BenchmarkAB": false, "BenchmarkC": false} {
		assert.Equal(t, want, Selects(f, "", name), name)
	}
	assert.False(t, Selects(TopFilter(".", nil), "", "BenchmarkA"))
	assert.True(t, Selects(TopFilter("A/x$", []string{"BenchmarkA"}), "", "BenchmarkA/x"))
	assert.False(t, Selects(TopFilter("A/x$", []string{"BenchmarkA"}), "", "BenchmarkA/y"))
	_, err := regexp.Compile(SplitPattern(f)[0])
	assert.NoError(t, err)
}
