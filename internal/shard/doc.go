// Package shard owns the rule that spreads a run's benchmarks over N
// shards (-benchkit.shard=K/N), so that N runners of a CI matrix each
// measure a deterministic 1/N of them and their reports merge into one.
//
// A top-level benchmark belongs to shard Of(pkg, name, n): the 64-bit
// FNV-1a hash of the package's import path, a NUL byte and the function's
// name ("BenchmarkSum"), modulo n, plus 1. The assignment depends on
// nothing but those three values: adding or removing a benchmark moves no
// other, the same benchmark lands in the same shard on every runner and
// in both builds of a cross-build comparison, and the sub-benchmarks of a
// function stay together. Changing n reassigns. A hash does not balance
// small sets: with few benchmarks a shard may get none.
package shard
