package harness

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const plainOut = `goos: linux
BenchmarkPlain/work=sum/impl=base-2   	 1000	       100.0 ns/op
BenchmarkPlain/work=sum/impl=p5-2     	 1000	       105.0 ns/op
BenchmarkPlain/work=sum/impl=base-2   	 1000	       102.0 ns/op
BenchmarkPlain/work=sum-2             	 1000	       999.0 ns/op
BenchmarkOther-2                      	 1000	       999.0 ns/op
PASS
`

func TestPlainSamples(t *testing.T) {
	got, err := PlainSamples([]byte(plainOut))
	require.NoError(t, err)
	assert.Len(t, got, 2, "results with one or no name part are skipped")
	assert.InDeltaSlice(t, []float64{100e-9, 102e-9}, got[WorkImpl{"sum", "base"}], 1e-15, "sec/op in seconds, in output order")
	assert.InDeltaSlice(t, []float64{105e-9}, got[WorkImpl{"sum", "p5"}], 1e-15)
}

func TestNameParts(t *testing.T) {
	got, err := PlainSamples([]byte(strings.ReplaceAll(plainOut, "-2 ", " ")))
	require.NoError(t, err)
	assert.Len(t, got, 2, "names without a -GOMAXPROCS suffix read the same")
}

// ramp returns n samples from lo in steps of step.
func ramp(n int, lo, step float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = lo + float64(i)*step
	}
	return xs
}

func TestComparePlain(t *testing.T) {
	base := ramp(10, 100, 1) // median 104.5
	for _, tc := range []struct {
		name    string
		xs      []float64
		delta   float64
		verdict string
	}{
		{"identical", ramp(10, 100, 1), 0, "same"},
		{"all above", ramp(10, 200, 1), (204.5/104.5 - 1) * 100, "slower"},
		{"all below", ramp(10, 50, 1), (54.5/104.5 - 1) * 100, "faster"},
		{"interleaved", ramp(10, 100.5, 1), (105.0/104.5 - 1) * 100, "same"},
	} {
		got := ComparePlain(base, tc.xs)
		assert.InDelta(t, tc.delta, got.Delta, 1e-9, tc.name)
		assert.Equal(t, tc.verdict, got.Verdict, tc.name)
		assert.False(t, got.HasCI, tc.name)
	}
	assert.Equal(t, ramp(10, 100, 1), base, "base is not modified")
}
