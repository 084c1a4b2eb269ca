// Package warmup warms the machine up before benchmarks are measured.
//
// In a `go test -bench` process the first benchmark can run slower than
// identical code measured after it: a CPU still ramping its clock, cold
// caches and page tables, and a runtime still sizing itself all cost the
// first work done. Package warmup offers two ways to pay that cost where
// it does not matter. Whether it helps on a given
// machine is an empirical question: the warmup table of this module's
// accuracy command (go run ./internal/accuracy warmup) measures it.
//
// From TestMain, or anywhere before measuring, call [Run]. It runs a fixed
// CPU-bound workload in short batches of equal work until the last few batch
// times agree, or a time limit passes, and says what happened:
//
//	r := warmup.Run() // defaults: 5 batches within 5%, 2ms batches, 1s limit
//	fmt.Println(r)    // warm-up 21ms, 8 batches, stable (5 within 5%), first batch 1.07× slower than last
//	for _, w := range r.Warnings {
//		fmt.Println(w) // e.g. did not converge within the limit, with the fix
//	}
//
// Options change the rule: [Stable](k, tolerance), [Limit](d),
// [MinTime](d), [BatchTime](d). Invalid option values panic at
// construction with a "warmup:" message, because they are programming
// errors; a warm-up that does not converge is a runtime condition and is
// reported in [Result.Warnings] instead.
//
// Without a TestMain, make the first benchmark of the package a disposable
// one and discard its line:
//
//	func BenchmarkWarmup(b *testing.B) { warmup.Benchmark(b) }
//
// Package warmup imports nothing outside the standard library.
package warmup
