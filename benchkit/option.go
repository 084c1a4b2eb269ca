package benchkit

import (
	"fmt"
	"strings"

	"github.com/benchkit/go-benchkit/internal/registry"
)

// Option changes what [Track], [Loop] and [LoopWithSetup] check. Options are built
// by the functions of this package ([ExpectAllocs], [FailOnFlags],
// [Allow]); the interface is sealed.
type Option interface {
	apply(*config)
}

// config holds every option's value; defaults live in newConfig.
type config struct {
	// expectAllocs is the declared allocations per op, 0 when none.
	expectAllocs int
	// failOnFlags turns flags from b.Log warnings into b.Error failures.
	failOnFlags bool
	// allowed maps a flag kind accepted with Allow to the reason given.
	allowed map[registry.FlagKind]string
}

func newConfig(opts []Option) config {
	var c config
	c.add(opts)
	return c
}

func (c *config) add(opts []Option) {
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// ExpectAllocs declares that one op of the benchmark allocates at least n
// times on the heap. A run whose allocs/op rounds to fewer than n is
// flagged: the allocation, and most likely the work around it, did not
// happen, typically because the compiler removed a call whose result was
// discarded. It panics if n < 1.
func ExpectAllocs(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("benchkit: ExpectAllocs(%d): the declared allocations per op must be at least 1; drop the option if the work does not allocate", n))
	}
	return optionFunc(func(c *config) { c.expectAllocs = n })
}

// FailOnFlags makes every flag raised for the benchmark fail it with
// b.Error instead of being logged with b.Log (the default). A stopped
// timer fails the benchmark with or without this option: failing is what
// stops testing from ramping b.N to 1e9. A flag that failed the benchmark
// makes [Main] exit 1 even when go test passes, as it does when only a
// later -count repeat failed.
func FailOnFlags() Option {
	return optionFunc(func(c *config) { c.failOnFlags = true })
}

// allowable are the flag kinds [Allow] accepts: the ones judged from
// timing, which a genuinely tiny body or a noisy machine can raise on
// correct code. The others are certain: "allocs" compares an exact count
// with the benchmark's own ExpectAllocs (lower the declaration instead),
// "timer-stopped" must fail to stop testing's runaway ramp, and "misuse"
// is a call that cannot measure.
var allowable = map[registry.FlagKind]bool{
	registry.FlagEliminated:    true,
	registry.FlagTimerToggling: true,
	registry.FlagSetupCost:     true,
}

// Allow accepts flags of the given kind for this benchmark, for the
// reason why: they are still recorded, and the report and the JSON show
// them with the reason, but they are not logged and fail nothing, under
// [FailOnFlags] or Main's strict mode. Use it for a correct benchmark that
// a timing check flags on every run, such as a 1 ns body the
// eliminated-work check cannot tell from an empty loop:
//
//	benchkit.Track(b, benchkit.Allow("eliminated", "one AND; kept, per go test -gcflags=-S"))
//
// kind is "eliminated", "timer-toggling" or "setup-cost" (LoopWithSetup
// still stops a run headed past its limit). Allow panics for any other
// kind, saying why it cannot be allowed, and for an empty why.
func Allow(kind, why string) Option {
	k := registry.FlagKind(kind)
	if !allowable[k] {
		panic(fmt.Sprintf("benchkit: Allow(%q): %s", kind, notAllowable(k)))
	}
	if strings.TrimSpace(why) == "" {
		panic(fmt.Sprintf("benchkit: Allow(%q, \"\"): give the reason the flag is wrong for this benchmark; the report shows it", kind))
	}
	return optionFunc(func(c *config) {
		if c.allowed == nil {
			c.allowed = map[registry.FlagKind]string{}
		}
		c.allowed[k] = why
	})
}

// notAllowable says why Allow refuses kind.
func notAllowable(k registry.FlagKind) string {
	switch k {
	case registry.FlagAllocs:
		return "the allocs flag compares an exact count with your own ExpectAllocs; lower or drop the declaration instead"
	case registry.FlagTimerStopped:
		return "a stopped timer always fails, or testing ramps b.N to 1e9; call b.StartTimer() after the untimed part"
	case registry.FlagMisuse:
		return "misuse is a call that cannot measure; fix the call (the message says how)"
	}
	return `the kinds that can be allowed are "eliminated", "timer-toggling" and "setup-cost"`
}
