// Package against measures -benchkit.against on the question CI asks
// ("did this build make it slower?"): how often each way of pairing two
// builds flags identical code and catches a slowdown, how far its Δ lies
// from the truth, how wide its intervals are and whether they cover, at
// what wall time.
//
//	go run ./internal/accuracy against -r 20
//	go run ./internal/accuracy against -r 20 -load 2
//	go run ./internal/accuracy against -r 1 -benchtime 20ms -count 2 -truth-procs 2 -truth-benchtime 50ms -scenarios aa,plus5 -workloads Compute
//
// # Builds, scenarios and workloads
//
// It builds internal/accuracy/workloads/against with go test -c: plainly
// (the base), and once for each scenario that is not the base itself.
// The scenarios (-scenarios, by the alias in brackets; the first four are
// the default):
//
//	A/A          [aa]        the base against itself
//	A/A rebuilt  [rebuilt]   built again with -trimpath: identical code, another binary
//	+2%          [plus2]     -tags against_plus2: 2% more of every work
//	+5%          [plus5]     -tags against_plus5: 5% more
//	+25%         [plus25]    -tags against_plus25: 25% more
//	2×           [x2]        -tags against_x2: twice every work
//	+5% bytes    [bytes5]    -tags against_bytes5: Alloc, AllocLive only; 5% more bytes allocated, untouched
//	+5% mutator  [mutator5]  -tags against_mutator5: Alloc, AllocLive only; 5% more compute, no allocation
//
// (the workloads package's doc says what each build adds). The bytes5
// and mutator5 builds leave Compute and Map as the base's, so the table
// measures those two scenarios on Alloc and AllocLive only. A scenario's
// nominal change (0 for the A/As; 2, 5, 25, 100; 5 for bytes5 and
// mutator5) decides how its verdicts are tallied: any decided verdict on
// an A/A is flagged; on the others "slower" is caught and "faster" the
// wrong sign.
//
// The workloads (-workloads, default all) are the package's benchmarks
// Compute, Map, Alloc and AllocLive. Each is measured in an invocation
// of its own, so that each row has its own wall time.
//
// # A repetition
//
// Each repetition runs every scenario with every method on every
// workload, in an order that rotates between repetitions:
//
//   - lockstep, rounds: <new> -test.bench='^Benchmark<w>$'
//     -test.benchtime=<-benchtime> -benchkit.against=base.test
//     -benchkit.pairing=<method>, with -benchkit.rounds=<-rounds> in
//     rounds pairing always (default 10, DefaultRounds) and in lockstep
//     only when -rounds is given (else lockstep's adaptive design chooses
//     its triples: a pilot, variance components, sequential looks, a
//     budget of 16 × -benchtime), reading the verdicts, the intervals and
//     lockstep's triples, stop reason and variance components from the
//     JSON report;
//   - plain: base.test, then <new>, each with -test.count=<-count> at the
//     same -benchtime, compared as benchstat does (benchmath
//     AssumeNothing: ratio of medians, Mann-Whitney U, flagged when
//     p ≤ 0.05; no interval on the ratio).
//
// With -load N it starts N busy-loop processes before the first
// measurement (the check, the truth or a repetition) and ends them after
// the last.
//
// # The truth
//
// For every workload and every non-A/A scenario, the truth Δ is the
// build's long-run cost per op against the base's: -truth-procs (default
// 10) fresh processes per build of go test -run='^$'
// -bench='^Benchmark<w>$' -benchtime=<-truth-benchtime, default 10s>
// -count=1, base and scenario builds alternating, Δ = median(scenario) /
// median(base) − 1. An A/A's truth is 0 by construction. It is measured
// once per table, before the first repetition it lacks (after the check,
// when there is one); -truth-procs 0 skips it. The footer says how it was
// measured and how much the base build's processes differed (their CV):
// a truth is only as sharp as that spread over √(-truth-procs) allows.
//
// # The log
//
// A table of 20 repetitions at the default -benchtime takes hours; with
// -log FILE every finished repetition is appended to FILE, and a later
// run with the same flags reads them back and measures only the
// repetitions still missing, so the table can be gathered over several
// invocations. The truth goes into the log too, as a line of its own
// kind, and is not measured again while a truth of the same
// -truth-benchtime and -truth-procs is there. The logs of the tables
// docs/measurements.md is to quote are kept in logs/ beside this file:
//
//	go run ./internal/accuracy against -r 20 -log internal/accuracy/against/logs/quiet.jsonl
//	go run ./internal/accuracy against -r 20 -load 2 -log internal/accuracy/against/logs/load2.jsonl
//
// A log holds one setting: -benchtime, -rounds (given or not), -count,
// -load, -methods, -scenarios and -workloads; a log of other settings is
// refused, naming them. The code is not a setting: each repetition names
// the code it measured (the first 12 hex digits of the SHA-256 of the
// base build, which holds benchkit and the workloads). When the log holds
// repetitions and none of this code, the table first measures one check
// repetition (every cell, as a normal repetition) and compares it, per
// cell and workload, with the logged ones: its Δ must lie within
// max(3 × the logged Δs' interquartile range, their median interval
// width, 1 point) of their median Δ, and its verdict must be one they
// gave (a flagged A/A where the log never flagged one fails). If it
// agrees, it is kept as a repetition, counting toward -r, and the table
// goes on, its footer naming the code hashes the repetitions span; if not,
// the table stops, naming each cell that disagrees: start a new log.
// Lines from before the code left the settings ("code <hash> -benchtime
// ...") are read with the hash taken out of their settings; they measured
// Compute and Alloc in one invocation with 10 triples, so they load with
// -rounds 10 -workloads Compute,Alloc, and their one wall time per cell is
// left out of the rows' walls.
//
// # The columns
//
// Per workload, scenario and method: flagged (A/A: any decided
// difference) or caught (slower), wrong sign (faster), undecided, the
// median Δ over repetitions, the truth Δ, the median interval width
// (hi − lo, in points), how many repetitions' intervals hold the row's
// median Δ and how many hold the truth Δ; for lockstep the median number
// of triples, the stop reasons tallied ("decided 14, budget 6") and the
// median between-process / within-process CVs (how much processes and
// runs within one differed); for a lockstep row whose runs held
// collections, the median collector parts (new over base at equal
// collections, and new's collections per op over base's, in percent:
// a build that adds only work moves the first, one that adds only
// allocation the second); and the median wall time of a repetition of
// that workload and method. A second table gives, per workload and
// scenario, lockstep's median wall over plain's. The footer describes the
// machine, the command, the log, the code and the truth. The table
// prints what it measured; whether that meets a goal is for the prose
// that quotes it.
package against
