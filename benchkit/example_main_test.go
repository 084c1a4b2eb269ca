package benchkit_test

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

// Main goes in TestMain. With -bench it prints the hygiene report after the
// benchmarks; without, it only runs the tests. Options set defaults that
// the BENCHKIT_* variables and the -benchkit.* flags override.
func ExampleMain() {
	// In a _test.go file of the package under test (the function must be
	// named TestMain; this one is a variable only to keep the example
	// compilable):
	testMain := func(m *testing.M) {
		benchkit.Main(m,
			benchkit.MainJSON("bench.json"), // or -benchkit.json=bench.json
			benchkit.MainDelta(2),           // size runs-needed for a 2% change
		)
	}
	_ = testMain
}
