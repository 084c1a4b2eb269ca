package forks

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// forksEnv is the environment variable that sets control.Compare's fork
// count.
const forksEnv = "BENCHKIT_FORKS"

// runMethod runs one process of m for repetition rep and adds what it
// measured to res. It reports false, after printing the failure and the
// process's output to stderr, if the process failed or its output could
// not be read.
func runMethod(stderr io.Writer, cfg config, bin string, m method, rep int, res *results) bool {
	out, wall, err := harness.Run(bin, cfg.args(m), env(m), cfg.timeout)
	var got map[key]obs
	if err == nil {
		if m.isPlain() {
			got, err = parsePlain(out, m.name, cfg.works)
		} else {
			got, err = parseCompare(out, m.name, cfg.works)
		}
	}
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
