//go:build against_plus5

package against

// Extra work of the +5% build: 5% of the bytes and of the nodes.
const extraBytes, extraNodes = computeBytes / 20, allocNodes / 20
