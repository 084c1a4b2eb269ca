// Package seed004 reproduces seed 004's benchmarks, "the Go benchmark that
// measured nothing", with benchkit applied: the compiler deleting a
// discarded allocation (MakeBuffer), folding a constant input (OnesCount),
// per-iteration setup around the timer (Process) and the b.Loop form
// (Hash).
//
//	go test -run='^$' -bench=. -count=3 ./examples/seed004
//
// Every benchmark passes; benchkit's flags are warnings under each line
// (--- BENCH:). BenchmarkMakeBuffer_DCE is flagged twice: its 0 allocs/op
// contradicts the declared benchkit.ExpectAllocs(1), and its ns/op sits at
// the empty-loop floor. BenchmarkOnesCount_ConstantFolded sits at the floor
// too, and so may BenchmarkOnesCount_Correct, a single POPCNT that timing
// cannot tell from an empty loop (the assembly can). The deliberate
// misuses that fail a benchmark (a StopTimer without StartTimer) live in
// benchkit/testdata, run by benchkit's tests.
package seed004
