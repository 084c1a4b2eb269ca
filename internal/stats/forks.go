package stats

import "golang.org/x/perf/benchmath"

// ForkMinN is the least number of per-process estimates [ForkInterval]
// accepts: a t-interval needs one degree of freedom.
const ForkMinN = 2

// ForkInterval returns a two-level confidence interval from xs, one
// estimate per process (fork): the mean of xs and Student's t-interval
// around it at the given confidence, computed by benchmath.AssumeNormal
// (the t-interval benchstat uses when told to assume normality). Each
// process's estimate already carries that process's own sampling error
// (its rounds), and the spread of the estimates across processes adds
// what differs between processes (heap and stack placement, the machine's
// state): the interval covers both. This is the cluster-level analysis
// Kalibera and Jones recommend for repeated process executions
// ("Rigorous Benchmarking in Reasonable Time", ISMM 2013), with processes
// as the top level.
//
// Center, Lo and Hi are in the units of xs, Confidence is the requested
// level, N is len(xs). ok is false, with a zero interval, when xs has
// fewer than ForkMinN values or holds NaN or ±Inf, or confidence is not
// strictly between 0 and 1. When all values are equal the interval is
// that value, with zero width.
func ForkInterval(xs []float64, confidence float64) (ci PairedInterval, ok bool) {
	if len(xs) < ForkMinN || !finite(xs) || !(confidence > 0 && confidence < 1) {
		return PairedInterval{}, false
	}
	s := benchmath.AssumeNormal.Summary(newSample(xs), confidence)
	if !isFinite(s.Center) || !isFinite(s.Lo) || !isFinite(s.Hi) {
		return PairedInterval{}, false
	}
	lo, hi := min(s.Lo, s.Center), max(s.Hi, s.Center)
	return PairedInterval{Center: s.Center, Lo: lo, Hi: hi, Confidence: confidence, N: len(xs)}, true
}
