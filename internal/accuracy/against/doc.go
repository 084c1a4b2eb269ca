// Package against measures -benchkit.against on the question CI asks
// ("did this build make it slower?"): how often each way of pairing two
// builds flags identical code and catches a 2% and a 5% slowdown, how
// wide its intervals are and whether they cover, at what wall time.
//
//	go run ./internal/accuracy against -r 20
//	go run ./internal/accuracy against -r 20 -load 2
//
// It builds internal/accuracy/workloads/against four ways with go test
// -c: plainly (base.test), a second time with -trimpath (rebuilt.test:
// identical code, a different binary), and with -tags against_plus2 and
// against_plus5 (2% and 5% more work). The scenarios are A/A (base.test
// against itself), A/A rebuilt, +2% and +5%. Each repetition runs every
// scenario with every method, in an order that rotates between
// repetitions, on both workloads (BenchmarkCompute, BenchmarkAlloc) at
// once:
//
//   - lockstep, rounds: <new> -test.bench='^Benchmark(Compute|Alloc)$'
//     -test.benchtime=<-benchtime> -benchkit.against=base.test
//     -benchkit.pairing=<method> -benchkit.rounds=<-rounds>, reading the
//     verdicts and intervals from the JSON report;
//   - plain: base.test, then <new>, each with -test.count=<-count> at
//     the same -benchtime, compared as benchstat does (benchmath
//     AssumeNothing: ratio of medians, Mann-Whitney U, flagged when
//     p ≤ 0.05; no interval on the ratio).
//
// With -load N it starts N busy-loop processes before the first run and
// ends them after the last. A table of 20 repetitions at the default
// -benchtime takes hours; with -log FILE every finished repetition is
// appended to FILE, and a later run with the same flags on the same code
// reads them back and measures only the repetitions still missing, so the
// table can be gathered over several invocations. The logs of the tables
// docs/measurements.md is to quote are kept in logs/ beside this file:
//
//	go run ./internal/accuracy against -r 20 -log internal/accuracy/against/logs/quiet.jsonl
//	go run ./internal/accuracy against -r 20 -load 2 -log internal/accuracy/against/logs/load2.jsonl
//
// A log's repetitions stand for the code they measured (its settings name
// the base build's hash): after a change to benchkit, the log is refused
// and the table starts again.
//
// The columns, per workload, scenario and method: flagged (A/A: any
// decided difference) or caught (slower), wrong sign (faster), undecided,
// the median Δ over repetitions, the median interval width (hi − lo, in
// points), the coverage (how many repetitions' intervals hold the row's
// median Δ) and the median wall time of a repetition (both workloads). A
// line describing the machine and the command follows.
package against
