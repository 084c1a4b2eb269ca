//go:build against_plus2

package against

// Extra work of the +2% build: 2% of the bytes, of the nodes and of the
// map lookups (5 of 256).
const (
	extraBytes, extraNodes, extraKeys = computeBytes / 50, allocNodes / 50, 5
	extraAllocBytes                   = 0
	mutatorBytes, mutatorLiveBytes    = 0, 0
)
