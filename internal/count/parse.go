package count

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// irefsLine matches the summary line cachegrind prints at exit,
//
//	==12345== I   refs:      222,451,087
//
// capturing the process id and the count, written with ',' between
// groups of three digits.
var irefsLine = regexp.MustCompile(`^==(\d+)==\s+I\s+refs:\s+(\S+)\s*$`)

// digitGroups matches a count with optional ',' thousands separators.
var digitGroups = regexp.MustCompile(`^\d{1,3}(,\d{3})*$|^\d+$`)

// ParseIRefs returns the instruction count of the "I refs" line of
// cachegrind's summary in text (valgrind's log). It is an error when
// there is no such line, when the count is not a whole number (with ','
// separating groups of three digits, or none), when it overflows int64,
// or when two lines of different processes give different counts.
func ParseIRefs(text string) (int64, error) {
	var (
		found bool
		total int64
		pid   string
	)
	for line := range strings.Lines(text) {
		m := irefsLine.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
		if m == nil {
			continue
		}
		if !digitGroups.MatchString(m[2]) {
			return 0, fmt.Errorf("count: valgrind's \"I refs\" line holds %q, not a whole number", m[2])
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(m[2], ",", ""), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("count: valgrind's \"I refs\" count %s: %w", m[2], err)
		}
		if found && (m[1] != pid || n != total) {
			return 0, fmt.Errorf("count: valgrind's log has two \"I refs\" lines (process %s: %d, process %s: %d); count one process", pid, total, m[1], n)
		}
		found, total, pid = true, n, m[1]
	}
	if !found {
		return 0, errors.New("count: valgrind's log has no \"I refs\" line: cachegrind did not finish its summary")
	}
	return total, nil
}

// problems are what valgrind prints when it cannot run a program, with
// what the message should say about it.
var problems = []struct{ sign, say string }{
	{"unhandled instruction bytes", "valgrind cannot decode an instruction the binary executes (assembly or a CPU feature this valgrind does not emulate): count on a newer valgrind, or this benchmark cannot be counted"},
	{"Valgrind's memory management: out of memory", "valgrind ran out of memory: count with a smaller budget"},
	{"the 'impossible' happened", "valgrind crashed: count on a newer valgrind"},
	{"Assertion", "valgrind failed an internal check: count on a newer valgrind"},
}

// diagnose returns what the valgrind log text says went wrong, or "".
func diagnose(text string) string {
	for _, p := range problems {
		if strings.Contains(text, p.sign) {
			return p.say
		}
	}
	return ""
}

// resultLine finds the result line go test prints for the benchmark named
// name at N = n in stdout ("BenchmarkX 	 1002	 80152 ns/op	 64 B/op	 1 allocs/op")
// and returns its B/op, or -1 when the line has none. ok is false when no
// line has that name (with no -procs suffix: the processes run at
// -test.cpu=1) and n iterations.
func resultLine(stdout, name string, n int) (bytesPerOp float64, ok bool) {
	want := strconv.Itoa(n)
	for line := range strings.Lines(stdout) {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != name || f[1] != want {
			continue
		}
		bytesPerOp = -1
		for i := 2; i+1 < len(f); i++ {
			if f[i+1] == "B/op" {
				if v, err := strconv.ParseFloat(f[i], 64); err == nil && v >= 0 && !math.IsInf(v, 0) {
					bytesPerOp = v
				}
			}
		}
		return bytesPerOp, true
	}
	return -1, false
}
