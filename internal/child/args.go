package child

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// fileFlags are the go test flags that write a file. Children given them
// would overwrite each other's (and the parent's) files, and a user who
// profiles expects the profile to hold the measurement: with any of them
// set, the caller measures in its own process.
var fileFlags = []string{
	"test.cpuprofile", "test.memprofile", "test.blockprofile", "test.mutexprofile",
	"test.trace", "test.coverprofile",
}

// dropFlags are set by Args itself, or make no sense in a child: the
// selection (run, bench, list, skip), the repeat count and time, the
// GOMAXPROCS list, the output format (the parent reads the child's result
// file, not its stdout), the action log only cmd/go reads, the directory
// for profiles and artifacts and -test.artifacts (a child measures and
// keeps no files: without the directory it would make _artifacts in the
// working directory), the test timeout (the parent's deadline applies),
// and -test.paniconexit0, which go test gives every test binary: a fork
// ends with os.Exit(0) once its result is written ([Done]), which the
// flag turns into a panic.
var dropFlags = map[string]bool{
	"test.run": true, "test.bench": true, "test.list": true, "test.skip": true,
	"test.count": true, "test.benchtime": true, "test.cpu": true,
	"test.v": true, "test.testlogfile": true, "test.outputdir": true, "test.artifacts": true, "test.timeout": true,
	"test.paniconexit0": true,
}

// FileFlag returns the name of a file-writing go test flag that is set
// (for example "test.cpuprofile"), or "" when none is.
func FileFlag(fs *flag.FlagSet) string {
	for _, name := range fileFlags {
		if f := fs.Lookup(name); f != nil && f.Value.String() != "" {
			return name
		}
	}
	return ""
}

// Args returns the arguments of a child that runs exactly the benchmark
// named name once, with -test.benchtime=benchtime at GOMAXPROCS procs:
//
//	-test.run=^$ -test.bench=<BenchFilter(name)> -test.count=1
//	-test.benchtime=<benchtime> -test.cpu=<procs>
//
// followed by every other flag set on fs (the user's -test.benchmem,
// -test.short, -test.gocoverdir, their own and benchkit's flags), except
// those in dropFlags. The caller checks [FileFlag] first.
func Args(fs *flag.FlagSet, name, benchtime string, procs int) []string {
	args := []string{
		"-test.run=^$",
		"-test.bench=" + BenchFilter(name),
		"-test.count=1",
		"-test.benchtime=" + benchtime,
		"-test.cpu=" + strconv.Itoa(procs),
	}
	fs.Visit(func(f *flag.Flag) {
		if dropFlags[f.Name] {
			return
		}
		args = append(args, "-"+f.Name+"="+f.Value.String())
	})
	return args
}

// Env returns the environment entries that mark a child of this process
// for the benchmark named name ("" for a whole selection), writing its
// result to resultFile.
func Env(name, resultFile string) []string {
	return []string{EnvResult + "=" + resultFile, EnvTarget + "=" + name, EnvParent + "=" + strconv.Itoa(os.Getpid())}
}

// WriteResult writes v as JSON to the child's result file. It is an error
// outside a child.
func WriteResult(v any) error {
	_, path, ok := Target()
	if !ok {
		return fmt.Errorf("child: WriteResult outside a child process (%s is not set, or %s names another parent)", EnvResult, EnvParent)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("child: encoding the result: %w", err)
	}
	return os.WriteFile(path, b, 0o600)
}

// ReadResult reads the JSON result file a child wrote into v.
func ReadResult(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("child: the child wrote no result (%w): the benchmark did not run in it; check that its name is selected by -test.bench and that it does not skip", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("child: reading the result %s: %w", path, err)
	}
	return nil
}

// Deadline returns the time a child with a measurement budget of budget
// may take: ten times the budget plus two minutes for start-up, TestMain
// and a slow build (-race, -cover). It only exists so that a hung child
// cannot hang the parent.
func Deadline(budget time.Duration) time.Duration {
	return 10*budget + 2*time.Minute
}

// runDropFlags are the go test flags [RunArgs] sets itself or leaves out
// of a child that runs a whole selection of benchmarks: the selection and
// repeat flags it sets, the output format and action log only the parent
// reads, the directory for profiles and artifacts and -test.artifacts (a
// child keeps no files, and a base built before Go 1.26 does not define
// the flag), the test timeout (the parent's deadline applies), and
// -test.paniconexit0 (a child may end with [Done]).
var runDropFlags = map[string]bool{
	"test.run": true, "test.bench": true, "test.list": true, "test.skip": true,
	"test.count": true, "test.benchtime": true, "test.benchmem": true,
	"test.v": true, "test.testlogfile": true, "test.outputdir": true, "test.artifacts": true, "test.timeout": true,
	"test.paniconexit0": true,
}

// RunArgs returns the arguments of a child that runs every benchmark
// matching the -test.bench pattern bench once, with
// -test.benchtime=benchtime, allocations reported, and verbose output so
// that each benchmark is named (=== RUN) before it starts and a hang can
// be told apart:
//
//	-test.run=^$ -test.bench=<bench> -test.count=1
//	-test.benchtime=<benchtime> -test.benchmem=true -test.v=true
//	[-test.skip=<skip>]
//
// followed by every other go test flag (test.*) set on fs, -test.cpu
// included, except those in runDropFlags. Flags of the package's own
// (benchkit's -benchkit.* among them) are left out: the child may be
// another build of the package, which need not define them. skip "" adds
// no -test.skip. The caller checks [FileFlag] first.
func RunArgs(fs *flag.FlagSet, bench, benchtime, skip string) []string {
	args := []string{
		"-test.run=^$",
		"-test.bench=" + bench,
		"-test.count=1",
		"-test.benchtime=" + benchtime,
		"-test.benchmem=true",
		"-test.v=true",
	}
	if skip != "" {
		args = append(args, "-test.skip="+skip)
	}
	fs.Visit(func(f *flag.Flag) {
		if runDropFlags[f.Name] || !strings.HasPrefix(f.Name, "test.") {
			return
		}
		args = append(args, "-"+f.Name+"="+f.Value.String())
	})
	return args
}

// SplitPattern splits a -test.bench or -test.skip pattern into its
// levels as testing does: at each '/' outside brackets and parentheses,
// the character after a backslash never splitting.
func SplitPattern(s string) []string {
	var out []string
	cs, cp, start := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			cs++
		case ']':
			if cs--; cs < 0 {
				cs = 0
			}
		case '(':
			if cs == 0 {
				cp++
			}
		case ')':
			if cs == 0 {
				cp--
			}
		case '\\':
			i++
		case '/':
			if cs == 0 && cp == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// Selects reports whether a benchmark named name (b.Name(), no -procs
// suffix) is one that -test.bench=bench and -test.skip=skip select: every
// level of the name that bench has a level for matches it, and skip (when
// not "") does not match every level it has. An invalid pattern selects
// everything (testing would have refused it before running anything).
func Selects(bench, skip, name string) bool {
	return matches(bench, name, true) && (skip == "" || !matches(skip, name, false))
}

// matches reports whether the levels of name match the levels of
// pattern; short decides for a name with fewer levels than the pattern
// (a parent, which testing runs to reach the children).
func matches(pattern, name string, short bool) bool {
	elems := strings.Split(name, "/")
	pats := SplitPattern(pattern)
	if len(elems) < len(pats) && !short {
		return false
	}
	for i, p := range pats {
		if i >= len(elems) {
			break
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return true
		}
		if !re.MatchString(elems[i]) {
			return false
		}
	}
	return true
}

// EnvDiscover marks a child that runs a whole selection once to say
// which of its benchmarks can run in lockstep: each benchmark that calls
// benchkit.Track (or Loop) appends a [Tracked] line to the result file.
const EnvDiscover = "BENCHKIT_CHILD_DISCOVER"

// Tracked is what a discovering child says of one benchmark run it
// recorded: its name as go test prints it (b.Name() and the -P suffix),
// b.N, the time per op in ns, and the lockstep protocol the child speaks
// ([Protocol]; 0 from a benchkit that predates the field, which speaks
// protocol 1).
type Tracked struct {
	Name     string  `json:"name"`
	N        int     `json:"n"`
	NsPerOp  float64 `json:"ns_per_op"`
	Protocol int     `json:"protocol,omitempty"`
}

// Discovering reports whether this process is a discovering child.
func Discovering() bool { return Is() && os.Getenv(EnvDiscover) != "" }

// AppendTracked appends t, with this package's [Protocol], as one JSON
// line to the result file of a discovering child; it does nothing
// elsewhere.
func AppendTracked(t Tracked) error {
	t.Protocol = Protocol
	return appendLine(t)
}

// appendLine appends t as one JSON line to a discovering child's result
// file; it does nothing elsewhere.
func appendLine(t Tracked) error {
	_, path, ok := Target()
	if !ok || !Discovering() {
		return nil
	}
	line, err := json.Marshal(t)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Announce appends, in a discovering child, a line with no name and this
// package's [Protocol] before any benchmark runs: the parent then knows
// the binary speaks the lockstep protocol even when none of its
// benchmarks calls Track. It does nothing elsewhere.
func Announce() error { return appendLine(Tracked{Protocol: Protocol}) }

// ReadTracked reads the lines a discovering child appended, [Announce]'s
// included (Name ""); a missing file is no line (the child's benchkit
// predates discovery, or its TestMain does not call benchkit.Main).
func ReadTracked(path string) ([]Tracked, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Tracked
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var t Tracked
		if err := json.Unmarshal([]byte(line), &t); err != nil {
			return out, fmt.Errorf("child: reading %s: %w", path, err)
		}
		out = append(out, t)
	}
	return out, nil
}
