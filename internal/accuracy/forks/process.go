package forks

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// forksEnv is the environment variable that sets control.Compare's fork
// count.
const forksEnv = "BENCHKIT_FORKS"

// runMethod runs one process of m for repetition rep in ws and adds what
// it measured to res. It reports false, after printing the failure and the
// process's output to stderr, if the process failed or what it measured
// could not be read.
func runMethod(stderr io.Writer, cfg config, ws *harness.Workspace, m method, rep int, res *results) bool {
	got, wall, err := measure(cfg, ws, m)
	if err != nil {
		fmt.Fprintf(stderr, "forks: repetition %d, %s: %v\n", rep+1, m.name, err)
		return false
	}
	res.add(m.name, wall, got)
	if cfg.verbose {
		logRep(stderr, rep, m, wall, got, cfg.works)
	}
	return true
}

// measure runs one process of m and returns its estimates and its wall
// time: Compare's from the process's JSON report (in ws.Dir), the plain
// way's from its output.
func measure(cfg config, ws *harness.Workspace, m method) (map[key]obs, time.Duration, error) {
	if m.isPlain() {
		out, wall, err := harness.Run(ws.Bin, cfg.args(m), env(m), cfg.timeout)
		if err != nil {
			return nil, wall, err
		}
		got, err := parsePlain(out, m.name, cfg.works)
		return got, wall, err
	}
	rep, out, wall, err := harness.RunReport(ws.Bin, filepath.Join(ws.Dir, "compare.json"), cfg.args(m), env(m), cfg.timeout)
	if err != nil {
		return nil, wall, err
	}
	got, err := compareObs(rep, out, m.name, cfg.works)
	return got, wall, err
}

// env returns the environment of m's process: this process's without
// BENCHKIT_FORKS, then BENCHKIT_FORKS=<m.forks> for Compare (none for the
// plain way) and BENCHKIT_CALIBRATE=1.
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
	// The calibrate workloads run their benchmarks only when asked to.
	return append(out, "BENCHKIT_CALIBRATE=1")
}

// logRep prints one process's wall time and estimates to w (-v).
func logRep(w io.Writer, rep int, m method, wall time.Duration, got map[key]obs, works []string) {
	fmt.Fprintf(w, "rep %2d %-26s wall %s\n", rep+1, m.name, textfmt.Dur(wall))
	for _, wk := range works {
		for _, v := range variantsOf(wk, m.isPlain()) {
			o := got[key{m.name, wk, v}]
			ci := ""
			if o.HasCI {
				ci = fmt.Sprintf(" [%+.2f%%, %+.2f%%]", o.Lo, o.Hi)
			}
			fmt.Fprintf(w, "    %-5s %-9s %+7.2f%%%s %s\n", wk, v, o.Delta, ci, o.Verdict)
		}
	}
}
