//go:build !race

package stats

// raceEnabled reports whether the tests run under -race.
const raceEnabled = false
