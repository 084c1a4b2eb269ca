// Accuracy measures how well benchmark comparisons get answers that are
// known in advance, and prints the measurements as tables. Each table is a
// package of its own under internal/accuracy, whose doc says what it
// measures, how, and what each column means; the workloads the tables
// measure are in internal/accuracy/workloads, and what the tables share
// (building and running test binaries, reading their output) is in
// internal/accuracy/harness. Run it from the module root:
//
//	go run ./internal/accuracy                      # list the tables
//	go run ./internal/accuracy <table> [flags]      # run one table
//	go run ./internal/accuracy <table> -h           # its flags
//	go run ./internal/accuracy all                  # every table with its defaults, one after another
//
// The tables, each a package of the same name:
//
//	groundtruth  control.Compare vs go test -count + benchstat on seed 000: identical code flagged, +5% caught
//	forks        control.Compare with 1 and 10 forks vs benchstat: interval coverage, verdicts on 0–10%, swapped baselines
//	against      -benchkit.against vs two-file benchstat: identical binaries flagged, +5% caught, at equal wall time
//	signals      the report's grades, regime calls and flags on steady benchmarks and a hog; runs-needed vs run-to-run CV
//	wander       why fresh processes differ: the machine's speed changing over time, or something fixed per process
//	warmup       what a disposable first benchmark (warmup.Benchmark) does to an identical pair's first-position penalty
//	count        instructions per op under valgrind on a busy machine: spread across processes, +1% and +5% told from identical code, the cost
//
// A table prints its measurements to standard output (markdown for all
// but against, whose columns are aligned with spaces) with a line
// describing the machine, and its progress and errors to standard error.
// all runs the tables in the order above, prints "## <table>" before each,
// and exits with the largest status of the tables it ran. An unknown table
// name exits with status 2.
//
// Each table runs many processes one after another, for minutes; run the
// tables on a machine that is otherwise quiet.
package main
