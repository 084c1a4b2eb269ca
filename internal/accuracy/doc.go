// Accuracy measures how well benchmark comparisons get answers that are
// known in advance, and prints the measurements as tables. Each table is a
// package of its own under internal/accuracy, whose doc says what it
// measures, how, and what each column means; the workloads the tables
// measure are in internal/accuracy/workloads, and what the tables share
// (building and running test binaries, reading benchkit's JSON report,
// the only way a table reads what benchkit measured) is in
// internal/accuracy/harness. Run it from the module root:
//
//	go run ./internal/accuracy                      # list the tables
//	go run ./internal/accuracy <table> [flags]      # run one table
//	go run ./internal/accuracy <table> -h           # its flags
//	go run ./internal/accuracy all                  # every table with its defaults, one after another
//
// The listing names each table, a package of the same name, with one line
// on what it measures; the one list of the tables is the tables variable
// in main.go.
//
// A table prints its measurements to standard output (markdown for all
// but against, whose columns are aligned with spaces) with a line
// describing the machine, and its progress and errors to standard error.
// all runs the tables in the listing's order, prints "## <table>" before
// each, and exits with the largest status of the tables it ran. An unknown
// table name exits with status 2.
//
// Each table runs many processes one after another, for minutes; run the
// tables on a machine that is otherwise quiet.
package main
