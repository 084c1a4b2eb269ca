// Package seed001 reproduces seed 001's "run that lied": one benchmark of
// the same code that reports two different answers, because the machine
// moved between two regimes while it ran.
//
// BenchmarkMakeBuffer_Correct measures MakeBuffer (a 64-byte make that
// escapes, like the seed's BenchmarkMakeBuffer_Correct) with benchkit.Loop,
// while a CPU hog, a child process spinning two threads per CPU, competes
// for the cores during the middle of the run (from a tenth of -benchtime
// to 1.6×-benchtime, as the hog stretches the run). The hog is started and
// stopped by the benchmark itself: it runs at most [HogLimit], stops when
// that window ends, when the benchmark ends (b.Cleanup, also on
// failure), and by itself when the benchmark process dies (its stdin
// closes).
//
// Run it with the report:
//
//	go test -run='^$' -bench=. ./examples/seed001
//
// The report's row shows a high CV graded do-not-trust, the share of the
// run the process waited for a CPU (wait%), the batch timeline as a strip
// plot with the slow middle, and two regimes with their centres and
// sizes: split by value when the hog's batches are steady enough, or else
// found as a level-shifted block of batches in order (the hog's batches
// are spiky on a busy machine; the finding then says "a level shift in
// batch order"). A real strip plot from a busy 2-core VM:
//
//	MakeBuffer_Correct-2  batches  ▁▁▁▁▁▁▂▃▃▃▃▄▅▅▅▄▇▆█▅▅▄▅▄▅▂▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▂▁▁  20.46ns … 387.6ns (means of 4 batches per column)
//
// With -count=6 or more the picture is seed 001's own: the runs of the
// middle third run entirely under the hog and the others without, so the
// runs fall into two regimes that the report's row, strip plot and
// findings show (run it with a short -benchtime):
//
//	go test -run='^$' -bench=. -count=20 -benchtime=100ms ./examples/seed001
//
// With -count below 6 each run gets the within-run window; with
// -benchtime=Nx a run has no duration to take a window of, so no hog runs
// then. Set SEED001_HOG=off to measure the machine without a hog.
package seed001

// MakeBuffer returns a new zeroed buffer of n bytes. Returned to the
// caller, the buffer escapes to the heap: one allocation per call.
func MakeBuffer(n int) []byte { return make([]byte, n) }

// HogLimit is the longest a hog child process runs, whatever happens to
// the benchmark that started it.
const HogLimit = 10e9 // nanoseconds: 10s
