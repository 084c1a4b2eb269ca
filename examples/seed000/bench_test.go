package seed000

import (
	"testing"

	"github.com/benchkit/go-benchkit/control"
)

// Implementations of each workload: alpha and beta are the same work in
// two distinct closures, plus5 does 5% more.
func sumImpls() (alpha, beta, plus5 control.Impl) {
	return control.Func("alpha", func() uint64 { return Sum(Xs[:SumN]) }),
		control.Func("beta", func() uint64 { return Sum(Xs[:SumN]) }),
		control.Func("plus5", func() uint64 { return Sum(Xs[:SumN5]) })
}

func allocImpls() (alpha, beta, plus5 control.Impl) {
	return control.Func("alpha", func() int { return Alloc(AllocN) }),
		control.Func("beta", func() int { return Alloc(AllocN) }),
		control.Func("plus5", func() int { return Alloc(AllocN5) })
}

// BenchmarkCompare measures each workload with control.Compare: one
// benchmark per workload, interleaved rounds, a control copy of alpha,
// verdicts in the log.
func BenchmarkCompare(b *testing.B) {
	b.Run("work=sum", func(b *testing.B) {
		alpha, beta, plus5 := sumImpls()
		control.Compare(b, alpha, beta, plus5)
	})
	b.Run("work=alloc", func(b *testing.B) {
		alpha, beta, plus5 := allocImpls()
		control.Compare(b, alpha, beta, plus5)
	})
}

// BenchmarkAA is Compare with only a baseline: an A/A run that measures
// this machine's error bar for the harness.
func BenchmarkAA(b *testing.B) {
	alpha, _, _ := sumImpls()
	control.Compare(b, alpha)
}

// BenchmarkRounds is the benchstat-compatible mode on the sum workload:
//
//	go test -run='^$' -bench=Rounds -count=1 -benchtime=100ms ./examples/seed000 |
//		benchstat -col /impl -ignore /round -
//
// It costs 6 rounds × 4 implementations × -benchtime.
func BenchmarkRounds(b *testing.B) {
	alpha, beta, plus5 := sumImpls()
	control.Benchstat(b, 6, alpha, beta, plus5)
}

// BenchmarkPlain is the seed's way: ordinary sub-benchmarks, one per
// workload and implementation, for go test -count=10 and
// benchstat -col /impl. The groundtruth table (go run ./internal/accuracy
// groundtruth) runs it next to Compare.
func BenchmarkPlain(b *testing.B) {
	b.Run("work=sum", func(b *testing.B) {
		b.Run("impl=alpha", func(b *testing.B) {
			for b.Loop() {
				Sum(Xs[:SumN])
			}
		})
		b.Run("impl=beta", func(b *testing.B) {
			for b.Loop() {
				Sum(Xs[:SumN])
			}
		})
		b.Run("impl=plus5", func(b *testing.B) {
			for b.Loop() {
				Sum(Xs[:SumN5])
			}
		})
	})
	b.Run("work=alloc", func(b *testing.B) {
		b.Run("impl=alpha", func(b *testing.B) {
			for b.Loop() {
				Alloc(AllocN)
			}
		})
		b.Run("impl=beta", func(b *testing.B) {
			for b.Loop() {
				Alloc(AllocN)
			}
		})
		b.Run("impl=plus5", func(b *testing.B) {
			for b.Loop() {
				Alloc(AllocN5)
			}
		})
	})
}
