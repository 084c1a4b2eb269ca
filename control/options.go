package control

import (
	"fmt"
	"math"
	"time"

	"github.com/benchkit/go-benchkit/control/verdict"
)

// An Option changes how [Compare], [Benchstat] or [Analyze] work. Options are
// made by the functions in this package; the interface is sealed.
type Option interface {
	apply(*config)
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	gate       float64       // percent; 0 = no gate
	confidence float64       // family-wise, in (0, 1)
	negligible float64       // percent
	seed       uint64        // order shuffling and bootstrap
	seedSet    bool          //
	batchTime  time.Duration // target baseline batch
	bootstrap  int           // resamples; 0 = sign test
	forks      int           // processes; 0 = not set by an option
	errs       []string      // invalid options, reported by the entry point
	// stopped is why measuring stopped early (set by Compare from the
	// measurement, never by an option): the rule then decides nothing.
	stopped string

	now func() time.Time // test knob: clock
}

// Defaults, documented on the options that change them.
const (
	DefaultConfidence = verdict.DefaultConfidence
	DefaultNegligible = verdict.DefaultNegligible // percent
	DefaultBatchTime  = 50 * time.Microsecond
)

func buildConfig(opts []Option) config {
	c := config{
		confidence: DefaultConfidence,
		negligible: DefaultNegligible,
		batchTime:  DefaultBatchTime,
		now:        time.Now,
	}
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	return c
}

// options returns the estimator's settings.
func (c config) options() verdict.Options {
	return verdict.Options{Confidence: c.confidence, Negligible: c.negligible, Gate: c.gate,
		Bootstrap: c.bootstrap, Seed: c.seed, Stopped: c.stopped}
}

func (c *config) bad(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// Gate makes [Compare] fail the benchmark (b.Errorf) when a candidate's
// verdict is Slower and its estimated slowdown, the median ratio, exceeds
// pct percent. An Undecided or Same comparison never fails the gate; the
// log says why it did not decide. Gate(0) turns the gate off (the
// default). pct must be a finite non-negative number.
func Gate(pct float64) Option {
	return optionFunc(func(c *config) {
		if !(pct >= 0) || math.IsInf(pct, 0) {
			c.bad("control: Gate(%v): the threshold must be a finite percentage ≥ 0, like Gate(5) for 5%%", pct)
			return
		}
		c.gate = pct
	})
}

// Confidence sets the family-wise confidence level of the intervals, in
// (0, 1); the default is 0.95. With k candidates, k+1 intervals are
// reported (the candidates and the control), and each is computed at the
// Bonferroni level 1 − (1 − level)/(k+1).
func Confidence(level float64) Option {
	return optionFunc(func(c *config) {
		if !(level > 0 && level < 1) {
			c.bad("control: Confidence(%v): the level must be in (0, 1), like Confidence(0.95)", level)
			return
		}
		c.confidence = level
	})
}

// Negligible sets the size of a difference, in percent, that counts as no
// difference: a candidate whose whole interval lies within ±pct is Same,
// and the control is trusted while its median lies within ±pct/2. The
// default is 1 (percent). pct must be a finite number > 0.
func Negligible(pct float64) Option {
	return optionFunc(func(c *config) {
		if !(pct > 0) || math.IsInf(pct, 0) {
			c.bad("control: Negligible(%v): the size must be a finite percentage > 0, like Negligible(1)", pct)
			return
		}
		c.negligible = pct
	})
}

// Seed fixes the seed of the pseudo-random round order (and of the
// bootstrap, when used). Without it a seed is drawn from the clock and
// logged, so an order can be replayed.
func Seed(s uint64) Option {
	return optionFunc(func(c *config) { c.seed, c.seedSet = s, true })
}

// BatchTime sets the target duration of one batch of the slowest
// implementation, from which the iteration count shared by every
// implementation is fitted (see the package doc); the default is 50µs ([DefaultBatchTime]). It must be between 10µs and
// 1s. Rounds and Analyze ignore it.
//
// Shorter batches pair more tightly in time: on a shared 2-core machine a
// 1ms batch of an allocating workload often contains a GC cycle or a
// preemption, and the control's interval was about 15–30 times wider than
// at 50µs (the sweep is in the repository's docs/measurements.md). Below
// about 20µs the two clock reads per batch (about 40–80ns each) start to
// count.
func BatchTime(d time.Duration) Option {
	return optionFunc(func(c *config) {
		if d < 10*time.Microsecond || d > time.Second {
			c.bad("control: BatchTime(%v): use a duration between 10µs and 1s, like BatchTime(time.Millisecond)", d)
			return
		}
		c.batchTime = d
	})
}

// Bootstrap replaces the sign-test interval by a percentile bootstrap of
// the median ratio with the given number of resamples (at least 100; 2000
// is typical), seeded by [Seed]. The sign test is the default: nanobench
// measured it to keep its coverage on skewed ratios where the bootstrap
// did not. The bootstrap sorts resamples × rounds values: with the
// default 50µs batches a 3s budget gives 10,000–25,000 rounds, and 2000
// resamples then take seconds after the measurement.
func Bootstrap(resamples int) Option {
	return optionFunc(func(c *config) {
		if resamples < 100 {
			c.bad("control: Bootstrap(%d): use at least 100 resamples, like Bootstrap(2000)", resamples)
			return
		}
		c.bootstrap = resamples
	})
}

// DefaultForks is the number of processes [Compare] spreads its rounds
// over when neither [Forks], BENCHKIT_FORKS nor -benchkit.forks says
// otherwise. docs/measurements.md has the calibration it was chosen by.
const DefaultForks = 10

// Forks sets the number of fresh processes [Compare] spreads its rounds
// over: n = 1 measures within this process, as Compare did before forks
// existed, and its interval then describes this process only. n must be
// at least 1. The environment variable BENCHKIT_FORKS and the flag
// -benchkit.forks (registered by benchkit.Main) override it. See the
// package doc's "Forks" section.
func Forks(n int) Option {
	return optionFunc(func(c *config) {
		if n < 1 {
			c.bad("control: Forks(%d): the number of processes must be at least 1, like Forks(5); Forks(1) measures within this process", n)
			return
		}
		c.forks = n
	})
}
