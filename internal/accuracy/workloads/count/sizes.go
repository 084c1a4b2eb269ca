//go:build !count_plus1 && !count_plus5

package count

// The base sizes (see the package doc).
const (
	computeN = 2000
	allocN   = 100
	mapN     = 200
)
