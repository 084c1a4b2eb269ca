package testflag

import (
	"flag"
	"strconv"
	"strings"
	"time"
)

// DefaultBenchtime is testing's default -benchtime, and what [Read]
// returns when the flag is absent or cannot be parsed.
const DefaultBenchtime = time.Second

// Benchtime is a parsed -test.benchtime: a duration D, or a fixed
// iteration count N (the "Nx" form). Exactly one of them is non-zero.
type Benchtime struct {
	D time.Duration
	N int
}

// Parse parses the flag's String() form, "1s" or "100x". ok is false for
// a count or duration that is not positive, or text of another form.
func Parse(s string) (bt Benchtime, ok bool) {
	if c, isCount := strings.CutSuffix(s, "x"); isCount {
		n, err := strconv.Atoi(c)
		if err != nil || n <= 0 {
			return Benchtime{}, false
		}
		return Benchtime{N: n}, true
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return Benchtime{}, false
	}
	return Benchtime{D: d}, true
}

// Read returns -test.benchtime from flag.CommandLine, or
// {D: DefaultBenchtime} when the flag is absent or unreadable.
func Read() Benchtime {
	if f := flag.Lookup("test.benchtime"); f != nil {
		if bt, ok := Parse(f.Value.String()); ok {
			return bt
		}
	}
	return Benchtime{D: DefaultBenchtime}
}

// Count returns -test.count from flag.CommandLine, or 1 when the flag is
// absent, unreadable or below 1.
func Count() int {
	f := flag.Lookup("test.count")
	if f == nil {
		return 1
	}
	n, err := strconv.Atoi(f.Value.String())
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// CPUs returns the -test.cpu list from flag.CommandLine as testing parses
// it (comma-separated positive counts, blanks skipped), or nil when the
// flag is absent, empty or invalid (testing exits on an invalid list
// before any benchmark runs). testing runs every benchmark once per value,
// in order, and sets GOMAXPROCS to the value before each run but the very
// first of a benchmark (golang/go#49980).
func CPUs() []int {
	f := flag.Lookup("test.cpu")
	if f == nil {
		return nil
	}
	var out []int
	for v := range strings.SplitSeq(f.Value.String(), ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return nil
		}
		out = append(out, n)
	}
	return out
}

// Value returns the value of the flag named name on fs, or "" when fs
// has no such flag.
func Value(fs *flag.FlagSet, name string) string {
	if f := fs.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// IsSet reports whether the flag named name was set on fs (on the command
// line or with fs.Set), as opposed to left at its default.
func IsSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
