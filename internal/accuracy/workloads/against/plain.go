//go:build !against_plus2 && !against_plus5 && !against_plus25 && !against_x2 && !against_bytes5 && !against_mutator5

package against

// Extra work of this build: none (the base).
const (
	extraBytes, extraNodes, extraKeys = 0, 0, 0
	extraAllocBytes                   = 0
	mutatorBytes, mutatorLiveBytes    = 0, 0
)
