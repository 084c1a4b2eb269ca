package env

import "testing"

// BenchmarkProbe measures the cost of one full environment probe.
func BenchmarkProbe(b *testing.B) {
	for b.Loop() {
		Probe()
	}
}

// BenchmarkReadContention measures one contention sample (schedstat of
// every thread, getrusage, /proc/stat).
func BenchmarkReadContention(b *testing.B) {
	for b.Loop() {
		ReadContention()
	}
}
