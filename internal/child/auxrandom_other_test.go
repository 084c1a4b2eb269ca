//go:build !linux

package child

// auxRandomNow is unavailable where AT_RANDOM cannot be set.
func auxRandomNow() string { return "" }
