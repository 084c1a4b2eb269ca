package seed004

import "strings"

// MakeBuffer returns a new zeroed buffer of n bytes; called on its own, the
// buffer escapes to the heap.
func MakeBuffer(n int) []byte {
	return make([]byte, n)
}

// FixtureSize is the size of Process's input, in bytes: large enough that
// the work outweighs a StopTimer/StartTimer pair (about 10 µs).
const FixtureSize = 64 << 10

// BuildFixture returns an n-byte input for Process (n rounded down to a
// multiple of 8).
func BuildFixture(n int) string {
	return strings.Repeat("abcdefgh", n/8)
}

// Process returns s in upper case.
func Process(s string) string {
	return strings.ToUpper(s)
}
