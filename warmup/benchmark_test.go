package warmup_test

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/warmup"
)

// setBenchtime sets -test.benchtime for the duration of the test.
func setBenchtime(t *testing.T, v string) {
	f := flag.Lookup("test.benchtime")
	require.NotNil(t, f, "testing's flags are not registered")
	old := f.Value.String()
	require.NoError(t, flag.Set("test.benchtime", v))
	t.Cleanup(func() { _ = flag.Set("test.benchtime", old) })
}

func TestBenchmarkHonoursCountBenchtime(t *testing.T) {
	for _, tt := range []struct {
		benchtime string
		n         int
	}{{"1x", 1}, {"250x", 250}} {
		t.Run(tt.benchtime, func(t *testing.T) {
			setBenchtime(t, tt.benchtime)
			r := testing.Benchmark(warmup.Benchmark)
			assert.Equal(t, tt.n, r.N)
			assert.Positive(t, r.T)
			assert.Empty(t, r.Extra, "the warm-up line reports no metric beyond ns/op")
		})
	}
}

func TestBenchmarkAllocatesOnlyItsInput(t *testing.T) {
	setBenchtime(t, "1000x")
	r := testing.Benchmark(warmup.Benchmark)
	// One 8 KiB slice for the whole run, amortised over 1000 iterations.
	assert.Zero(t, r.AllocsPerOp())
	assert.LessOrEqual(t, r.MemAllocs, uint64(2))
}

// BenchmarkWarmup is the usage the docs recommend; the CI smoke run
// executes it under -benchtime=1x.
func BenchmarkWarmup(b *testing.B) { warmup.Benchmark(b) }
