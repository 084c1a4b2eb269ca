package textfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Pct formats a signed percentage with two decimals, "+4.93%", or "?"
// when it is not finite.
func Pct(p float64) string {
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", p)
}

// Interval formats an interval's bounds in percent, "[-0.12%, +0.40%]",
// or "no interval" when either is not finite.
func Interval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return "no interval"
	}
	return "[" + Pct(lo) + ", " + Pct(hi) + "]"
}

// Dur formats d rounded to four significant digits, in time.Duration's
// notation: "1.235ms", "412.3µs", "2.5s". Durations of an hour or more
// are rounded to the second.
func Dur(d time.Duration) string {
	for unit := time.Duration(1); unit < time.Hour; unit *= 10 {
		if d < 10000*unit && d > -10000*unit {
			return d.Round(unit).String()
		}
	}
	return d.Round(time.Second).String()
}

// Plural returns "1 round", "2 rounds", "0 rounds"; a word ending in "ch"
// takes "es" ("2 batches").
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "ch") {
		return strconv.Itoa(n) + " " + word + "es"
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// OneLine replaces every control character (newlines, tabs, NUL, DEL) by
// a space and trims leading and trailing space, so that s can never
// break a report line or a benchfmt configuration line.
func OneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}
