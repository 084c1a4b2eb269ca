// Package benchname names the records of a *testing.B the way go test
// prints the benchmark, for package benchkit and package control to file
// their runs and comparisons under one registry key.
//
// Two of testing's quirks make b.Name() and runtime.GOMAXPROCS not enough:
//
//   - testing calls each benchmark's function once (run1) before it sets
//     GOMAXPROCS to the first -cpu value (golang/go#49980), and a b.Loop
//     benchmark measures its whole first repeat in that call, which go
//     test prints under the first -cpu value: [Procs] returns the printed
//     value, and [Stale] says when GOMAXPROCS differs from it;
//   - testing.Benchmark's B has no name: [Name] names it after the
//     function it runs.
//
// Both read unexported fields of testing.B through reflection (read-only,
// no unsafe); where a Go release renames them, Procs falls back to
// GOMAXPROCS now and Name to "testing.Benchmark".
package benchname
