package stats

import (
	"math"
	"slices"
	"testing"
)

func TestPairedRatios(t *testing.T) {
	tests := []struct {
		name      string
		base, xs  []float64
		want      []float64
		wantOK    bool
		reasonWhy string
	}{
		{"plain", []float64{100, 200, 50}, []float64{105, 190, 50}, []float64{1.05, 0.95, 1}, true, "element-wise xs/base"},
		{"empty", nil, nil, nil, false, "nothing to pair"},
		{"length mismatch", []float64{1, 2}, []float64{1}, nil, false, "rounds must pair up"},
		{"zero base", []float64{0, 1}, []float64{1, 1}, nil, false, "a zero time is a broken clock"},
		{"negative", []float64{1, 1}, []float64{-1, 1}, nil, false, "negative time"},
		{"NaN", []float64{1, math.NaN()}, []float64{1, 1}, nil, false, "NaN input"},
		{"Inf", []float64{1, 1}, []float64{math.Inf(1), 1}, nil, false, "Inf input"},
		{"overflow", []float64{math.SmallestNonzeroFloat64}, []float64{math.MaxFloat64}, nil, false, "ratio overflows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := PairedRatios(tt.base, tt.xs)
			if ok != tt.wantOK {
				t.Fatalf("PairedRatios(%v, %v) ok = %v, want %v: %s", tt.base, tt.xs, ok, tt.wantOK, tt.reasonWhy)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("PairedRatios(%v, %v) = %v, want %v: %s", tt.base, tt.xs, got, tt.want, tt.reasonWhy)
			}
			for i := range got {
				if !inDelta(got[i], tt.want[i], 1e-12) {
					t.Errorf("PairedRatios(%v, %v) = %v, want %v: %s", tt.base, tt.xs, got, tt.want, tt.reasonWhy)
				}
			}
		})
	}
}

// inDelta reports whether |a − b| ≤ d; NaN is never within any distance.
func inDelta(a, b, d float64) bool { return math.Abs(a-b) <= d }

func TestPairedConfidence(t *testing.T) {
	for _, tc := range []struct {
		c    float64
		m    int
		want float64
	}{{0.95, 1, 0.95}, {0.95, 3, 1 - 0.05/3}} {
		got, ok := PairedConfidence(tc.c, tc.m)
		if !ok || !inDelta(got, tc.want, 1e-15) {
			t.Fatalf("PairedConfidence(%v, %d) = %v, %v; want %v, true", tc.c, tc.m, got, ok, tc.want)
		}
	}
	for _, bad := range []struct {
		c float64
		m int
	}{{0, 1}, {1, 1}, {math.NaN(), 2}, {0.95, 0}, {-1, 2}} {
		if _, ok := PairedConfidence(bad.c, bad.m); ok {
			t.Errorf("PairedConfidence(%v, %d) ok, want not", bad.c, bad.m)
		}
	}
}

func TestPairedSignMinN(t *testing.T) {
	for _, tc := range []struct {
		conf float64
		want int
	}{{0.95, 6}, {0.975, 7}, {1 - 0.05/3, 7}, {0.99, 8}, {0.5, 2}} {
		got, ok := PairedSignMinN(tc.conf)
		if !ok {
			t.Fatalf("PairedSignMinN(%v) not ok", tc.conf)
		}
		if got != tc.want {
			t.Errorf("PairedSignMinN(%v) = %d, want %d", tc.conf, got, tc.want)
		}
		// n is finite, n-1 is not.
		xs := make([]float64, tc.want)
		for i := range xs {
			xs[i] = float64(i)
		}
		if _, ok = PairedSignCI(xs, tc.conf); !ok {
			t.Errorf("n=%d conf=%v should give a finite interval", tc.want, tc.conf)
		}
		if _, ok = PairedSignCI(xs[:tc.want-1], tc.conf); ok {
			t.Errorf("n=%d conf=%v should be too short", tc.want-1, tc.conf)
		}
	}
	if _, ok := PairedSignMinN(1); ok {
		t.Error("PairedSignMinN(1) ok, want not")
	}
}

// binomPMF is an independent exact Binomial(n, ½) mass, in log space.
func binomPMF(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) - float64(n)*math.Ln2)
}

// coverage is P(x₍ₗ₎ ≤ median ≤ x₍ᵣ₎) for 1-based order statistics l < r:
// the population median lies between x₍ₖ₎ and x₍ₖ₊₁₎ with mass PMF(k).
func coverage(n, l, r int) float64 {
	p := 0.0
	for k := l; k < r; k++ {
		p += binomPMF(n, k)
	}
	return p
}

// TestPairedSignCIAgreesWithBinomial checks benchmath's interval against an
// independent exact computation: it picks order statistics whose coverage
// is at least the level, reports that coverage, and no interval one order
// statistic narrower on either side would reach the level.
func TestPairedSignCIAgreesWithBinomial(t *testing.T) {
	for _, conf := range []float64{0.95, 0.975, 1 - 0.05/3, 0.99} {
		minN, _ := PairedSignMinN(conf)
		for n := minN; n <= 30; n++ {
			xs := make([]float64, n)
			for i := range xs {
				xs[n-1-i] = float64(i + 1) // reversed: input order must not matter
			}
			ci, ok := PairedSignCI(xs, conf)
			if !ok {
				t.Fatalf("PairedSignCI n=%d conf=%v not ok", n, conf)
			}
			l, r := int(ci.Lo), int(ci.Hi) // values are their own ranks
			cov := coverage(n, l, r)
			if !(cov >= conf) {
				t.Errorf("n=%d conf=%v [%d,%d]: coverage %v below the level", n, conf, l, r, cov)
			}
			if !inDelta(cov, ci.Confidence, 1e-9) {
				t.Errorf("n=%d conf=%v: Confidence %v, exact coverage %v", n, conf, ci.Confidence, cov)
			}
			if !(coverage(n, l+1, r) < conf) {
				t.Errorf("n=%d: lower bound could be tighter", n)
			}
			if !(coverage(n, l, r-1) < conf) {
				t.Errorf("n=%d: upper bound could be tighter", n)
			}
			if med, _ := Median(xs); med != ci.Center {
				t.Errorf("n=%d: Center %v, median %v", n, ci.Center, med)
			}
			if ci.N != n {
				t.Errorf("N=%d, want %d", ci.N, n)
			}
			if xs[0] != float64(n) {
				t.Errorf("n=%d: input modified", n)
			}
		}
	}
	// Above 30 benchmath uses the normal approximation: coverage stays
	// within 2.5 points of the level and never below it by more than 0.5.
	for _, n := range []int{31, 50, 100, 700} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		ci, ok := PairedSignCI(xs, 0.95)
		if !ok {
			t.Fatalf("PairedSignCI n=%d not ok", n)
		}
		cov := coverage(n, int(ci.Lo), int(ci.Hi))
		if !inDelta(0.95, cov, 0.025) {
			t.Errorf("n=%d [%v,%v]: coverage %v not within 0.025 of 0.95", n, ci.Lo, ci.Hi, cov)
		}
		if !(cov >= 0.945) {
			t.Errorf("n=%d: coverage %v below 0.945", n, cov)
		}
	}
}

func TestPairedSignCITable(t *testing.T) {
	// go-ground §2.3: verified benchmath intervals at 95%.
	for _, tc := range []struct{ n, l, r int }{{6, 1, 6}, {8, 1, 7}, {10, 2, 9}, {12, 3, 10}} {
		xs := make([]float64, tc.n)
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		ci, ok := PairedSignCI(xs, 0.95)
		if !ok {
			t.Fatalf("PairedSignCI n=%d not ok", tc.n)
		}
		if ci.Lo != float64(tc.l) || ci.Hi != float64(tc.r) {
			t.Errorf("n=%d: [%v, %v], want [%d, %d]", tc.n, ci.Lo, ci.Hi, tc.l, tc.r)
		}
	}
	for _, bad := range []struct {
		xs   []float64
		conf float64
		why  string
	}{
		{[]float64{1, 2, 3, 4, 5}, 0.95, "n=5 has no finite 95% interval"},
		{[]float64{1, 2, 3, 4, 5, math.NaN()}, 0.95, "NaN"},
		{[]float64{1, 2, 3, 4, 5, 6}, 1, "confidence 1"},
	} {
		if _, ok := PairedSignCI(bad.xs, bad.conf); ok {
			t.Errorf("PairedSignCI(%v, %v) ok, want not: %s", bad.xs, bad.conf, bad.why)
		}
	}
}

func TestPairedBootstrapCI(t *testing.T) {
	xs := []float64{0.98, 0.99, 1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.10, 1.20}
	a, okA := PairedBootstrapCI(xs, 0.95, 2000, 1)
	b, okB := PairedBootstrapCI(xs, 0.95, 2000, 1)
	if !okA || !okB {
		t.Fatalf("PairedBootstrapCI not ok: %v, %v", okA, okB)
	}
	if a != b {
		t.Errorf("same seed, different intervals: %+v, %+v", a, b)
	}
	if a.Center != 1.04 {
		t.Errorf("Center %v, want 1.04", a.Center)
	}
	if !(a.Lo <= a.Center && a.Hi >= a.Center && a.Lo >= 0.98 && a.Hi <= 1.20) {
		t.Errorf("interval %+v not ordered within [0.98, 1.20]", a)
	}
	if !(a.Lo < a.Hi) {
		t.Errorf("interval %+v: a spread sample has a non-degenerate interval", a)
	}
	sign, _ := PairedSignCI(xs, 0.95)
	if !(a.Hi-a.Lo <= sign.Hi-sign.Lo+1e-12) {
		t.Errorf("bootstrap %+v wider than the sign test %+v: it is never wider here", a, sign)
	}

	for _, bad := range []struct {
		xs   []float64
		conf float64
		rs   int
	}{{xs[:1], 0.95, 2000}, {xs, 0, 2000}, {xs, 0.95, 10}, {[]float64{1, math.Inf(1)}, 0.95, 2000}} {
		if _, ok := PairedBootstrapCI(bad.xs, bad.conf, bad.rs, 1); ok {
			t.Errorf("PairedBootstrapCI%v ok, want not", bad)
		}
	}
}

func checkInterval(t *testing.T, xs []float64, ci PairedInterval) {
	t.Helper()
	for _, v := range []float64{ci.Center, ci.Lo, ci.Hi, ci.Confidence} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("non-finite field in %+v", ci)
		}
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	if !(ci.Lo <= ci.Center && ci.Center <= ci.Hi && lo <= ci.Lo && ci.Hi <= hi) {
		t.Fatalf("interval %+v not ordered within [%v, %v]", ci, lo, hi)
	}
	if ci.N != len(xs) {
		t.Fatalf("N=%d, want %d", ci.N, len(xs))
	}
}

func FuzzPairedRatios(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 240, 63, 0, 0, 0, 0, 0, 0, 0, 64}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, split uint8) {
		xs := floats(data)
		k := int(split) % (len(xs) + 1)
		base, cand := xs[:k], xs[k:]
		if len(cand) > len(base) {
			cand = cand[:len(base)]
		}
		r, ok := PairedRatios(base, cand)
		if !ok {
			return
		}
		for _, v := range r {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Fatalf("ratio %v", v)
			}
		}
	})
}

func FuzzPairedSignCI(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 240, 63, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 8, 64,
		0, 0, 0, 0, 0, 0, 16, 64, 0, 0, 0, 0, 0, 0, 20, 64, 0, 0, 0, 0, 0, 0, 24, 64}, 0.95)
	f.Fuzz(func(t *testing.T, data []byte, conf float64) {
		xs := floats(data)
		orig := slices.Clone(xs)
		ci, ok := PairedSignCI(xs, conf)
		checkUnmodified(t, xs, orig)
		if ok {
			checkInterval(t, xs, ci)
			if ci.Confidence < conf-0.01 {
				t.Fatalf("coverage %v below level %v", ci.Confidence, conf)
			}
		}
	})
}

func FuzzPairedBootstrapCI(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 240, 63, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 8, 64}, 0.95, uint64(7))
	f.Fuzz(func(t *testing.T, data []byte, conf float64, seed uint64) {
		xs := floats(data)
		if len(xs) > 64 {
			xs = xs[:64]
		}
		ci, ok := PairedBootstrapCI(xs, conf, 200, seed)
		if ok {
			checkInterval(t, xs, ci)
		}
	})
}
