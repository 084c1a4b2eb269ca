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
// what the message should say about it. An instruction valgrind cannot
// decode is [illegalInstruction]'s.
var problems = []struct{ sign, say string }{
	{"Valgrind's memory management: out of memory", "valgrind ran out of memory: count with a smaller budget"},
	{"the 'impossible' happened", "valgrind crashed: count on a newer valgrind"},
	{"Assertion", "valgrind failed an internal check: count on a newer valgrind"},
}

// diagnose returns what valgrind's log text, or the process's output
// (stdout and stderr), says went wrong, or "".
func diagnose(logText, output string) string {
	if d := illegalInstruction(logText, output); d != "" {
		return d
	}
	for _, p := range problems {
		if strings.Contains(logText, p.sign) {
			return p.say
		}
	}
	return ""
}

// Where the bytes of an illegal instruction are printed: valgrind's log
// for one it cannot decode,
//
//	==12345== vex amd64->IR: unhandled instruction bytes: 0xF 0x1 0xF9 0x48
//
// and the Go runtime's report of a SIGILL, on the process's stderr,
//
//	instruction bytes: 0xf 0x1 0xf9 0x48 0xc1
var (
	unhandledBytes = regexp.MustCompile(`unhandled instruction bytes:((?:[ \t]+0x[0-9A-Fa-f]{1,2})+)`)
	goSIGILLBytes  = regexp.MustCompile(`(?m)^instruction bytes:((?:[ \t]+0x[0-9A-Fa-f]{1,2})+)`)
)

// featureInstructions are instructions of a CPU feature the Go runtime
// chooses at run time, by their first bytes, with the GODEBUG setting
// that turns the feature off.
var featureInstructions = []struct{ bytes, name, setting string }{
	{"0F 01 F9", "RDTSCP", "cpu.rdtscp=off"},
}

// illegalInstruction says which instruction the process could not
// execute, from the bytes valgrind's log or the Go runtime's SIGILL
// report gives (the first 10), with what may avoid it; "" when neither
// has any. valgrind presents a fixed CPU model whose features need not
// be this CPU's, so the instruction may be one that code choosing by CPU
// feature (the Go runtime, a library's assembly) does not execute
// natively here: a GODEBUG=cpu.<feature>=off setting (the count passes
// the caller's GODEBUG on) then keeps it off that path.
func illegalInstruction(logText, output string) string {
	what := "valgrind cannot decode an instruction the process executes"
	m := unhandledBytes.FindStringSubmatch(logText)
	if m == nil {
		if m = goSIGILLBytes.FindStringSubmatch(output); m == nil {
			return ""
		}
		what = "the process died of SIGILL (an illegal instruction) under valgrind"
	}
	fields := strings.Fields(m[1])
	fields = fields[:min(len(fields), 10)]
	bytes := make([]string, 0, len(fields))
	for _, f := range fields {
		v, _ := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(f), "0x"), 16, 8)
		bytes = append(bytes, fmt.Sprintf("%02X", v))
	}
	hex := strings.Join(bytes, " ")
	avoid := "a GODEBUG=cpu.<feature>=off setting for the run (the Go runtime's features on x86: $(go env GOROOT)/src/internal/cpu/cpu_x86.go) may avoid it"
	for _, fi := range featureInstructions {
		if strings.HasPrefix(hex, fi.bytes) {
			what += " (" + fi.name + ")"
			avoid = "GODEBUG=" + fi.setting + " for the run may avoid it"
		}
	}
	return fmt.Sprintf("%s, bytes %s: valgrind presents a fixed CPU model whose features need not be this CPU's, "+
		"so code that picks instructions by CPU feature (the Go runtime, assembly) can take a path it does not take natively; %s; "+
		"else the instruction is one this valgrind does not emulate: count on a newer valgrind, or this benchmark cannot be counted", what, hex, avoid)
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
