// Package env probes the machine a benchmark runs on: what it is (CPU,
// governor, turbo, virtualisation, build flags) and how contended it is
// while a benchmark runs (run-queue wait, involuntary context switches,
// steal time).
//
// Nothing here returns an error for a file it cannot read: a probe that
// cannot read says "unknown" (a Known field set to false), on every
// operating system.
package env
