// Package benchkit makes `go test -bench` numbers honest from inside your
// _test.go files. You keep writing func BenchmarkX(b *testing.B) and running
// go test -bench; benchkit audits each run, adds a few metrics to the
// benchmark's own line, and prints one report at the end:
//
//	func TestMain(m *testing.M) { benchkit.Main(m) }
//
//	func BenchmarkSum(b *testing.B) {
//		benchkit.Track(b) // cv%, wait%, timer audit, eliminated-work check
//		for b.Loop() {
//			sink.Keep(Sum(xs))
//		}
//	}
//
// [Track] audits and records a run; [Loop] also runs the loop and times
// batches of it, so that one run has a spread; [LoopWithSetup] adds an
// untimed setup per iteration. [Main] prints one report of everything they
// and package control recorded, writes the files asked for, compares with
// another build under -benchkit.against, and exits with a code that
// includes benchkit's gates.
//
// # Checks
//
// Each run is checked. A problem is a flag, logged once per benchmark and
// kind with its numbers and the fix, and kept for the report:
//
//   - timer-stopped: the timer is stopped and never started again (fails);
//   - timer-toggling: the timer was off for most of the run;
//   - setup-cost: LoopWithSetup's timer pairs cost more than the work;
//   - eliminated: ns/op near an empty loop's (use sink.Keep, sink.Opaque);
//   - allocs: fewer allocations per op than [ExpectAllocs] declared;
//   - misuse: Track twice, in a parent of b.Run, or in a RunParallel body.
//
// Flags warn. [Allow] accepts a timing kind for one benchmark, with a
// reason; [FailOnFlags] makes flags fail their benchmark, and strict mode
// (-benchkit.strict) every flag not allowed, and the run.
//
// The mechanics are in docs/ in the repository: docs/statistics.md,
// docs/troubleshooting.md (each check's thresholds, every message),
// docs/report.md (the report, the metrics, the JSON schema), docs/ci.md,
// docs/compatibility.md (go test flags, Go releases) and
// docs/measurements.md.
package benchkit
