package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// forksEnv is the environment variable that sets control.Compare's fork
// count.
const forksEnv = "BENCHKIT_FORKS"

// waitDelay bounds how long a killed process's output pipes may stay open
// (held by its own children, the forks) before forkcal stops waiting.
const waitDelay = 10 * time.Second

// build compiles pkg's test binary into dir and returns its path.
func build(pkg, dir string) (string, error) {
	bin := filepath.Join(dir, "calibrate.test")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "test", "-c", "-o", bin, pkg).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", pkg, err, out)
	}
	return bin, nil
}

// runMethod runs one process of m for repetition rep and adds what it
// measured to res. It reports false, after printing the failure and the
// process's output to stderr, if the process failed or its output could
// not be read.
func runMethod(cfg config, bin string, m method, rep int, res *results) bool {
	out, wall, err := runProcess(cfg, bin, m)
	var got map[key]obs
	if err == nil {
		if m.isPlain() {
			got, err = parsePlain(out, m.name, cfg.works)
		} else {
			got, err = parseCompare(out, m.name, cfg.works)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "forkcal: repetition %d, %s: %v\n", rep+1, m.name, err)
		return false
	}
	res.add(m.name, wall, got)
	if cfg.verbose {
		logRep(rep, m, wall, got, cfg.works)
	}
	return true
}

// runProcess runs the binary once for m, with cfg.timeout as its
// deadline, and returns its standard output and wall time. A failure's
// error holds the exit status and the whole output.
func runProcess(cfg config, bin string, m method) ([]byte, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, cfg.args(m)...)
	cmd.Env = env(m)
	cmd.WaitDelay = waitDelay
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("%v (the %v deadline passed)", err, cfg.timeout)
		}
		return nil, wall, fmt.Errorf("%s %s: %v after %s\nstdout:\n%s\nstderr:\n%s",
			filepath.Base(bin), strings.Join(cfg.args(m), " "), err, textfmt.Dur(wall), stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes(), wall, nil
}

// env returns forkcal's environment for m's process: without
// BENCHKIT_FORKS for the plain way, with BENCHKIT_FORKS=<m.forks> for
// Compare.
func env(m method) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, forksEnv+"=") {
			out = append(out, kv)
		}
	}
	if !m.isPlain() {
		out = append(out, forksEnv+"="+strconv.Itoa(m.forks))
	}
	// examples/calibrate runs its benchmarks only when asked to.
	return append(out, "BENCHKIT_CALIBRATE=1")
}

// logRep prints one process's wall time and estimates to stderr (-v).
func logRep(rep int, m method, wall time.Duration, got map[key]obs, works []string) {
	fmt.Fprintf(os.Stderr, "rep %2d %-26s wall %s\n", rep+1, m.name, textfmt.Dur(wall))
	for _, w := range works {
		for _, v := range variants {
			o := got[key{m.name, w, v}]
			ci := ""
			if o.hasCI {
				ci = fmt.Sprintf(" [%+.2f%%, %+.2f%%]", o.lo, o.hi)
			}
			fmt.Fprintf(os.Stderr, "    %-5s %-4s %+7.2f%%%s %s\n", w, v, o.delta, ci, o.verdict)
		}
	}
}
