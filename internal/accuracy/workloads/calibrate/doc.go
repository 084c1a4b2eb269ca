// Package calibrate holds the workloads of the forks table
// (internal/accuracy/forks): four workloads of different kinds, each in
// five implementations whose true difference is known in direction and
// roughly in size, and a swap pair compared both ways round. The table
// (go run ./internal/accuracy forks) runs them many times as fresh
// processes and counts how often each way of comparing gets the answer.
// The benchmarks run only with BENCHKIT_CALIBRATE=1 in the environment
// (the table sets it) or under a -benchtime=Nx smoke run; otherwise they
// skip, so that go test -bench=. ./... stays short.
//
// Every workload has a baseline "base", an identical copy "same" (the
// same work in a distinct function literal, truth 0%), and variants "p2",
// "p5" and "p10" that do about 2%, 5% and 10% more work:
//
//	work   what one call does                                 base  p2    p5    p10
//	sum    adds uint64s (compute-bound)                       1000  1020  1050  1100
//	alloc  makes 64-byte heap allocations                     200   204   210   220
//	map    looks up pseudo-random keys in a 4096-entry map    1000  1020  1050  1100
//	sort   copies and sorts strings of 8–15 bytes             64    65    67    69
//
// sum and alloc call seed 000's workloads, Sum and Alloc of
// examples/seed000, with this package's sizes.
//
// For sum, alloc and map the work grows linearly with the count, so the
// nominal sizes are +2%, +5% and +10% (less the fixed cost of one call).
// Sorting n strings costs about n·log₂n comparisons plus n copies and one
// allocation; 65, 67 and 69 strings are +1.9%, +5.8% and +9.8% by n·log₂n
// alone, and less by the linear part. slices.Sort's comparison count also
// depends on the data, by several percent from one n to the next, so the
// strings are drawn from a seed ([WordSeed]) on which the count rises
// steadily: +1.6%, +6.3% and +9.5% over 64 strings with Go 1.26
// (TestSortComparisons checks it stays within a point or two of nominal).
// In time, one short Compare run measured about +1.1%, +6.9% and +9.0%.
//
// The table does not rely on any of these nominal sizes: its truth for a
// row is the median estimate across all repetitions of that method, and
// the nominal size only says which sign is right and roughly how large the
// effect is.
//
// The swap workload is [FNV] and [Fold] of the same 1 KiB ([Buf]), about
// 20× apart: BenchmarkCompare/work=swap/base=fnv compares fold with fnv
// as the baseline, and base=fold the other way round. The ratio fnv/fold
// must not depend on which one is the baseline.
//
// bench_test.go measures the implementations two ways:
//
//   - BenchmarkCompare/work=<w>: one control.Compare per workload, base
//     against same, p2, p5 and p10 (swap: two, one each way round);
//   - BenchmarkPlain/work=<w>/impl=<base|same|p2|p5|p10> (swap:
//     impl=<fnv|fold>): ordinary for b.Loop() benchmarks, for go test
//     -count=10 and benchstat -col /impl.
//
// Both ways call each implementation through one function value, so
// they do the same work per operation. The package's TestMain calls
// benchkit.Main, so that a run can write the JSON report (-benchkit.json)
// the forks table reads Compare's estimates from; the table runs both
// ways with -benchkit.warmup=off, so that neither gets benchkit's warm-up.
package calibrate
