package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/benchkit/go-benchkit/internal/accuracy/against"
	"github.com/benchkit/go-benchkit/internal/accuracy/count"
	"github.com/benchkit/go-benchkit/internal/accuracy/forks"
	"github.com/benchkit/go-benchkit/internal/accuracy/groundtruth"
	"github.com/benchkit/go-benchkit/internal/accuracy/signals"
	"github.com/benchkit/go-benchkit/internal/accuracy/wander"
	"github.com/benchkit/go-benchkit/internal/accuracy/warmup"
)

// table is one accuracy table: its name on the command line, what it
// measures (one line, for the listing) and its Main.
type table struct {
	name, doc string
	main      func(args []string, stdout, stderr io.Writer) int
}

// tables are the tables, in the order the listing and all show them.
var tables = []table{
	{"groundtruth", "control.Compare vs go test -count + benchstat on seed 000: identical code flagged, +5% caught", groundtruth.Main},
	{"forks", "control.Compare with 1 and 10 forks vs benchstat: interval coverage, verdicts on 0–10%, swapped baselines", forks.Main},
	{"against", "-benchkit.against (lockstep, rounds) vs two-file benchstat: A/A flagged, slowdowns caught, Δ against a measured truth, widths, coverage, wall", against.Main},
	{"signals", "the report's grades, regime calls and flags on steady benchmarks and a hog; runs-needed vs run-to-run CV", signals.Main},
	{"wander", "why fresh processes differ: the machine's speed changing over time, or something fixed per process", wander.Main},
	{"warmup", "what a disposable first benchmark (warmup.Benchmark) does to an identical pair's first-position penalty", warmup.Main},
	{"count", "instructions per op under valgrind on a busy machine: spread across processes, +1% and +5% told from identical code, the cost", count.Main},
}

func main() {
	os.Exit(dispatch(tables, os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs the command line args (without the program name) against
// ts and returns the exit status: no argument, -h, -help or help lists ts
// on stdout (0); all runs every table with its defaults (see runAll); a
// table's name runs that table with the rest of args as its flags and
// returns its status; any other name is an error (2).
func dispatch(ts []table, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		list(stdout, ts)
		return 0
	}
	switch name := args[0]; name {
	case "-h", "-help", "--help", "help":
		list(stdout, ts)
		return 0
	case "all":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "accuracy: all takes no flags (it runs every table with its defaults); got %q\n", args[1:])
			return 2
		}
		return runAll(ts, stdout, stderr)
	default:
		for _, t := range ts {
			if t.name == name {
				return t.main(args[1:], stdout, stderr)
			}
		}
		fmt.Fprintf(stderr, "accuracy: unknown table %q; the tables are %s (or all)\n", name, strings.Join(names(ts), ", "))
		return 2
	}
}

// runAll runs every table of ts with its defaults, one after another, each
// after a line "## <name>" and a blank line on stdout. It goes on after a
// table fails and returns the largest exit status.
func runAll(ts []table, stdout, stderr io.Writer) int {
	code := 0
	for i, t := range ts {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "## %s\n\n", t.name)
		code = max(code, t.main(nil, stdout, stderr))
	}
	return code
}

// list writes the usage lines and one line per table of ts.
func list(w io.Writer, ts []table) {
	fmt.Fprint(w, `usage: go run ./internal/accuracy <table> [flags]
       go run ./internal/accuracy <table> -h   (the table's flags)
       go run ./internal/accuracy all          (every table with its defaults, one after another)

tables:
`)
	width := 0
	for _, t := range ts {
		width = max(width, len(t.name))
	}
	for _, t := range ts {
		fmt.Fprintf(w, "  %-*s  %s\n", width, t.name, t.doc)
	}
}

// names returns the names of ts, in order.
func names(ts []table) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.name
	}
	return out
}
