//go:build count_plus1 && !count_plus5

package count

// The +1% sizes (see the package doc).
const (
	computeN = 2020
	allocN   = 101
	mapN     = 202
)
