//go:build !against_plus5

package against

// plusWork is the extra work of the base build's BenchmarkWork: none.
const plusWork = 0
