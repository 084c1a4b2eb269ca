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
// The tables:
//
//	groundtruth  control.Compare against go test -count + benchstat on seed 000's identical pair and +5% (package groundtruth)
//	forks        control.Compare with 1 and 10 forks against benchstat on four workloads 0–10% apart, and a swapped baseline (package forks)
//	against      -benchkit.against against two-file benchstat on identical binaries and on +5% (package against)
//	signals      the report's grades, regime calls and flags on steady benchmarks and on a hog; runs-needed against the run-to-run CV (package signals)
//	wander       whether fresh processes differ because the machine changes speed or because of something fixed per process (package wander)
//	warmup       what a disposable first benchmark (warmup.Benchmark) does to the first-position penalty (package warmup)
//
// A table prints to standard output (markdown, with a line describing the
// machine and the command that repeats the run) and its progress and
// errors to standard error. all prints "## <table>" before each table and
// exits with the largest status of the tables it ran. An unknown table
// name exits with status 2.
//
// Each table runs many processes one after another, for minutes; run the
// tables on a machine that is otherwise quiet.
package main
