//go:build against_plus2

package against

// Extra work of the +2% build: 2% of the bytes and of the nodes.
const extraBytes, extraNodes = computeBytes / 50, allocNodes / 50
