package control

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/testingb"
)

// Benchstat is With().Benchstat: see [Comparer.Benchstat].
func Benchstat(b *testing.B, r int, base Impl, cands ...Impl) {
	b.Helper()
	Comparer{}.Benchstat(b, r, base, cands...)
}

// Benchstat is the benchstat-compatible mode: it registers r rounds of
// sub-benchmarks named round=<rrr>/impl=<name>, one per implementation
// including the control copy of the baseline ("control"), each an ordinary
// `for b.Loop() { f() }` benchmark run for -benchtime. Round 000 runs them
// in the order given, so benchstat takes the baseline as its first column;
// later rounds in a pseudo-random order ([Seed]). Run with -count=1 and
// read with
//
//	go test -run='^$' -bench=BenchmarkX -count=1 | benchstat -col /impl -ignore /round -
//
// The run costs about r × (len(cands)+2) × -benchtime. r must be at least
// 1; names are checked as in [Compare]. Benchstat computes no verdict
// (Compare does); Gate, BatchTime, Negligible, Confidence and Bootstrap do
// not apply. It logs its seed and notes on the parent benchmark, which go
// test shows only with -v; a -count above 1 is also recorded for
// benchkit's report.
func (c Comparer) Benchstat(b *testing.B, r int, base Impl, cands ...Impl) {
	b.Helper()
	cfg := buildConfig(c.opts)
	if len(cfg.errs) > 0 {
		b.Fatalf("%s", strings.Join(cfg.errs, "; "))
	}
	if r < 1 {
		b.Fatalf("control: Benchstat(b, %d, ...): the number of rounds must be ≥ 1; benchstat needs ≥ 6 for an interval, 10 is a good start", r)
	}
	impls, err := validate(base, cands)
	if err != nil {
		b.Fatalf("%v", err)
	}
	if !cfg.seedSet {
		cfg.seed = uint64(time.Now().UnixNano())
	}
	if n := testflag.Count(); n > 1 && once(b.Name()) {
		msg := fmt.Sprintf("control: -count=%d repeats each round=/impl= leaf back to back; Benchstat already repeats by round, so run it with -count=1", n)
		b.Log(msg) // shown with -v: go test prints a parent benchmark's log only then
		registry.Default().AddFlag(testingb.Key(b), registry.Flag{Kind: registry.FlagMisuse, Message: msg})
	}
	for round, order := range roundOrders(len(impls), r, cfg.seed) {
		b.Run(fmt.Sprintf("round=%03d", round), func(b *testing.B) {
			for _, i := range order {
				b.Run("impl="+impls[i].name, impls[i].bench)
			}
		})
	}
	b.Logf("control: %d rounds of %d implementations (order seed %d); read with: benchstat -col /impl -ignore /round", r, len(impls), cfg.seed)
}

// roundOrders returns r orders of m implementations: the identity first,
// then shuffles from the seed.
func roundOrders(m, r int, seed uint64) [][]int {
	s := stats.NewSchedule(m, seed)
	out := make([][]int, r)
	for i := range out {
		if i == 0 {
			out[i] = make([]int, m)
			for k := range out[i] {
				out[i][k] = k
			}
			continue
		}
		out[i] = s.Next()
	}
	return out
}
