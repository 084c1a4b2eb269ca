package session

import (
	"errors"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/settings"
	"io"
	"syscall"
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
func againstRun(m interface{ Run() int }, cfg settings.Config, d Deps) int {
	var counter count.CountFunc
	if cfg.Count == settings.CountInstructions {
		counter = d.counter.forAgainst()
	}
	p, err := against.NewPlan(cfg.Against, d.pkg, counter, d.fs, d.stderr)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return 2
	}
	defer p.Close()
	shardNote, empty, err := shardAgainst(&p, cfg, d, m)
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
	a, err := measure(p, empty, dir, cfg, d)
	if err != nil {
		fmt.Fprintln(d.stderr, err)
		return stoppedCode(err)
	}
	in := input(cfg, d, snap, nil)
	in.Against = &a
	an := report.Analyze(in)
	note(cfg, d, shardNote)
	if empty {
		cfg.Report = settings.ReportOff // the note says it all; the files record the shard
	}
	failed := output(cfg, d, in, an)
	if d.getenv("GITHUB_ACTIONS") == "true" {
		report.Annotations(d.stdout, in, an)
	}
	if failed {
		return 1
	}
	return 0
}

// measure runs the comparison (against.Measure), with progress lines
// unless they are off; a shard that holds none of the package's
// benchmarks (empty) measures nothing and gets the plan's empty result.
func measure(p against.Plan, empty bool, dir string, cfg settings.Config, d Deps) (against.Result, error) {
	if empty {
		return p.Skipped(), nil
	}
	var progress func(against.Progress)
	if !cfg.NoProgress {
		progress = progressLines(d.stderr, ProgressEvery)
	}
	return against.Measure(p, dir, d.fs, d.stderr, progress)
}

// stoppedCode is the exit code of a run against.Measure stopped: 128 plus
// the signal's number for an interrupt, as a shell reports a process the
// signal ended, else 1.
func stoppedCode(err error) int {
	var st *against.Stopped
	if errors.As(err, &st) {
		if sig, ok := st.Signal.(syscall.Signal); ok {
			return 128 + int(sig)
		}
	}
	return 1
}

// ProgressEvery is the least time between two progress lines of
// -benchkit.against: short rounds say how far the run is every few
// seconds, not after every round.
const ProgressEvery = 5 * time.Second

// progressLines returns the progress callback of against.Measure: when
// every has passed since its last line (or since its phase began), one
// line on w that says where the run is (the benchmark and its triple, of
// how many when the design fixes them, else when it stops; or the
// round), the time so far, and the time left in that phase at that pace
// (against.Progress.Left, "up to" when benchmarks may stop early); the
// first line says how to turn them off.
// Each starts with report.Prefix, which benchfmt reads as neither a
// result nor a configuration line. It is called between processes' runs,
// where printing corrupts no benchmark line.
func progressLines(w io.Writer, every time.Duration) func(against.Progress) {
	var last time.Duration
	unit := ""
	hint := " (-benchkit.progress=off turns these lines off)"
	return func(pr against.Progress) {
		if pr.Unit != unit { // a new phase: its time starts again
			unit, last = pr.Unit, 0
		}
		if pr.Work <= 0 || pr.Elapsed-last < every {
			return
		}
		last = pr.Elapsed
		where, left := fmt.Sprintf("%s %d of %d done", pr.Unit, pr.Done, pr.Total), "about"
		if pr.Bench != "" {
			where = fmt.Sprintf("%s (benchmark %d of %d), %s %d", pr.Bench, pr.Index, pr.Benches, pr.Unit, pr.Done)
			switch {
			case pr.Total > 0:
				where += fmt.Sprintf(" of %d", pr.Total)
			case pr.Budget > 0:
				where += fmt.Sprintf(", stops when decided or at its %v budget", pr.Budget.Round(time.Millisecond))
				left = "up to about"
			}
		}
		fmt.Fprintf(w, "%s-benchkit.against: %s; %v so far, %s %v to go%s\n",
			report.Prefix, where, pr.Elapsed.Round(time.Second), left, pr.Left().Round(time.Second), hint)
		hint = ""
	}
}
