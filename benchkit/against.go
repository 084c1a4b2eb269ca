package benchkit

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
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

// DefaultAgainstRounds is the number of rounds -benchkit.against runs
// when -benchkit.rounds is not given: with each process's share of 2/3 of
// -benchtime, 10 rounds of 3 processes cost what -count=10 of each binary
// costs (20 × -benchtime per benchmark), plus the processes' start-up.
const DefaultAgainstRounds = 10

// againstPlan is a validated -benchkit.against run.
type againstPlan struct {
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
}

// againstRun is Main under -benchkit.against: it checks the input (exit
// 2 with the fix when it is bad), runs the package's tests in this process
// with the benchmarks switched off, runs the benchmarks in rounds of
// fresh processes of both binaries, records the comparison for the
// report, prints it and writes the files, and returns the exit code: m's
// when it failed (then nothing is measured, as go test runs no benchmark
// after a failed test), else 1 when a gate failed, a process of this
// binary failed or a file could not be written, else 0.
func againstRun(m interface{ Run() int }, cfg mainConfig, d mainDeps) int {
	p, err := againstPlanOf(cfg, d)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return 2
	}
	snap := d.probe()
	_ = d.fs.Set("test.bench", "") // the tests only: the benchmarks run in the children
	code := m.Run()
	if code != 0 {
		// As go test: no benchmark runs after a failed test.
		fmt.Fprintln(d.stderr, "benchkit: -benchkit.against measured nothing: the tests failed, and like go test it runs no benchmarks then; fix the tests, or select none with -run='^$'")
		return code
	}
	a := againstMeasure(p, d.fs, d.stderr)
	d.reg.SetAgainst(a)
	in := mainInput(cfg, d, snap, nil)
	an := report.Analyze(in)
	failed := mainOutput(cfg, d, in, an)
	if d.getenv("GITHUB_ACTIONS") == "true" {
		report.Annotations(d.stdout, in, an)
	}
	if failed {
		return 1
	}
	return 0
}

// againstPlanOf checks the settings and the base binary and returns the
// plan, or an error that names the fix.
func againstPlanOf(cfg mainConfig, d mainDeps) (againstPlan, error) {
	p := againstPlan{rounds: cfg.rounds, gate: cfg.gate, gateAllocs: cfg.gateAllocs, seed: rand.Uint64()}
	if p.rounds == 0 {
		p.rounds = DefaultAgainstRounds
	}
	p.pattern, p.skip = flagValue(d.fs, "test.bench"), flagValue(d.fs, "test.skip")
	if err := againstFlagsOK(d.fs, p.pattern); err != nil {
		return p, err
	}
	bt, _ := testflag.Parse(flagValue(d.fs, "test.benchtime"))
	if bt == (testflag.Benchtime{}) {
		bt = testflag.Benchtime{D: testflag.DefaultBenchtime}
	}
	p.share = againstShare(bt)
	p.timeout = 10 * time.Minute
	if t, err := time.ParseDuration(flagValue(d.fs, "test.timeout")); err == nil && t > 0 {
		p.timeout = t
	}
	var err error
	if p.base, err = againstBinary(cfg.against, d.pkg); err != nil {
		return p, err
	}
	exe, err := os.Executable()
	if err != nil {
		return p, fmt.Errorf("benchkit: -benchkit.against: cannot find this test binary to run it again: %v", err)
	}
	nb, _ := binaryOf(exe)
	p.new = nb.Binary
	return p, nil
}

// againstFlagsOK returns an error naming the fix when the go test flags
// cannot go with -benchkit.against: no -bench pattern, -count (the rounds
// are the repeats), or a flag that writes a file (each process would
// overwrite it).
func againstFlagsOK(fs *flag.FlagSet, pattern string) error {
	if pattern == "" || flagValue(fs, "test.list") != "" {
		return errors.New("benchkit: -benchkit.against compares benchmarks, and none are selected: add -bench=PATTERN (go test -run='^$' -bench=. -benchkit.against=base.test)")
	}
	countSet := false
	fs.Visit(func(f *flag.Flag) { countSet = countSet || f.Name == "test.count" })
	if countSet {
		return fmt.Errorf("benchkit: -benchkit.against runs its own rounds of processes, each with -count=1, so -count=%s cannot apply: drop -count and set the number of rounds with -benchkit.rounds (default %d)",
			flagValue(fs, "test.count"), DefaultAgainstRounds)
	}
	if ff := child.FileFlag(fs); ff != "" {
		return fmt.Errorf("benchkit: -benchkit.against runs every benchmark in %s, and each would overwrite the file of -%s: drop -%s here and profile one binary with a plain go test -bench run",
			"many processes", ff, strings.TrimPrefix(ff, "test."))
	}
	return nil
}

// againstShare returns each process's -test.benchtime: 2/3 of the
// duration (at least 1ms), or for Nx, ⌈2N/3⌉x.
func againstShare(bt testflag.Benchtime) string {
	if bt.N > 0 {
		return fmt.Sprintf("%dx", (2*bt.N+2)/3)
	}
	d := max(bt.D*2/3, time.Millisecond)
	if d >= 100*time.Millisecond {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}

// againstBinary checks that path is a runnable test binary of package pkg
// ("" when unknown: not checked) and returns its identity, or an error
// naming the fix.
func againstBinary(path, pkg string) (registry.Binary, error) {
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
	if v := mainVCS(bi.Settings); v != nil { // the same stamp the JSON's vcs reads
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

// flagValue returns the value of the flag named name on fs, or "".
func flagValue(fs *flag.FlagSet, name string) string {
	if f := fs.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}
