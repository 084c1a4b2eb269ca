//go:build against_plus5

package against

// Extra work of the +5% build: 5% of the bytes, of the nodes and of the
// map lookups (13 of 256).
const (
	extraBytes, extraNodes, extraKeys = computeBytes / 20, allocNodes / 20, 13
	extraAllocBytes                   = 0
	mutatorBytes, mutatorLiveBytes    = 0, 0
)
