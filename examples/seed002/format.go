// Package seed002 reproduces seed 002's comparison ("Compare Benchmark Runs
// in Go With benchstat Properly"): formatting an int with fmt.Sprintf
// against strconv.Itoa. The seed builds the two versions behind a build
// tag and compares two go test runs with benchstat; here control.Compare
// measures both in one benchmark, interleaved, next to a control copy of
// the baseline, which is the "no change" row the seed ran by hand.
package seed002

import (
	"fmt"
	"strconv"
)

// FormatSprintf is the old implementation.
func FormatSprintf(n int) string { return fmt.Sprintf("%d", n) }

// FormatItoa is the new implementation.
func FormatItoa(n int) string { return strconv.Itoa(n) }
