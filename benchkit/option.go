package benchkit

import "fmt"

// Option changes what [Track], [Loop] and [Setup] check. Options are built
// by the functions of this package ([ExpectAllocs], [FailOnFlags]); the
// interface is sealed.
type Option interface {
	apply(*config)
}

// config holds every option's value; defaults live in newConfig.
type config struct {
	// expectAllocs is the declared allocations per op, 0 when none.
	expectAllocs int
	// failOnFlags turns flags from b.Log warnings into b.Error failures.
	failOnFlags bool
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
// times on the heap. A run whose allocs/op (the heap allocations testing
// counted in the timed part of the run, divided by b.N, unrounded) is below
// n − ½, that is, rounds to fewer than n, is flagged: the allocation, and
// most likely the work around it, did not happen, typically because the
// compiler removed a call whose result was discarded (seed 004's
// BenchmarkMakeBuffer_DCE reports 0 allocs/op for a make([]byte, 64)).
//
// ExpectAllocs panics if n < 1: declaring zero allocations expects nothing
// that a missing allocation could contradict.
func ExpectAllocs(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("benchkit: ExpectAllocs(%d): the declared allocations per op must be at least 1; drop the option if the work does not allocate", n))
	}
	return optionFunc(func(c *config) { c.expectAllocs = n })
}

// FailOnFlags makes every flag raised for the benchmark (probably
// eliminated work, fewer allocations than declared, heavy timer toggling,
// setup costlier than the work, misuse) fail it with b.Error instead of
// being logged with b.Log. The default is to warn. A stopped timer always
// fails the benchmark, with or without this option, because failing is what
// stops testing from ramping b.N to 1e9. A flag that failed the benchmark
// makes [Main] exit 1 even when go test passes, as it does when only a
// later -count repeat failed.
func FailOnFlags() Option {
	return optionFunc(func(c *config) { c.failOnFlags = true })
}
