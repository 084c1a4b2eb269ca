//go:build against_plus25

package against

// Extra work of the +25% build: 25% of the bytes, of the nodes and of
// the map lookups (64 of 256).
const (
	extraBytes, extraNodes, extraKeys = computeBytes / 4, allocNodes / 4, mapKeys / 4
	extraAllocBytes                   = 0
	mutatorBytes, mutatorLiveBytes    = 0, 0
)
