package benchname

import (
	"slices"
	"strconv"
	"strings"
)

// Printed returns name as testing prints it for a run at GOMAXPROCS procs:
// name, then "-P" when procs is above 1. procs 0 means unknown and adds
// nothing.
func Printed(name string, procs int) string {
	if procs > 1 {
		return name + "-" + strconv.Itoa(procs)
	}
	return name
}

// Display returns a recorded benchmark's name for a report: without the
// "Benchmark" prefix, and with the "-P" of procs when the name does not
// end with it already. benchkit keys its records by the printed name, so
// a key is shown as it is; a name recorded without its suffix gets it.
func Display(name string, procs int) string {
	d := Short(name)
	if suffix := "-" + strconv.Itoa(procs); procs > 1 && !strings.HasSuffix(d, suffix) {
		d += suffix
	}
	return d
}

// Short returns name without its "Benchmark" prefix; "Benchmark" alone,
// and a name without the prefix, stay as they are.
func Short(name string) string {
	if d := strings.TrimPrefix(name, "Benchmark"); d != "" {
		return d
	}
	return name
}

// Trim returns a printed name without its "-P" suffix when P is one of
// procs and above 1 (testing prints none for 1): the name b.Name() and a
// -test.bench filter use. A trailing "-N" whose N is not one of procs is
// part of the name.
func Trim(printed string, procs ...int) string {
	if p := suffix(printed); p > 1 && slices.Contains(procs, p) {
		return printed[:strings.LastIndexByte(printed, '-')]
	}
	return printed
}

// Procs returns the GOMAXPROCS value a printed name was run at, given the
// values its runs could have had (-test.cpu's, or GOMAXPROCS): the "-P"
// suffix when P is one of them and above 1, else 1 when 1 is one of them,
// else the first; 0 when procs is empty.
func Procs(printed string, procs []int) int {
	if p := suffix(printed); p > 1 && slices.Contains(procs, p) {
		return p
	}
	switch {
	case slices.Contains(procs, 1):
		return 1
	case len(procs) > 0:
		return procs[0]
	}
	return 0
}

// suffix returns the number after a printed name's last dash, 0 when
// there is none or it is not a number.
func suffix(printed string) int {
	i := strings.LastIndexByte(printed, '-')
	if i < 0 {
		return 0
	}
	p, err := strconv.Atoi(printed[i+1:])
	if err != nil || strings.HasPrefix(printed[i+1:], "+") {
		return 0
	}
	return p
}

// TopLevel returns the top-level benchmark function of a name, printed or
// not, with or without the "Benchmark" prefix ("BenchmarkSum/n=10-2" →
// "BenchmarkSum", "Sum-2" → "Sum"): Go identifiers contain neither '/'
// nor '-'.
func TopLevel(name string) string {
	if i := strings.IndexAny(name, "/-"); i >= 0 {
		return name[:i]
	}
	return name
}
