package testbin

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/count"
)

// Build compiles the test binary of the package in dir (relative to the
// calling test's package directory, e.g. "./testdata/bench") into t's
// temporary directory and returns its path. It skips t under -short and
// when no go command is on PATH, and fails t with the compiler's output
// when the build fails.
func Build(t testing.TB, dir string) string {
	t.Helper()
	return BuildAs(t, dir, filepath.Base(dir))
}

// BuildAs is [Build] with the binary named name (plus ".test") and extra
// go test build flags, such as "-race" or "-tags=x": one package built
// two ways, as if at two commits.
func BuildAs(t testing.TB, dir, name string, flags ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a test binary; skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH to build %s: %v", dir, err)
	}
	bin := filepath.Join(t.TempDir(), name+".test")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	args := append(append([]string{"test", "-c", "-o", bin}, flags...), dir)
	out, err := exec.Command(goBin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// Result is one run of a test binary.
type Result struct {
	Stdout, Stderr string
	// Code is the exit status; -1 when the process was killed.
	Code int
}

// Combined returns stdout followed by stderr.
func (r Result) Combined() string { return r.Stdout + r.Stderr }

// Run runs bin with args and the extra environment variables env
// ("KEY=value") in dir ("" for the current directory), and kills it after
// timeout. It fails t when the binary cannot be started or did not finish
// in time (with what it printed); a non-zero exit is a Result, not a
// failure.
func Run(t testing.TB, bin, dir string, timeout time.Duration, env []string, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Result{Stdout: stdout.String(), Stderr: stderr.String()}
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not finish within %v:\n%s", filepath.Base(bin), args, timeout, r.Combined())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.Code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running %s: %v", bin, err)
	}
	return r
}

// CountRequired is the environment variable that makes [Valgrind] fail
// rather than skip: .ci/run sets it once valgrind is installed, so that
// the count tests cannot skip unnoticed in CI.
const CountRequired = "BENCHKIT_COUNT_TESTS"

// Valgrind returns the valgrind that counts instructions here
// (count.Find), or skips t with Find's message (which says how to install
// it); with CountRequired=required in the environment it fails t instead.
func Valgrind(t testing.TB) count.Valgrind {
	t.Helper()
	vg, err := count.Find()
	switch {
	case err == nil:
		return vg
	case os.Getenv(CountRequired) == "required":
		t.Fatalf("%s=required, but counts cannot run here: %v", CountRequired, err)
	default:
		t.Skipf("counts need valgrind: %v", err)
	}
	return vg
}
