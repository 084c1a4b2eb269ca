package against

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/basebuild"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

// DefaultRounds is the number of rounds when -benchkit.rounds is not
// given: with each process's share of 2/3 of -benchtime, 10 rounds of 3
// processes cost what -count=10 of each binary costs (20 × -benchtime per
// benchmark), plus the processes' start-up.
const DefaultRounds = 10

// Plan is a validated -benchkit.against run.
type Plan struct {
	// Against is the settings, with Rounds and Pairing defaulted; pkg
	// the package under test ("" unknown: the base's package is not
	// checked); counter, when not nil, counts every compared benchmark's
	// instructions per op in both binaries after the timing
	// (-benchkit.count=instructions).
	settings.Against
	pkg     string
	counter count.CountFunc
	// rev, for a base built from a git revision, says how; built holds
	// its directory in the cache for the run; buildFailure is its build's
	// failure (nil when it built); baseDir is where the base's processes
	// run (its package's directory in the base's files; "" the current
	// directory).
	rev          *Revision
	built        *basebuild.Base
	buildFailure *Failure
	baseDir      string
	// basePin holds the base binary for the run (its processes execute
	// exactly the bytes that were hashed); baseExe and newExe return the
	// path each side's next process executes, or why it must not start
	// (the file changed on disk).
	basePin         *pinned
	baseExe, newExe func() (string, error)
	base, new       Binary
	// baseSettings and newSettings are the binaries' build settings;
	// warnings what the plan found that weakens the comparison.
	baseSettings, newSettings map[string]string
	warnings                  []string
	// pattern is the -test.bench selection, share each process's
	// -test.benchtime, skip the user's -test.skip ("" none).
	pattern, share, skip string
	seed                 uint64
	// roundsSet is -benchkit.rounds given: lockstep runs that many
	// triples of a fixed shape, and looks only at the end.
	roundsSet bool
	// timeout bounds the first round's processes (go test's -timeout, or
	// 10 minutes); later ones get child.Deadline of the slowest so far.
	timeout time.Duration
	// bt is -benchtime.
	bt testflag.Benchtime
	// shard is the share of the selection the run measures (zero: all);
	// with one, pattern selects the shard's top-level benchmarks and
	// asked is -test.bench as given.
	shard settings.Shard
	asked string
}

// NewPlan checks the settings s, the go test flags on fs and the base
// binary, for package pkg ("" unknown), and returns the plan, or an error
// that names the fix. counter, when not nil, counts instructions. With
// s.Rev, it first builds the base at the merge base of s.Rev and HEAD
// (package basebuild; a line on log, when not nil, says so); a package
// that is not at the base, or a base that does not build, is a plan with
// no base binary, not an error: its Measure lists this binary's
// benchmarks as new, or says the base did not build.
func NewPlan(s settings.Against, pkg string, counter count.CountFunc, fs *flag.FlagSet, log io.Writer) (Plan, error) {
	p := Plan{Against: s, pkg: pkg, counter: counter, seed: rand.Uint64()}
	if p.GateInstr > 0 && p.counter == nil {
		return p, errors.New("benchkit: -benchkit.gate.instructions needs the counts: add -benchkit.count=instructions")
	}
	p.roundsSet = p.Rounds > 0
	if p.Rounds == 0 {
		p.Rounds = DefaultRounds
	}
	switch p.Pairing {
	case "":
		p.Pairing = ModeLockstep
	case ModeLockstep, ModeRounds:
	default:
		return p, fmt.Errorf("benchkit: -benchkit.pairing=%s: use lockstep (the default) or rounds", s.Pairing)
	}
	p.pattern, p.skip = testflag.Value(fs, "test.bench"), testflag.Value(fs, "test.skip")
	if err := flagsOK(fs, p.pattern); err != nil {
		return p, err
	}
	bt, _ := testflag.Parse(testflag.Value(fs, "test.benchtime"))
	if bt == (testflag.Benchtime{}) {
		bt = testflag.Benchtime{D: testflag.DefaultBenchtime}
	}
	p.share, p.bt = share(bt), bt
	p.timeout = 10 * time.Minute
	if t, err := time.ParseDuration(testflag.Value(fs, "test.timeout")); err == nil && t > 0 {
		p.timeout = t
	}
	exe, err := self()
	if err != nil {
		return p, fmt.Errorf("benchkit: -benchkit.against: %v; rerun with the binary as built", err)
	}
	p.newExe = self
	if nb, err := pin(exe); err == nil {
		nb.close()
		p.new, p.newSettings = nb.Binary, nb.settings
	}
	if shown, err := os.Executable(); err == nil {
		p.new.Path = shown // the path the user knows, not /proc/self/exe
	}
	base := s.Base
	if s.Rev != "" {
		if base, err = p.fromRevision(log); err != nil || base == "" {
			return p, err // no base binary: Measure lists this binary's benchmarks
		}
	}
	if p.basePin, err = baseBinary(base, pkg); err != nil {
		p.Close()
		return p, err
	}
	p.base, p.baseSettings = p.basePin.Binary, p.basePin.settings
	p.baseExe = p.basePin.path
	if err := p.checkSettings(); err != nil {
		p.Close()
		return p, err
	}
	return p, nil
}

// checkSettings compares the two binaries' build settings: a difference
// is a warning, or with a gate an error naming the fix.
func (p *Plan) checkSettings() error {
	diff := settingsDiff(p.baseSettings, p.newSettings)
	if len(diff) == 0 {
		return nil
	}
	what := fmt.Sprintf("the two binaries were built with different settings (%s), which change speed by themselves", strings.Join(diff, "; "))
	if p.Gated() {
		return fmt.Errorf("benchkit: -benchkit.against: %s: a gate would judge the build settings, not the code; build both with the same go test flags and environment, or drop the gate", what)
	}
	p.warnings = append(p.warnings, "benchkit: "+what+": the A/A control (the base twice) cannot see that, so a verdict here is the code and the settings together; build both the same way")
	return nil
}

// settingsDiff returns the build settings (debug.BuildInfo's, such as
// -race, -gcflags, -tags, GOEXPERIMENT, GOAMD64, CGO_ENABLED) whose values
// differ between the base's and this binary's, each as "key: base → new"
// (an absent setting is "unset"), sorted; nil when either is unknown.
// Left out: the VCS stamp and -ldflags (a version stamped in, not how the
// code is compiled), -trimpath (file names in the binary), and -tags and
// DefaultGODEBUG: build tags choose which files are compiled and go.mod's
// go line sets the default GODEBUG, so both belong to the code being
// compared, not to how it was built.
func settingsDiff(base, cand map[string]string) []string {
	if base == nil || cand == nil {
		return nil
	}
	skip := func(k string) bool {
		return strings.HasPrefix(k, "vcs") || slices.Contains([]string{"-ldflags", "-trimpath", "-tags", "DefaultGODEBUG"}, k)
	}
	var out []string
	val := func(m map[string]string, k string) string {
		if v, ok := m[k]; ok {
			return v
		}
		return "unset"
	}
	keys := slices.Sorted(maps.Keys(base))
	for k := range cand {
		if _, ok := base[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !skip(k) && val(base, k) != val(cand, k) {
			out = append(out, fmt.Sprintf("%s: %s → %s", k, val(base, k), val(cand, k)))
		}
	}
	return out
}

// Close lets the base binary go (and its directory in the cache, for a
// base built from a revision); call it when the run is over.
func (p Plan) Close() {
	p.basePin.close()
	p.built.Release()
}

// flagsOK returns an error naming the fix when the go test flags
// cannot go with -benchkit.against: no -bench pattern, -count (the rounds
// are the repeats), or a flag that writes a file (each process would
// overwrite it).
func flagsOK(fs *flag.FlagSet, pattern string) error {
	if pattern == "" || testflag.Value(fs, "test.list") != "" {
		return errors.New("benchkit: -benchkit.against compares benchmarks, and none are selected: add -bench=PATTERN (go test -run='^$' -bench=. -benchkit.against=base.test)")
	}
	if testflag.IsSet(fs, "test.count") && testflag.Value(fs, "test.count") != "1" {
		return fmt.Errorf("benchkit: -benchkit.against runs its own rounds of processes, each with -count=1, so -count=%s cannot apply: drop -count and set the number of rounds with -benchkit.rounds (default %d)",
			testflag.Value(fs, "test.count"), DefaultRounds)
	}
	if ff := child.FileFlag(fs); ff != "" {
		return fmt.Errorf("benchkit: -benchkit.against runs every benchmark in %s, and each would overwrite the file of -%s: drop -%s here and profile one binary with a plain go test -bench run",
			"many processes", ff, strings.TrimPrefix(ff, "test."))
	}
	return nil
}

// share returns each process's -test.benchtime: 2/3 of the
// duration (at least 1ms), or for Nx, ⌈2N/3⌉x.
func share(bt testflag.Benchtime) string {
	if bt.N > 0 {
		return fmt.Sprintf("%dx", (2*bt.N+2)/3)
	}
	d := max(bt.D*2/3, time.Millisecond)
	if d >= 100*time.Millisecond {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}

// baseBinary checks that path is a runnable test binary of package pkg
// ("" when unknown: not checked) and returns it pinned for the run, or an
// error naming the fix.
func baseBinary(path, pkg string) (*pinned, error) {
	how := "build it at the base commit with: go test -c -o base.test ./yourpkg"
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("benchkit: -benchkit.against=%s: no such file; %s", path, how)
	case err != nil:
		return nil, fmt.Errorf("benchkit: -benchkit.against=%s: %v; %s", path, err, how)
	case fi.IsDir():
		return nil, fmt.Errorf("benchkit: -benchkit.against=%s is a directory, not a test binary; %s", path, how)
	case runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		return nil, fmt.Errorf("benchkit: -benchkit.against=%s is not executable (mode %v): run chmod +x %s, or %s", path, fi.Mode().Perm(), path, how)
	}
	b, err := pin(path)
	if err != nil {
		return nil, fmt.Errorf("benchkit: -benchkit.against=%s is not a Go binary (%v); %s", path, err, how)
	}
	var bad error
	switch {
	case !strings.HasSuffix(b.buildPath, ".test"):
		bad = fmt.Errorf("benchkit: -benchkit.against=%s is the Go program %s, not a test binary; %s", path, b.buildPath, how)
	case pkg != "" && b.Package != pkg:
		bad = fmt.Errorf("benchkit: -benchkit.against=%s is the test binary of package %s, not of %s: build the base from the same package, go test -c -o base.test %s", path, b.Package, pkg, pkg)
	default:
		bad = canStart(b, how)
	}
	if bad != nil {
		b.close()
		return nil, bad
	}
	return b, nil
}

// canStart runs the pinned base once with -test.list='^$' (it lists
// nothing, runs no test and no benchmark) and returns an error naming
// the fix when it cannot be started at all (built for another GOOS or
// GOARCH, a missing loader): every process of the run would fail the
// same way. A base that starts and then fails is left to the run, which
// reports each failure with its output.
func canStart(b *pinned, how string) error {
	path, err := b.path()
	if err != nil {
		return fmt.Errorf("benchkit: -benchkit.against: %v; %s", err, how)
	}
	_, err = child.Run(child.Spec{Path: path, Shown: b.Path, Args: []string{"-test.run=^$", "-test.list=^$"}, Env: []string{"BENCHKIT_AGAINST="}, Timeout: time.Minute})
	var ce *child.Error
	if err == nil || errors.As(err, &ce) {
		return nil
	}
	return fmt.Errorf("benchkit: -benchkit.against=%s cannot be started on this machine (%s/%s): %v; build the base for this platform, with the same GOOS and GOARCH as this binary (%s)",
		b.Path, runtime.GOOS, runtime.GOARCH, errors.Unwrap(err), how)
}
