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
// contradicts the declared benchkit.ExpectAllocs(1) (exact, every run), and
// its ns/op sits at the empty-loop floor. The OnesCount pair shows the
// limit of timing: the folded constant and the real POPCNT both cost about
// 1 ns, around 2.5× the floor, so either, both or neither may be flagged
// from run to run; the assembly tells them apart (MOVL $3 against
// POPCNTQ), and sink.Opaque is the fix. The deliberate misuses that fail a
// benchmark (a StopTimer without StartTimer) live in benchkit/testdata, run
// by benchkit's tests.
package seed004
