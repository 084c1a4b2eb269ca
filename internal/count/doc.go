// Package count counts the instructions one op of a benchmark executes,
// under valgrind, where timing cannot decide: the count of identical code
// on a shared, noisy machine repeats to a few hundredths of a percent
// when its wall time varies by tens of percent. It runs one benchmark of
// a test binary (this binary through child.Self, or another build of the
// package) in child processes and returns instructions per op; it knows
// nothing of the session or the report.
//
// # Method
//
// Each process runs the test binary under
//
//	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --log-file=<tmp>/valgrind-<i>.log
//
// with -test.run='^$' -test.bench=<child.BenchFilter(name)>
// -test.count=1 -test.cpu=1 -test.benchmem=true -test.benchtime=<N>x,
// and reads the whole process's executed instructions from the "I refs"
// line of valgrind's summary ([ParseIRefs]). A process at N ops executes
// S + N·I instructions: I per op, and S for everything else (valgrind's
// view of the program's start-up, testing's and benchkit's work around
// the benchmark, the benchmark's own setup, the exit). S is the same at
// every N, so two processes at N1 < N2 give
//
//	I = (T(N2) − T(N1)) / (N2 − N1)
//
// ([PerOp]). N1 is 2: with -test.benchtime=Nx a b.Loop benchmark runs N
// ops, a b.N-style one 1 + N (testing's first call at b.N = 1, then
// b.N = N) when N > 1, so from N = 2 on both differ by N2 − N1 ops.
//
// N2 is chosen from an instruction budget ([DefaultBudget]): the
// difference T(N2) − T(N1) should be about the budget, so that the noise
// of a process's total (up to [NoiseFloor] instructions, from the
// runtime's time-driven background work and address-dependent searches)
// is a small share of it. The first process, at N1, bounds I from above
// (I ≤ T(N1)/N1, since S ≥ 0); with a hint of the benchmark's native
// ns/op the estimate is at most [InstructionsPerNs] per ns. From the
// estimate, k = N2 − N1 = ⌈budget/I⌉ ([NextK]); a process whose
// difference falls short of half the budget refines the estimate (from
// its own difference when that is at least 20 noise floors, else by
// growing k a hundredfold) and a further process runs, at most
// [MaxSteps] of them. k is capped at [MaxK], by the steps' growth (at
// most ×100 a step), so that the k ops allocate at most the heap limit
// ([DefaultHeapBytes], from the B/op each process prints): with the
// garbage collector off, every byte allocated stays; and so that the k
// ops take at most [DefaultOpsWall] under valgrind ([Limits.OpsWall]),
// at the wall time an op is estimated to take: the native ns/op (or the
// first process's wall time over its N1 ops), then each search process's
// wall time beyond the first's over its k. That bound ends the search
// only when the difference is at least the first process's wall time and
// a tenth of the bound (the load alone can double a process's wall
// time); a smaller one only slows k's growth. The budget's instructions
// take seconds, so only an op whose time is mostly not instructions (it
// sleeps, waits, runs other processes) reaches the bound; a process
// whose ops took more than 5/4 of it moves N2 down to the ops that fit.
// [Result.Capped] says which limit held k.
//
// [Limits.Repeats] processes run at N2 ([DefaultRepeats], two, unless
// set), each read against the one at N1; I is the mean of their per-op
// values, and [Result.HalfWidthPct] the half-width of its 95% Student's
// t-interval: work that differs from process to process (a map's random
// hash seed decides how many slots a lookup probes) shows there, where a
// single process at N2 cannot show it. [Compare] calls a change only
// beyond both counts' half-widths, and [Pair], which compares two builds,
// adds processes at N2 on both sides while that spread keeps a change
// from being called, up to [MaxRepeats] a side ([Limits.From] continues a
// count).
//
// # Settings
//
// Every process runs with GODEBUG=asyncpreemptoff=1,memprofilerate=0
// (after the caller's own GODEBUG and the cpu options below), GOMAXPROCS=1,
// GOGC=off, GOMEMLIMIT=off and BENCHKIT_WARMUP=off, plus the child markers
// (child.Env) so that benchkit.Main in the child only runs the benchmark:
//
//   - cpu.<feature>=off for each of the Go runtime's GODEBUG cpu options
//     (those the binary's Go release and GOAMD64 level register, from
//     its build information) whose feature this CPU lacks (env.CPUOff):
//     valgrind presents a fixed CPU model, which may claim a feature this
//     CPU lacks (valgrind 3.19 claims RDTSCP on AMD EPYC VMs without it),
//     and the runtime would then execute an instruction valgrind cannot
//     decode here and die of SIGILL; with them off the count follows the
//     path the binary takes natively;
//   - asyncpreemptoff: valgrind mishandles the signal Go's asynchronous
//     preemption sends (callgrind aborts on it), and the signal arrives
//     on a timer, a count that depends on time;
//   - memprofilerate=0: the heap profiler samples an allocation at random
//     intervals with a stack walk each, thousands of instructions at
//     random points; the count leaves the profiler out;
//   - GOMAXPROCS=1 and -test.cpu=1: valgrind runs one thread at a time
//     anyway; one P keeps the scheduler from handing work between
//     threads on timing; a benchmark is counted at one P whatever -cpu
//     says;
//   - GOGC=off and GOMEMLIMIT=off: no collection runs except the ones
//     testing forces before each run of the benchmark function (the same
//     in every process). The garbage collector's pacing and its
//     background workers are driven by time and by the heap's state, so
//     with it on the count of an allocating benchmark varies from process
//     to process.
//
// So the count of an allocating benchmark includes the allocator's work
// (mallocgc's fast path, span refills from mcentral and mheap, new pages
// taken from the OS, proportionately to how often that happens) and
// leaves out the collector's marking, sweeping and assists, the write
// barriers (on only while the collector marks), and the zeroing of reused
// memory (fresh pages from the OS are zero already, and with the
// collector off every page is fresh). It is the allocating code's path,
// not its cost in a program that collects garbage; time tells that.
//
// # What is counted
//
// Everything the process executes per op is counted: the benchmark's
// ops, and also work done per op with the timer stopped
// (benchkit.LoopWithSetup's setup function and its StopTimer/StartTimer
// pairs, a b.StopTimer section in a b.N loop). Work that runs once per
// run of the benchmark function (setup before b.Loop, Track's bookkeeping)
// cancels. Instructions of the processes the benchmark starts are not
// counted: valgrind runs without --trace-children and counts its own
// process only. Each process of a count writes, at its end, the resource
// use of the processes it started and waited for
// (getrusage(RUSAGE_CHILDREN), [EnvChildren]), and [Result.Children] says
// when the benchmark started any and whether they grew with N, so ran per
// op and are missing from the count. Instructions are the ones valgrind's
// virtual CPU executes: on amd64, valgrind 3.19 offers no AVX-512, so code that picks an
// implementation by CPU feature (the runtime's memmove, bytes.Index) is
// counted on the path it takes on such a CPU. A count sees the code path;
// it misses what makes the same instructions slower or faster: cache
// misses, branch mispredictions, the CPU's frequency, contention for
// cores, memory or locks. docs/counts.md has when to gate on which.
//
// # Where it cannot run
//
// [Find] returns an [*Error] when valgrind is not on PATH (with the
// command that installs it) or the platform is one valgrind does not run
// on; [Instructions] one when the binary was built with -race, -msan or
// -asan, when a process fails (for an instruction valgrind cannot decode
// or a SIGILL, its bytes and the GODEBUG setting that may avoid it),
// passes its deadline, prints no result for the
// benchmark (it skipped, or the name selects nothing), or valgrind's
// summary has no count. Every process has a deadline, and child.Run
// kills it at the deadline or when this process dies.
package count
