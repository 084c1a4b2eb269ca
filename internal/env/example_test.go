package env_test

import (
	"fmt"

	"github.com/benchkit/go-benchkit/internal/env"
)

// Probe once before the benchmarks and print the header and the warnings.
// The values depend on the machine, so this example has no Output.
func ExampleProbe() {
	s := env.Probe()
	for _, f := range s.Facts() {
		fmt.Printf("%s %s\n", f.Name, f.Value)
	}
	for _, w := range s.Warnings() {
		fmt.Printf("warning: %s\n", w.Message)
	}
}

// Sample the contention counters around a piece of work and subtract.
func ExampleReadContention() {
	before := env.ReadContention()
	sum := 0
	for i := range 1_000_000 {
		sum += i
	}
	d := env.ReadContention().Sub(before)
	if d.WaitKnown {
		fmt.Printf("waited %v for a CPU (sum %d)\n", d.RunQueueWait, sum)
	}
}
