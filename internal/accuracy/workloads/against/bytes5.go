//go:build against_bytes5

package against

// Extra work of the +5% bytes build: one more allocation per Alloc and
// AllocLive op, of 5% of the op's bytes (480 of 200 × 48), that nothing
// touches.
const (
	extraBytes, extraNodes, extraKeys = 0, 0, 0
	extraAllocBytes                   = allocNodes * 48 / 20
	mutatorBytes, mutatorLiveBytes    = 0, 0
)
