package against

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	vd "github.com/benchkit/go-benchkit/internal/verdict"
)

// The three processes of a round, in the order of a round's record.
const (
	sideBase = iota
	sideNew
	sideControl
	sides
)

var sideNames = [sides]string{"base", "new", "control"}

// measurement is one benchmark's result line in one process.
type measurement struct {
	ns, allocs, bytes float64 // allocs and bytes -1 when not printed
	iters             int     // the line's b.N
}

// procOutput is what one process measured, and how it ended.
type procOutput struct {
	results map[string]measurement // by name as printed, without "Benchmark"
	failure *registry.AgainstFailure
	elapsed time.Duration
}

// state is the run in progress: the samples per benchmark, the
// names each binary printed, the failures, and what later rounds skip.
type state struct {
	p        Plan
	order    []string // benchmark names in the order first complete
	sides    map[string]*[sides]registry.Side
	seen     [sides]map[string]bool
	failed   map[string]bool // top-level functions that failed somewhere
	failures []registry.AgainstFailure
	slowest  time.Duration
	warnings []string
}

// Measure runs p.rounds rounds of three processes (base, this
// binary, base again) in balanced random order, and analyses the
// benchmarks that every process of a round measured. It stops early when
// a process fails in a way that names no benchmark (it would fail again).
func Measure(p Plan, fs *flag.FlagSet, stderr io.Writer) registry.Against {
	st := &state{p: p, sides: map[string]*[sides]registry.Side{}, failed: map[string]bool{}}
	for i := range st.seen {
		st.seen[i] = map[string]bool{}
	}
	dir, err := os.MkdirTemp("", "benchkit-against-")
	if err != nil {
		st.warnings = append(st.warnings, fmt.Sprintf("benchkit: cannot create a temporary directory for the processes' marker files: %v", err))
		dir = os.TempDir()
	} else {
		defer os.RemoveAll(dir)
	}
	sched := vd.NewSchedule(sides, p.seed)
	start := time.Now()
	for r := 1; r <= p.rounds; r++ {
		var round [sides]procOutput
		stop := false
		for _, s := range sched.Next() {
			round[s] = st.runProcess(s, r, fs, dir)
			if f := round[s].failure; f != nil && !st.repeated(*f) {
				st.failures = append(st.failures, *f)
				stop = stop || len(f.Benchmarks) == 0
			}
		}
		st.add(round)
		if stop {
			st.warnings = append(st.warnings, fmt.Sprintf("benchkit: stopped after round %d of %d: a process failed without naming a benchmark (see the failures), and would fail again", r, p.rounds))
			break
		}
		if r == 1 {
			st.warnTimeout(stderr, time.Since(start))
		}
	}
	return st.result()
}

// repeated reports whether f is the base binary's second failure of the
// same benchmarks in the same round (its base and control processes run
// the same code): it would repeat the first one's output.
func (st *state) repeated(f registry.AgainstFailure) bool {
	if f.Side == sideNames[sideNew] {
		return false
	}
	return slices.ContainsFunc(st.failures, func(g registry.AgainstFailure) bool {
		return g.Round == f.Round && g.Side != sideNames[sideNew] && slices.Equal(g.Benchmarks, f.Benchmarks)
	})
}

// runProcess runs side s's binary for round r and parses its output.
func (st *state) runProcess(s, r int, fs *flag.FlagSet, dir string) procOutput {
	path := st.p.base.Path
	if s == sideNew {
		path = st.p.new.Path
	}
	timeout := st.p.timeout
	if st.slowest > 0 {
		timeout = min(timeout, child.Deadline(st.slowest))
	}
	marker := filepath.Join(dir, fmt.Sprintf("round%d-%s.json", r, sideNames[s]))
	spec := child.Spec{Path: path, Args: child.RunArgs(fs, st.p.pattern, st.p.share, st.skipFor(s)),
		Env: append(child.Env("", marker), "BENCHKIT_AGAINST="), Timeout: timeout}
	res, err := child.Run(spec)
	st.slowest = max(st.slowest, res.Elapsed)
	out := procOutput{results: parseResults(res.Stdout), elapsed: res.Elapsed}
	for name := range out.results {
		st.seen[s][name] = true
	}
	if err != nil {
		msg := err.Error()
		var ce *child.Error
		if errors.As(err, &ce) {
			msg = strings.SplitN(msg, "; its output:", 2)[0]
		}
		out.failure = &registry.AgainstFailure{Side: sideNames[s], Round: r, Benchmarks: failedBenchmarks(joinOutput(res.Stdout, res.Stderr)),
			Message: msg, Output: child.Tail(res, 40)}
		for _, b := range out.failure.Benchmarks {
			st.failed[topLevel(b)] = true
		}
	}
	return out
}

// add appends the round's measurements of every benchmark that all three
// processes measured and that never failed.
func (st *state) add(round [sides]procOutput) {
	names := make([]string, 0, len(round[sideBase].results))
	for name := range round[sideBase].results {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if st.failed["Benchmark"+topLevel(name)] {
			continue
		}
		var ms [sides]measurement
		complete := true
		for s := range sides {
			m, ok := round[s].results[name]
			ms[s], complete = m, complete && ok
		}
		if !complete {
			continue
		}
		sd := st.sides[name]
		if sd == nil {
			sd = new([sides]registry.Side)
			st.sides[name] = sd
			st.order = append(st.order, name)
		}
		for s := range sides {
			sd[s].NsPerOp = append(sd[s].NsPerOp, ms[s].ns)
			sd[s].Iters = append(sd[s].Iters, ms[s].iters)
			if ms[s].allocs >= 0 {
				sd[s].AllocsPerOp = append(sd[s].AllocsPerOp, ms[s].allocs)
				sd[s].BytesPerOp = append(sd[s].BytesPerOp, ms[s].bytes)
			}
		}
	}
}

// skipFor returns the -test.skip pattern of side s's processes: the
// user's, or one that leaves out the top-level benchmarks that failed and
// those the other binary does not have; "" for none.
func (st *state) skipFor(s int) string {
	if st.p.skip != "" {
		return st.p.skip
	}
	var names []string
	for name := range st.failed {
		names = append(names, regexp.QuoteMeta(name))
	}
	if len(st.seen[sideNew]) > 0 && len(st.seen[sideBase]) > 0 {
		other := sideNew
		if s == sideNew {
			other = sideBase
		}
		for _, top := range onlyTop(st.seen[s], st.seen[other]) {
			names = append(names, regexp.QuoteMeta("Benchmark"+top))
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return "^(" + strings.Join(slices.Compact(names), "|") + ")$"
}

// onlyTop returns the top-level benchmark functions (without
// "Benchmark") of which mine has results and other none.
func onlyTop(mine, other map[string]bool) []string {
	tops := map[string]bool{}
	for name := range other {
		tops[topLevel(name)] = true
	}
	var out []string
	for name := range mine {
		if t := topLevel(name); !tops[t] && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// warnTimeout warns on stderr when the rounds will take longer than the
// test binary's -timeout, after which go test kills this process.
func (st *state) warnTimeout(stderr io.Writer, first time.Duration) {
	if est := first * time.Duration(st.p.rounds); est > st.p.timeout {
		fmt.Fprintf(stderr, "benchkit: -benchkit.against: the first round took %s, so %s will take about %s, more than -timeout=%s: go test will kill the run; raise -timeout or lower -benchkit.rounds or -benchtime\n",
			textfmt.Dur(first), textfmt.Plural(st.p.rounds, "round"), textfmt.Dur(est), st.p.timeout)
	}
}

// parseResults reads the result lines of a go test -bench output with
// benchfmt: ns/op, and allocs/op and B/op when both were printed, by
// name (without "Benchmark", with the -procs suffix). Lines benchfmt
// cannot read (a panic's half-printed line) are skipped.
func parseResults(out []byte) map[string]measurement {
	res := map[string]measurement{}
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
		m := measurement{ns: ns, allocs: -1, bytes: -1, iters: rec.Iters}
		a, okA := rec.Value("allocs/op")
		b, okB := rec.Value("B/op")
		if okA && okB {
			m.allocs, m.bytes = a, b
		}
		res[rec.Name.String()] = m
	}
	return res
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
// the one whose result line was cut short (it was running when the
// process panicked or was killed), or else, after a "panic:" line, the
// benchmark function in the first stack frame that names one (a panic
// in the first b.N=1 call comes before testing prints the name).
func failedBenchmarks(out []byte) []string {
	var names []string
	running, frame, panicked := "", "", false
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
		case strings.HasPrefix(line, "Benchmark"):
			running = ""
			if f := strings.Fields(line); len(f) < 4 {
				running = f[0]
			}
		case strings.HasPrefix(line, "panic: "):
			panicked = true
		case panicked && frame == "":
			if m := frameRE.FindStringSubmatch(line); m != nil {
				frame = m[1]
			}
		}
	}
	if running == "" {
		running = frame
	}
	if running != "" && !slices.Contains(names, running) {
		names = append(names, running)
	}
	return names
}

// topLevel returns the top-level benchmark function of a name as printed
// ("BenchmarkSum/n=10-2" → "BenchmarkSum", "Sum-2" → "Sum"): Go
// identifiers contain neither '/' nor '-'.
func topLevel(name string) string {
	if i := strings.IndexAny(name, "/-"); i >= 0 {
		return name[:i]
	}
	return name
}
