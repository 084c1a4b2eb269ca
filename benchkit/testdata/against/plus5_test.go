//go:build against_plus5

package against

// plusWork makes the base build's BenchmarkWork sum 5% more elements
// (205 of 4096): the +5% change of the against table
// (internal/accuracy/against).
const plusWork = 205
