// Package stats is benchkit's statistics kernel: summaries, spread,
// outliers, two-regime detection, paired-ratio intervals and sample-size
// rules, over samples of benchmark results (one value per run or per
// batch, in run order).
//
//	mean, _ := stats.Mean(nsPerOp)          // Σx/n
//	cv, ok := stats.CV(nsPerOp)             // 100·sd/mean, percent, sample sd (n−1)
//	med, lo, hi, ok := stats.MedianCI(nsPerOp, 0.95) // benchstat's "± x%" (benchmath, n ≥ 6)
//	mad, _ := stats.MAD(nsPerOp)            // unscaled; σ ≈ stats.MADNormal·mad
//	o, _ := stats.Tukey(nsPerOp)            // 1.5·IQR mild, 3·IQR severe: reported, never dropped
//	r, bimodal := stats.TwoRegimes(nsPerOp) // two states of the machine?
//	r, shifted := stats.ShiftedBlock(batches) // a level-shifted block in time order?
//	c, found := stats.FindRegimes(batches, true) // the above; over a timeline, sustained levels only
//	ci, ok := stats.BatchMedianCI(batches, 0.95) // ± of one run's median from 16 blocks of its batches
//	d, drifting, ok := stats.Drift(batches) // Mann–Kendall trend on block medians
//	ratio, cold, ok := stats.ColdStart(xs)  // a cold first iteration?
//	runs, ok := stats.LehrRuns(cv, 5)       // runs per side to resolve a 5% change
//	p, ok := stats.MannWhitneyP(old, new)   // benchstat's p (benchmath)
//
// # Conventions
//
// Every function is total: it never panics, never returns NaN or ±Inf,
// and never modifies its input (benchmath.NewSample sorts in place, so the
// wrappers copy first). Inputs it cannot summarise (empty, too short,
// containing NaN or ±Inf, a mean that makes a ratio meaningless) give
// ok=false and zero values; the doc comment of each function lists its
// cases. Finite inputs of any magnitude, up to ±math.MaxFloat64, are
// handled without intermediate overflow where the result itself is
// representable. One exception: [Compress] downsamples a timeline in
// place, as its doc says, and passes NaN through.
//
// Quantiles are Hyndman and Fan type 7 (R's and NumPy's default); the
// median is the same one benchmath's AssumeNothing reports. Where
// benchmath computes something (the median CI, Mann-Whitney U) this
// package calls it rather than reimplementing it, and tests agreement to
// 1e-12.
//
// # Two regimes
//
// [TwoRegimes] splits a sample by value at the 1-D 2-means optimum and
// calls it two regimes when each side holds at least 15% of the runs, the
// centres are at least 5% apart, and Ashman's D of the split exceeds a
// critical value simulated for the sample size ([RegimeCriticalD]), lower
// when the regimes also persist over stretches of consecutive runs (a runs
// test). Outliers, heavy tails and slow drifts do not pass; seed 001's
// "run that lied" does.
//
// [ShiftedBlock] is the second test, for samples in time order whose slow
// regime is spiky (a CPU hog during part of one run, seen through
// benchkit.Loop's batches): a rank scan for one contiguous level-shifted
// block, with a seeded permutation p-value and gates on the size and
// shape of the step. The report uses it only when TwoRegimes finds none.
//
// [FindRegimes] runs both and, over a batch timeline, keeps a split only
// when it is a sustained level ([Sustained]: it survives a running median
// over a sixteenth of the run), so that scattered interference bursts stay
// outliers.
//
// # One run's timeline
//
// [BatchMedianCI] puts an interval on the level of a benchkit.Loop
// timeline by batch means over 16 blocks, widened for the autocorrelation
// of neighbouring blocks; [Drift] tests the block medians for a monotone
// trend (Mann–Kendall, Sen's slope); [ColdStart] recognises a first value
// far above the rest.
//
// # Lehr's rule
//
// [LehrRuns] is ⌈16·(cv/Δ)²⌉ runs per side for about 80% power at
// two-sided α = 0.05 under independent normal noise. Two regimes break its
// assumptions; check [TwoRegimes] first.
//
// The reasons behind these rules, and the measured false-positive rates
// of the regime tests, are in the repository's docs/statistics.md.
package stats
