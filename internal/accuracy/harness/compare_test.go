package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const compareOut = `goos: linux
BenchmarkCompare/work=sum-2         	       1	1000000000 ns/op	       100.1 p2/base-%
--- BENCH: BenchmarkCompare/work=sum-2
    bench_test.go:40: control: base 412.3 ns/op; 712 rounds × 120 calls within one process; closure 1.8 ns/op; 97.5% intervals (Bonferroni over 2); seed 1
    bench_test.go:40: control: control   +0.02% [-0.21%, +0.25%] same: noise floor
    bench_test.go:40: control: p2        +1.93% [+1.61%, +2.20%] slower: r
BenchmarkCompare/work=alloc-2       	       1	1000000000 ns/op
control: p5        +9.99% [+9.00%, +11.00%] slower: not under a header
--- BENCH: BenchmarkCompare/work=alloc-2
    bench_test.go:40: control: p2        -0.40% [-0.90%, +0.10%] undecided: r
PASS
`

func TestCompareLines(t *testing.T) {
	got, err := CompareLines([]byte(compareOut))
	require.NoError(t, err)
	assert.Equal(t, []Line{
		{"sum", "control", Estimate{Delta: 0.02, Lo: -0.21, Hi: 0.25, HasCI: true, Verdict: "same"}},
		{"sum", "p2", Estimate{Delta: 1.93, Lo: 1.61, Hi: 2.20, HasCI: true, Verdict: "slower"}},
		{"alloc", "p2", Estimate{Delta: -0.40, Lo: -0.90, Hi: 0.10, HasCI: true, Verdict: "undecided"}},
	}, got, "the unindented line outside a header is skipped")
}

func TestCompareLinesUnreadable(t *testing.T) {
	out := "--- BENCH: BenchmarkCompare/work=sum-2\n    x.go:1: control: p2 +1.2.3% [+1.00%, +2.00%] slower: r\n"
	_, err := CompareLines([]byte(out))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "work=sum p2")
}

func TestCompareLinesNone(t *testing.T) {
	got, err := CompareLines([]byte("PASS\n"))
	require.NoError(t, err)
	assert.Empty(t, got)
}
