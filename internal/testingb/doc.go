// Package testingb is benchkit's one reader of a *testing.B: the
// unexported fields benchkit needs (the timer state, the allocation
// counters, whether b.Run was called, b.Loop's progress, the timer's last
// start, the parent, the benchmark function, b.SetBytes's value), read
// through reflection (read-only, no unsafe), and the names and GOMAXPROCS
// value under which go test prints a benchmark.
//
// A Go release that renames or retypes a field makes its accessor report
// ok false, never panic; [Note] lists every missing field with what
// benchkit does without it, once per process.
//
// Two of testing's quirks make b.Name() and runtime.GOMAXPROCS not enough
// to name a run:
//
//   - testing calls each benchmark's function once (run1) before it sets
//     GOMAXPROCS to the first -cpu value (golang/go#49980), and a b.Loop
//     benchmark measures its whole first repeat in that call, which go
//     test prints under the first -cpu value: [Procs] returns the printed
//     value, and [Stale] says when GOMAXPROCS differs from it;
//   - testing.Benchmark's B has no name: [Name] names it after the
//     function it runs.
package testingb
