//go:build against_mutator5

package against

// Extra work of the +5% mutator build: FNV over 250 bytes per Alloc op
// and 400 per AllocLive op (about 5% of each op's time, see the package
// doc), allocating nothing.
const (
	extraBytes, extraNodes, extraKeys = 0, 0, 0
	extraAllocBytes                   = 0
	mutatorBytes, mutatorLiveBytes    = 250, 400
)
