package against

import (
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

// DefaultRounds is the number of rounds when -benchkit.rounds is not
// given: with each process's share of 2/3 of -benchtime, 10 rounds of 3
// processes cost what -count=10 of each binary costs (20 × -benchtime per
// benchmark), plus the processes' start-up.
const DefaultRounds = 10

// Settings are Main's settings for a cross-build comparison.
type Settings struct {
	// Base is the base test binary's path; Pkg the import path of the
	// package under test ("" unknown: the base's package is not checked).
	Base, Pkg string
	// Rounds is the number of rounds, 0 for DefaultRounds.
	Rounds int
	// Gate is the time gate in percent (0: none); GateAllocs fails on
	// any increase in allocs/op.
	Gate       float64
	GateAllocs bool
	// Pairing is registry.ModeLockstep (the default, also for "") or
	// registry.ModeRounds.
	Pairing string
	// Counter, when not nil, counts every compared benchmark's
	// instructions per op in both binaries after the timing
	// (-benchkit.count=instructions); GateInstr fails a rise beyond it,
	// in percent (0: none).
	Counter   count.CountFunc
	GateInstr float64
}

// Plan is a validated -benchkit.against run.
type Plan struct {
	// newExe is the path that runs this very binary (child.Self).
	newExe    string
	base, new registry.Binary
	// pattern is the -test.bench selection, share each process's
	// -test.benchtime, skip the user's -test.skip ("" none).
	pattern, share, skip string
	rounds               int
	seed                 uint64
	// timeout bounds the first round's processes (go test's -timeout, or
	// 10 minutes); later ones get child.Deadline of the slowest so far.
	timeout    time.Duration
	gate       float64
	gateAllocs bool
	// bt is -benchtime, pairing what was asked for (Settings.Pairing).
	bt      testflag.Benchtime
	pairing string
	// counter and gateInstr are Settings.Counter and GateInstr.
	counter   count.CountFunc
	gateInstr float64
}

// NewPlan checks the settings, the go test flags on fs and the base
// binary and returns the plan, or an error that names the fix.
func NewPlan(s Settings, fs *flag.FlagSet) (Plan, error) {
	p := Plan{rounds: s.Rounds, gate: s.Gate, gateAllocs: s.GateAllocs, seed: rand.Uint64(), pairing: s.Pairing,
		counter: s.Counter, gateInstr: s.GateInstr}
	if p.gateInstr > 0 && p.counter == nil {
		return p, errors.New("benchkit: -benchkit.gate.instructions needs the counts: add -benchkit.count=instructions")
	}
	if p.rounds == 0 {
		p.rounds = DefaultRounds
	}
	switch p.pairing {
	case "":
		p.pairing = registry.ModeLockstep
	case registry.ModeLockstep, registry.ModeRounds:
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
	var err error
	if p.base, err = baseBinary(s.Base, s.Pkg); err != nil {
		return p, err
	}
	exe, err := child.Self()
	if err != nil {
		return p, fmt.Errorf("benchkit: -benchkit.against: %v; rerun with the binary as built", err)
	}
	nb, _ := binaryOf(exe)
	p.new, p.newExe = nb.Binary, exe
	if shown, err := os.Executable(); err == nil {
		p.new.Path = shown // the path the user knows, not /proc/self/exe
	}
	return p, nil
}

// flagsOK returns an error naming the fix when the go test flags
// cannot go with -benchkit.against: no -bench pattern, -count (the rounds
// are the repeats), or a flag that writes a file (each process would
// overwrite it).
func flagsOK(fs *flag.FlagSet, pattern string) error {
	if pattern == "" || testflag.Value(fs, "test.list") != "" {
		return errors.New("benchkit: -benchkit.against compares benchmarks, and none are selected: add -bench=PATTERN (go test -run='^$' -bench=. -benchkit.against=base.test)")
	}
	if testflag.IsSet(fs, "test.count") {
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
// ("" when unknown: not checked) and returns its identity, or an error
// naming the fix.
func baseBinary(path, pkg string) (registry.Binary, error) {
	how := "build it at the base commit with: go test -c -o base.test ./yourpkg"
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return registry.Binary{}, fmt.Errorf("benchkit: -benchkit.against=%s: no such file; %s", path, how)
	case err != nil:
		return registry.Binary{}, fmt.Errorf("benchkit: -benchkit.against=%s: %v; %s", path, err, how)
	case fi.IsDir():
		return registry.Binary{}, fmt.Errorf("benchkit: -benchkit.against=%s is a directory, not a test binary; %s", path, how)
	case runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		return registry.Binary{}, fmt.Errorf("benchkit: -benchkit.against=%s is not executable (mode %v): run chmod +x %s, or %s", path, fi.Mode().Perm(), path, how)
	}
	b, err := binaryOf(path)
	if err != nil {
		return b.Binary, fmt.Errorf("benchkit: -benchkit.against=%s is not a Go binary (%v); %s", path, err, how)
	}
	switch {
	case !strings.HasSuffix(b.buildPath, ".test"):
		return b.Binary, fmt.Errorf("benchkit: -benchkit.against=%s is the Go program %s, not a test binary; %s", path, b.buildPath, how)
	case pkg != "" && b.Package != pkg:
		return b.Binary, fmt.Errorf("benchkit: -benchkit.against=%s is the test binary of package %s, not of %s: build the base from the same package, go test -c -o base.test %s", path, b.Package, pkg, pkg)
	}
	return b.Binary, nil
}

// binaryFile is a binary's identity and its build info's main path.
type binaryFile struct {
	registry.Binary
	buildPath string
}

// binaryOf reads path's build information and hashes the file.
func binaryOf(path string) (binaryFile, error) {
	b := binaryFile{Binary: registry.Binary{Path: path}}
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return b, err
	}
	b.buildPath = bi.Path
	b.Package, b.GoVersion = strings.TrimSuffix(bi.Path, ".test"), bi.GoVersion
	if v := report.ParseVCS(bi.Settings); v != nil { // the same stamp the JSON's vcs reads
		b.VCSRevision, b.VCSTime = v.Revision, v.Time
		b.VCSModified = v.Modified != nil && *v.Modified
	}
	if f, err := os.Open(path); err == nil {
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			b.SHA256 = hex.EncodeToString(h.Sum(nil))
		}
		_ = f.Close()
	}
	return b, nil
}
