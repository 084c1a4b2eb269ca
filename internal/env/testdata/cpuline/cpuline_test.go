// Package cpuline has one benchmark, so that its test binary prints go
// test's "cpu:" line; TestGoTestCPUMatchesGoTest compares it with
// env.GoTestCPU.
package cpuline

import "testing"

func BenchmarkNothing(b *testing.B) {
	for b.Loop() {
	}
}
