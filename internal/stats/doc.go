// Package stats is benchkit's statistics kernel: summaries, spread, outliers,
// two-regime detection, paired-ratio intervals and sample-size rules.
//
// Every function is total: it never panics and never returns NaN or ±Inf.
// Inputs it cannot summarise (empty, too short, containing NaN or ±Inf, or
// with a mean that makes a ratio meaningless) give ok=false and a zero value.
// No function modifies its input slice.
package stats
