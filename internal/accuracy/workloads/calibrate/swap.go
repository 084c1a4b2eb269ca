package calibrate

// Buf is the 1 KiB input of the swap pair.
var Buf = func() []byte {
	b := make([]byte, 1024)
	for i := range b {
		b[i] = byte(splitmix(uint64(i)))
	}
	return b
}()

// FNV returns the 64-bit FNV-1a hash of b: one multiply per byte, about
// twenty times slower than [Fold] on 1 KiB.
//
//go:noinline
func FNV(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// Fold returns the xor of b's 8-byte little-endian words: a few
// instructions per 8 bytes.
//
//go:noinline
func Fold(b []byte) uint64 {
	var h uint64
	for len(b) >= 8 {
		h ^= uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		b = b[8:]
	}
	return h
}
