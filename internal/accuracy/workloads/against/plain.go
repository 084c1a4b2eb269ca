//go:build !against_plus2 && !against_plus5

package against

// Extra work of this build: none (the base).
const extraBytes, extraNodes, extraKeys = 0, 0, 0
