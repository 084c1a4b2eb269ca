//go:build count_plus5

package count

// The +5% sizes (see the package doc).
const (
	computeN = 2100
	allocN   = 105
	mapN     = 210
)
