//go:build against_x2

package against

// Extra work of the 2× build: as many bytes, nodes and map lookups again.
const (
	extraBytes, extraNodes, extraKeys = computeBytes, allocNodes, mapKeys
	extraAllocBytes                   = 0
	mutatorBytes, mutatorLiveBytes    = 0, 0
)
