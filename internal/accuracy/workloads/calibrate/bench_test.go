package calibrate

import (
	"testing"

	"github.com/benchkit/go-benchkit/control"
	"github.com/benchkit/go-benchkit/examples/seed000"
	"github.com/benchkit/go-benchkit/internal/accuracy/workloads/gate"
)

// impls is one workload's five implementations. Each is its own function
// literal, so "same" is a distinct copy of "base" (distinct code at a
// distinct address), as seed 000's beta was of alpha.
type impls[T any] struct {
	base, same, p2, p5, p10 func() T
}

func sumImpls() impls[uint64] {
	s := SumSizes
	return impls[uint64]{
		base: func() uint64 { return seed000.Sum(Xs[:s.Base]) },
		same: func() uint64 { return seed000.Sum(Xs[:s.Base]) },
		p2:   func() uint64 { return seed000.Sum(Xs[:s.P2]) },
		p5:   func() uint64 { return seed000.Sum(Xs[:s.P5]) },
		p10:  func() uint64 { return seed000.Sum(Xs[:s.P10]) },
	}
}

func allocImpls() impls[int] {
	s := AllocSizes
	return impls[int]{
		base: func() int { return seed000.Alloc(s.Base) },
		same: func() int { return seed000.Alloc(s.Base) },
		p2:   func() int { return seed000.Alloc(s.P2) },
		p5:   func() int { return seed000.Alloc(s.P5) },
		p10:  func() int { return seed000.Alloc(s.P10) },
	}
}

func mapImpls() impls[uint64] {
	s := MapSizes
	return impls[uint64]{
		base: func() uint64 { return Lookup(Table, Keys[:s.Base]) },
		same: func() uint64 { return Lookup(Table, Keys[:s.Base]) },
		p2:   func() uint64 { return Lookup(Table, Keys[:s.P2]) },
		p5:   func() uint64 { return Lookup(Table, Keys[:s.P5]) },
		p10:  func() uint64 { return Lookup(Table, Keys[:s.P10]) },
	}
}

func sortImpls() impls[[]string] {
	s := SortSizes
	return impls[[]string]{
		base: func() []string { return SortCopy(Words[:s.Base]) },
		same: func() []string { return SortCopy(Words[:s.Base]) },
		p2:   func() []string { return SortCopy(Words[:s.P2]) },
		p5:   func() []string { return SortCopy(Words[:s.P5]) },
		p10:  func() []string { return SortCopy(Words[:s.P10]) },
	}
}

// controlImpls returns the implementations as control.Impls, baseline
// first.
func (s impls[T]) controlImpls() []control.Impl {
	return []control.Impl{
		control.Func("base", s.base),
		control.Func("same", s.same),
		control.Func("p2", s.p2),
		control.Func("p5", s.p5),
		control.Func("p10", s.p10),
	}
}

// compare is one workload's BenchmarkCompare body.
func (s impls[T]) compare(b *testing.B) {
	im := s.controlImpls()
	control.Compare(b, im[0], im[1:]...)
}

// plain is one workload's BenchmarkPlain body: a sub-benchmark per
// implementation.
func (s impls[T]) plain(b *testing.B) {
	for _, im := range []struct {
		name string
		f    func() T
	}{{"base", s.base}, {"same", s.same}, {"p2", s.p2}, {"p5", s.p5}, {"p10", s.p10}} {
		b.Run("impl="+im.name, func(b *testing.B) {
			for b.Loop() {
				im.f()
			}
		})
	}
}

// workloads lists the workloads in the order the benchmarks run them.
func workloads() []struct {
	name           string
	compare, plain func(*testing.B)
} {
	sum, alloc, mp, srt := sumImpls(), allocImpls(), mapImpls(), sortImpls()
	return []struct {
		name           string
		compare, plain func(*testing.B)
	}{
		{"sum", sum.compare, sum.plain},
		{"alloc", alloc.compare, alloc.plain},
		{"map", mp.compare, mp.plain},
		{"sort", srt.compare, srt.plain},
		{"swap", swapCompare, swapPlain},
	}
}

// BenchmarkCompare measures each workload with control.Compare: base
// against same, p2, p5 and p10, with the automatic control, verdicts in
// the log. Its budget is -benchtime × 5 per workload (swap: × 2 each way
// round).
func BenchmarkCompare(b *testing.B) {
	harnessOnly(b)
	for _, w := range workloads() {
		b.Run("work="+w.name, w.compare)
	}
}

// BenchmarkPlain is the ordinary way: a sub-benchmark per workload and
// implementation, for go test -count=10 and benchstat -col /impl.
func BenchmarkPlain(b *testing.B) {
	harnessOnly(b)
	for _, w := range workloads() {
		b.Run("work="+w.name, w.plain)
	}
}

// swapCompare is the swap workload's BenchmarkCompare body: FNV-1a and a
// word fold of the same 1 KiB, about 20× apart, compared both ways round
// (base=fnv, then base=fold). The ratio fnv/fold must not depend on which
// one is the baseline.
//
//	BENCHKIT_CALIBRATE=1 go test -run='^$' -bench=Compare/work=swap ./internal/accuracy/workloads/calibrate
func swapCompare(b *testing.B) {
	fnv, fold := swapImpls()
	b.Run("base=fnv", func(b *testing.B) { control.Compare(b, fnv, fold) })
	b.Run("base=fold", func(b *testing.B) { control.Compare(b, fold, fnv) })
}

// swapPlain is the swap workload's BenchmarkPlain body.
func swapPlain(b *testing.B) {
	for _, im := range []struct {
		name string
		f    func([]byte) uint64
	}{{"fnv", FNV}, {"fold", Fold}} {
		b.Run("impl="+im.name, func(b *testing.B) {
			for b.Loop() {
				im.f(Buf)
			}
		})
	}
}

func swapImpls() (fnv, fold control.Impl) {
	return control.Func("fnv", func() uint64 { return FNV(Buf) }),
		control.Func("fold", func() uint64 { return Fold(Buf) })
}

// calibrateEnv, set to 1, runs this package's benchmarks at a measuring
// -benchtime; the forks table sets it. Without it they run only in a smoke
// run (-benchtime=Nx) and are skipped otherwise, so that go test -bench=.
// ./... does not spend minutes on a measurement harness.
const calibrateEnv = "BENCHKIT_CALIBRATE"

func harnessOnly(b *testing.B) { gate.HarnessOnly(b, calibrateEnv, "forks") }
