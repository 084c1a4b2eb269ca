package against

import (
	"bufio"
	"bytes"
	"regexp"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/child"
	"golang.org/x/perf/benchfmt"
)

// output is what a process's stdout says: the results testing printed,
// by name as printed (without "Benchmark", with the -procs suffix), and
// the names whose results cannot be taken, with why.
type output struct {
	results map[string]measurement
	bad     map[string]string
}

// Lines in testing's result format: the name padded and a tab, b.N and a
// tab ("BenchmarkSum-2   \t 1000\t  5883 ns/op"); anything else that
// reads as a result (one that is not tab-separated, or the remains of a
// line something printed into) did not come from testing.
var (
	genuineRE  = regexp.MustCompile(`^Benchmark(\S+)\s*\t\s*\d+\t`)
	lookLikeRE = regexp.MustCompile(`^Benchmark(\S+)\s+\d+\s+[-+.\de]+ \S+`)
	orphanRE   = regexp.MustCompile(`^\s+\d+\t\s*[-+.\de]+ ns/op`)
	nameLineRE = regexp.MustCompile(`^Benchmark(\S+)\s*\t`)
)

// parseOutput reads a go test -bench output with benchfmt: ns/op, and
// allocs/op and B/op when both were printed. A process runs each
// selected benchmark once, so it rejects, with the reason, a name that
// has two results, a result for a benchmark the process did not select
// (sel), a result line not in testing's format, and a name whose result
// line something printed into: a benchmark that writes to stdout can
// make a line that looks like a result, and it must never be taken for
// one. Only the benchmarks' part of the output is read ([benchmarkPart]):
// a line in testing's format that TestMain prints before or after m.Run
// is no benchmark's. Lines benchfmt cannot read (a panic's half-printed
// line) are skipped.
func parseOutput(out []byte, sel selection) output {
	o := output{results: map[string]measurement{}, bad: map[string]string{}}
	out = benchmarkPart(out)
	genuine := checkLines(out, o.bad)
	r := benchfmt.NewReader(bytes.NewReader(out), "output")
	for r.Scan() {
		rec, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		ns, ok := nsPerOp(rec)
		if !ok {
			continue
		}
		name := rec.Name.String()
		switch _, dup := o.results[name]; {
		case dup:
			o.bad[name] = "it printed two result lines for " + name + " in one run of -count=1"
		case !genuine[name]:
			if _, said := o.bad[name]; !said {
				o.bad[name] = "a line that looks like a result for " + name + " is not in testing's format"
			}
		case !sel.selects(name):
			o.bad[name] = "it printed a result for " + name + ", which its -bench and -skip did not select"
		}
		m := measurement{ns: ns, allocs: -1, bytes: -1, iters: rec.Iters}
		a, okA := rec.Value("allocs/op")
		b, okB := rec.Value("B/op")
		if okA && okB {
			m.allocs, m.bytes = a, b
		}
		o.results[name] = m
	}
	for name := range o.bad {
		delete(o.results, name)
	}
	return o
}

// benchmarkPart returns the part of a test binary's output that its
// benchmarks printed: from testing's header (the "goos:" line it prints
// before the first benchmark) to the last line "PASS" or "FAIL" (the
// summary m.Run prints when it ends), or to the end when there is none
// (the process died). Without a header, no benchmark ran: nil.
func benchmarkPart(out []byte) []byte {
	start := bytes.Index(out, []byte("\ngoos: "))
	switch {
	case bytes.HasPrefix(out, []byte("goos: ")):
		start = 0
	case start < 0:
		return nil
	default:
		start++
	}
	part := out[start:]
	end := len(part)
	for _, word := range []string{"\nPASS\n", "\nFAIL\n"} {
		if i := bytes.LastIndex(part, []byte(word)); i >= 0 {
			end = i + 1
		}
	}
	return part[:end]
}

// checkLines returns the names with a result line in testing's format,
// and adds to bad the names whose line was printed into (a name line
// followed by something other than the result, then the result's values
// alone on the next line).
func checkLines(out []byte, bad map[string]string) map[string]bool {
	genuine := map[string]bool{}
	lastName := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := genuineRE.FindStringSubmatch(line); m != nil {
			genuine[m[1]] = true
		}
		if m := nameLineRE.FindStringSubmatch(line); m != nil {
			lastName = m[1]
		} else if m := lookLikeRE.FindStringSubmatch(line); m != nil {
			lastName = m[1]
		}
		if orphanRE.MatchString(line) && lastName != "" {
			bad[lastName] = "its result line for " + lastName + " was broken by something the benchmark printed to stdout"
		}
	}
	return genuine
}

// selection is what a process was asked to run: its -test.bench and
// -test.skip patterns, and the -procs suffixes its names can carry.
type selection struct {
	bench, skip string
	procs       []int
}

// selects reports whether the printed name (without "Benchmark", with
// a -procs suffix) is one the process selected.
func (sel selection) selects(name string) bool {
	return child.Selects(sel.bench, sel.skip, "Benchmark"+benchname.Trim(name, sel.procs...))
}

// nsPerOp returns a result's ns/op as printed (benchfmt converts it to
// sec/op and keeps the original).
func nsPerOp(rec *benchfmt.Result) (float64, bool) {
	for _, v := range rec.Values {
		switch {
		case v.OrigUnit == "ns/op":
			return v.OrigValue, true
		case v.Unit == "sec/op":
			return v.Value * 1e9, true
		}
	}
	return 0, false
}

// joinOutput returns a child's stdout and stderr as one text, with a line
// break between them: testing prints a benchmark's name without one before
// running it, so a panic's "panic:" line on stderr would otherwise extend
// the cut-short name line and neither would be recognised.
func joinOutput(stdout, stderr []byte) []byte {
	out := slices.Clone(stdout)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(out, stderr...)
}

// failLineRE matches testing's line for a failed benchmark, frameRE a
// stack frame of a benchmark function (or of a closure in it).
var (
	failLineRE = regexp.MustCompile(`^\s*--- FAIL: (Benchmark\S*)`)
	frameRE    = regexp.MustCompile(`\.(Benchmark[\pL\pN_]*)(\.func[0-9.]+)*\(`)
)

// failedBenchmarks returns the benchmarks a failed process names, as
// printed with the "Benchmark" prefix: those with a "--- FAIL:" line, and
// the one that was running when the process panicked or was killed: its
// result line cut short, or else, after a "panic:" line, the benchmark
// function in the first stack frame that names one, or else the last one
// the verbose output started (=== RUN): a benchmark that hangs in its
// first call never gets its name printed otherwise.
func failedBenchmarks(out []byte, procs []int) []string {
	var names []string
	running, frame, started, panicked := "", "", "", false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := failLineRE.FindStringSubmatch(line); m != nil {
			if !slices.Contains(names, m[1]) {
				names = append(names, m[1])
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "=== RUN"):
			if f := strings.Fields(line); len(f) == 3 {
				started = f[2]
			}
		case strings.HasPrefix(line, "Benchmark"):
			running = ""
			f := strings.Fields(line)
			if len(f) < 4 {
				running = f[0]
			} else if benchname.Trim(f[0], procs...) == started {
				started = "" // it finished
			}
		case strings.HasPrefix(line, "panic: "):
			panicked = true
		case panicked && frame == "":
			if m := frameRE.FindStringSubmatch(line); m != nil {
				frame = m[1]
			}
		}
	}
	for _, n := range []string{running, frame, started} {
		if n != "" {
			running = n
			break
		}
	}
	if running != "" && !slices.Contains(names, running) {
		names = append(names, running)
	}
	return names
}
