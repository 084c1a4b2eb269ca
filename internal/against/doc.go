// Package against compares this test binary's benchmarks with another
// build of the same package (benchkit.Main's -benchkit.against), next to
// an A/A control: the base again.
//
// Start at [NewPlan], which checks the settings, the go test flags and
// the base binary (pinned for the run, so that every process runs the
// bytes that were hashed), and [Measure], which runs the comparison and
// returns its [Result]. Measure first asks each binary which benchmarks
// it has and which of them speak the lockstep protocol (discover.go);
// those run in triples of live processes driven one run at a time over a
// pipe (lockstep.go), the rest in rounds of whole processes (rounds.go,
// output.go parses their output); both are analysed with the one
// estimator, control/verdict (analyze.go), and with counts, both binaries
// are counted under valgrind (count.go). The gates are decided here and
// recorded on each [Bench]; the report prints them. docs/ci.md says what
// users see, docs/architecture.md where this sits.
package against
