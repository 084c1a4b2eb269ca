package session

import (
	"fmt"
	"io"
	"time"

	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/report"
)

// againstRun is Main under -benchkit.against: it checks the input (exit
// 2 with the fix when it is bad), runs the package's tests in this process
// with the benchmarks switched off, runs the benchmarks in rounds of
// fresh processes of both binaries, records the comparison for the
// report, prints it and writes the files, and returns the exit code: m's
// when it failed (then nothing is measured, as go test runs no benchmark
// after a failed test), else 1 when a gate failed, a process of this
// binary failed or a file could not be written, else 0.
func againstRun(m interface{ Run() int }, cfg Config, d Deps) int {
	s := against.Settings{Base: cfg.Against, Pkg: d.pkg, Rounds: cfg.Rounds, Gate: cfg.Gate, GateAllocs: cfg.GateAllocs, Pairing: cfg.Pairing,
		GateInstr: cfg.GateInstr}
	if cfg.Count == CountInstructions {
		s.Counter = d.counter.forAgainst()
	}
	p, err := against.NewPlan(s, d.fs)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return 2
	}
	dir, remove, err := child.TempDir("benchkit-against-")
	if err != nil {
		fmt.Fprintf(d.stderr, "benchkit: -benchkit.against: %v (checked before the run: nothing ran)\n", err)
		return 2
	}
	defer remove()
	snap := d.probe()
	_ = d.fs.Set("test.bench", "") // the tests only: the benchmarks run in the children
	code := m.Run()
	if code != 0 {
		// As go test: no benchmark runs after a failed test.
		fmt.Fprintln(d.stderr, "benchkit: -benchkit.against measured nothing: the tests failed, and like go test it runs no benchmarks then; fix the tests, or select none with -run='^$'")
		return code
	}
	var progress func(against.Progress)
	if !cfg.NoProgress {
		progress = progressLines(d.stderr, ProgressEvery)
	}
	a := against.Measure(p, dir, d.fs, d.stderr, progress)
	d.reg.SetAgainst(a)
	in := input(cfg, d, snap, nil)
	an := report.Analyze(in)
	failed := output(cfg, d, in, an)
	if d.getenv("GITHUB_ACTIONS") == "true" {
		report.Annotations(d.stdout, in, an)
	}
	if failed {
		return 1
	}
	return 0
}

// ProgressEvery is the least time between two progress lines of
// -benchkit.against: short rounds say how far the run is every few
// seconds, not after every round.
const ProgressEvery = 5 * time.Second

// progressLines returns the progress callback of against.Measure: after
// a triple or a round, when every has passed since the last line (or
// since the start), one line on w with the units done, the time so far
// and the time left in that phase at that pace; the first line says how
// to turn them off. Each
// starts with report.Prefix, which benchfmt reads as neither a result nor
// a configuration line.
func progressLines(w io.Writer, every time.Duration) func(against.Progress) {
	var last time.Duration
	unit := ""
	hint := " (-benchkit.progress=off turns these lines off)"
	return func(pr against.Progress) {
		if pr.Unit != unit { // a new phase: its time starts again
			unit, last = pr.Unit, 0
		}
		if pr.Done < 1 || pr.Elapsed-last < every {
			return
		}
		last = pr.Elapsed
		left := pr.Elapsed / time.Duration(pr.Done) * time.Duration(pr.Total-pr.Done)
		fmt.Fprintf(w, "%s-benchkit.against: %s %d of %d done after %v, about %v to go%s\n",
			report.Prefix, pr.Unit, pr.Done, pr.Total, pr.Elapsed.Round(time.Second), left.Round(time.Second), hint)
		hint = ""
	}
}
