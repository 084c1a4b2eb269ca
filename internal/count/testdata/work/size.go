//go:build !plus5

package work

// size is the elements sum adds in the base build.
const size = 4000
