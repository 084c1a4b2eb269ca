// Package count holds the workloads of the count table
// (internal/accuracy/count): three benchmarks whose work is known in
// size, built three ways so that one build does 1% and another 5% more
// work than the base:
//
//	benchmark         what one op does                               base  +1%   +5%
//	BenchmarkCompute  adds uint64s (compute-bound)                   2000  2020  2100
//	BenchmarkAlloc    makes 64-byte heap allocations                 100   101   105
//	BenchmarkMap      looks up 16-byte string keys in a 4096-entry map  200   202   210
//
// Built plainly it is the base; with -tags count_plus1 or -tags
// count_plus5 the sizes are the +1% or +5% column. The work grows
// linearly with the size, so the instructions per op grow by a little
// less than the nominal percentage (the loop's and the call's fixed cost
// do not grow).
//
// Each benchmark calls benchkit.Track and runs under benchkit.Main, as a
// user's would.
package count
