package benchkit_test

import (
	"fmt"
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
			benchkit.MainRunsNeededFor(2),   // size runs-needed for a 2% change
		)
	}
	_ = testMain
}

// fakeTests stands in for the *testing.M that TestMain receives: any type
// with a Run() int method is a benchkit.M.
type fakeTests struct{}

func (fakeTests) Run() int {
	fmt.Println("tests and benchmarks ran; one test failed")
	return 1
}

// Run is Main without os.Exit: it returns the exit code, so that a
// TestMain can tear down what it set up before exiting, whether the tests
// passed or failed (the code is m.Run's when it is not 0). In a real
// TestMain, m is the *testing.M:
//
//	func TestMain(m *testing.M) {
//		srv := startServer()
//		code := benchkit.Run(m)
//		srv.Close()
//		os.Exit(code)
//	}
func ExampleRun() {
	code := benchkit.Run(fakeTests{},
		benchkit.MainWarmup(0),                  // under -bench, no warm-up here
		benchkit.MainReport(benchkit.ReportOff), // and no report on this example's stdout
	)
	fmt.Println("teardown, then os.Exit with code", code)
	// Output:
	// tests and benchmarks ran; one test failed
	// teardown, then os.Exit with code 1
}
