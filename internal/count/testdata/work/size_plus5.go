//go:build plus5

package work

// size is the elements sum adds in the +5% build.
const size = 4200
