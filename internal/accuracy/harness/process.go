package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// waitDelay bounds how long a finished or killed process's output pipes may
// stay open (held by its own children, such as control.Compare's forks)
// before Run stops waiting.
const waitDelay = 10 * time.Second

// Build compiles the test binary of pkg (a package path such as
// ./examples/seed000, relative to the working directory) into dir with
// go test -c, and returns its path: dir/<last element of pkg>.test, with
// .exe on Windows. The error holds go's output.
func Build(pkg, dir string) (string, error) {
	return BuildAs(pkg, dir, path.Base(filepath.ToSlash(pkg)))
}

// BuildAs is [Build] with the binary named dir/<name>.test and extra go
// test build flags (such as -tags=x): one package built two ways.
func BuildAs(pkg, dir, name string, flags ...string) (string, error) {
	bin := filepath.Join(dir, name+".test")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	args := append(append([]string{"test", "-c", "-o", bin}, flags...), pkg)
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", pkg, err, out)
	}
	return bin, nil
}

// Run runs bin with args as a fresh process and returns its standard
// output and wall time (start-up and exit included). env is the process's
// environment; nil means this process's. timeout is the deadline, after
// which the process is killed; timeout ≤ 0 means none. A failure's error
// names the command, the exit status (and the deadline, if it passed) and
// holds the whole standard output and standard error. Where the platform
// allows (Linux), the process dies with this one.
func Run(bin string, args, env []string, timeout time.Duration) ([]byte, time.Duration, error) {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.SysProcAttr = dieWithParent()
	cmd.WaitDelay = waitDelay
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("%v (the %v deadline passed)", err, timeout)
		}
		return nil, wall, fmt.Errorf("%s %s: %v after %s\nstdout:\n%s\nstderr:\n%s",
			filepath.Base(bin), strings.Join(args, " "), err, textfmt.Dur(wall), stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes(), wall, nil
}
