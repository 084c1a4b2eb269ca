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

// Gate makes [Compare] fail the benchmark (b.Errorf) when a candidate is
// decided Slower by more than pct percent. An Undecided or Same candidate
// never fails the gate; the log says why it did not decide. Gate(0) turns
// the gate off (the default). pct must be a finite non-negative number.
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
// (0, 1); the default is 0.95. [verdict.Analyze] states how it is split
// over the intervals.
func Confidence(level float64) Option {
	return optionFunc(func(c *config) {
		if !(level > 0 && level < 1) {
			c.bad("control: Confidence(%v): the level must be in (0, 1), like Confidence(0.95)", level)
			return
		}
		c.confidence = level
	})
}

// Negligible sets ε, the size of a difference, in percent, that counts as
// no difference ([verdict.Analyze] states how the rule uses it). The
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
// implementation is fitted; the default is [DefaultBatchTime]. It must be
// between 10µs and 1s. Benchstat and Analyze ignore it. Longer batches
// hold more GC cycles and preemptions, shorter ones more of the clock's
// cost: docs/measurements.md has the sweep behind the default.
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
// is typical), seeded by [Seed]. It sorts resamples × rounds values, which
// can take seconds after the measurement. docs/statistics.md says why the
// sign test is the default.
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
// otherwise (docs/measurements.md has the calibration behind it).
const DefaultForks = 10

// Forks sets the number of fresh processes [Compare] spreads its rounds
// over, at least 1. BENCHKIT_FORKS and -benchkit.forks (registered by
// benchkit.Main) override it, up to [MaxForks]. Compare measures within
// this process, its interval then describing this process only, with
// Forks(1), under testing.Benchmark, under a go test flag that writes a
// file (-cpuprofile, -memprofile, -blockprofile, -mutexprofile, -trace,
// -coverprofile), and when the test binary cannot be re-executed; it says
// so in its log. docs/statistics.md describes the forks.
func Forks(n int) Option {
	return optionFunc(func(c *config) {
		if n < 1 {
			c.bad("control: Forks(%d): the number of processes must be at least 1, like Forks(5); Forks(1) measures within this process", n)
			return
		}
		c.forks = n
	})
}
