package testingb

import (
	"flag"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFirstRunAndName: testing.Benchmark's B has no parent and no name;
// one made by b.Run has both.
func TestFirstRunAndName(t *testing.T) {
	var top, sub, topOK, subOK bool
	var topName, subName string
	testing.Benchmark(func(b *testing.B) {
		top, topOK = FirstRun(b)
		topName = Name(b)
		b.Run("sub", func(b *testing.B) {
			sub, subOK = FirstRun(b)
			subName = Name(b)
		})
	})
	assert.True(t, topOK && subOK)
	assert.False(t, top, "testing.Benchmark's B has no parent")
	assert.True(t, sub, "b.Run's B has one")
	assert.Regexp(t, `^testing\.Benchmark\(testingb\.TestFirstRunAndName\.func\d+\)$`, topName)
	// testing gives the sub-benchmarks of testing.Benchmark no name either.
	assert.Regexp(t, `^testing\.Benchmark\(testingb\.TestFirstRunAndName\.func\d+\.\d+\)$`, subName)
}

// TestProcs: the B made by b.Run is printed under the first -cpu value,
// whatever GOMAXPROCS is when its first call runs; testing.Benchmark's
// B under GOMAXPROCS now.
func TestProcs(t *testing.T) {
	f := flag.Lookup("test.cpu")
	if f == nil {
		t.Skip("no test.cpu flag")
	}
	old := f.Value.String()
	require.NoError(t, f.Value.Set("3,1"))
	defer func() { _ = f.Value.Set(old) }()
	var top, sub, stale int
	testing.Benchmark(func(b *testing.B) {
		top = Procs(b)
		b.Run("sub", func(b *testing.B) {
			sub = Procs(b)
			stale = Stale(sub)
		})
	})
	assert.Equal(t, runtime.GOMAXPROCS(0), top)
	assert.Equal(t, 3, sub)
	if runtime.GOMAXPROCS(0) != 3 {
		assert.Equal(t, runtime.GOMAXPROCS(0), stale, "measured at GOMAXPROCS now, printed under 3")
	}
	assert.Zero(t, Stale(runtime.GOMAXPROCS(0)))
}

// TestBenchmarkNames: the top-level benchmarks of a testing.M, and nil
// for anything else.
func TestBenchmarkNames(t *testing.T) {
	assert.Contains(t, BenchmarkNames(mainM), "BenchmarkNamed", "this package's own benchmark, from its TestMain's m")
	assert.Nil(t, BenchmarkNames(struct{}{}))
	assert.Nil(t, BenchmarkNames((*testing.M)(nil)))
}

// mainM is this test binary's testing.M.
var mainM *testing.M

func TestMain(m *testing.M) {
	mainM = m
	os.Exit(m.Run())
}

// BenchmarkNamed exists for TestBenchmarkNames to find.
func BenchmarkNamed(b *testing.B) {
	for b.Loop() {
	}
}
