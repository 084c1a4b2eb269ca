package stats

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
			require.Equal(t, tt.wantOK, ok, tt.reasonWhy)
			assert.InDeltaSlice(t, tt.want, got, 1e-12, tt.reasonWhy)
		})
	}
}

func TestPairedConfidence(t *testing.T) {
	got, ok := PairedConfidence(0.95, 1)
	require.True(t, ok)
	assert.InDelta(t, 0.95, got, 1e-15)
	got, ok = PairedConfidence(0.95, 3)
	require.True(t, ok)
	assert.InDelta(t, 1-0.05/3, got, 1e-15)
	for _, bad := range []struct {
		c float64
		m int
	}{{0, 1}, {1, 1}, {math.NaN(), 2}, {0.95, 0}, {-1, 2}} {
		_, ok := PairedConfidence(bad.c, bad.m)
		assert.False(t, ok, "%v", bad)
	}
}

func TestPairedSignMinN(t *testing.T) {
	for _, tc := range []struct {
		conf float64
		want int
	}{{0.95, 6}, {0.975, 7}, {1 - 0.05/3, 7}, {0.99, 8}, {0.5, 2}} {
		got, ok := PairedSignMinN(tc.conf)
		require.True(t, ok)
		assert.Equal(t, tc.want, got, "conf %v", tc.conf)
		// n is finite, n-1 is not.
		xs := make([]float64, tc.want)
		for i := range xs {
			xs[i] = float64(i)
		}
		_, ok = PairedSignCI(xs, tc.conf)
		assert.True(t, ok, "n=%d conf=%v should give a finite interval", tc.want, tc.conf)
		_, ok = PairedSignCI(xs[:tc.want-1], tc.conf)
		assert.False(t, ok, "n=%d conf=%v should be too short", tc.want-1, tc.conf)
	}
	_, ok := PairedSignMinN(1)
	assert.False(t, ok)
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
			require.True(t, ok, "n=%d conf=%v", n, conf)
			l, r := int(ci.Lo), int(ci.Hi) // values are their own ranks
			cov := coverage(n, l, r)
			assert.GreaterOrEqual(t, cov, conf, "n=%d conf=%v [%d,%d]", n, conf, l, r)
			assert.InDelta(t, cov, ci.Confidence, 1e-9, "n=%d conf=%v", n, conf)
			assert.Less(t, coverage(n, l+1, r), conf, "n=%d: lower bound could be tighter", n)
			assert.Less(t, coverage(n, l, r-1), conf, "n=%d: upper bound could be tighter", n)
			med, _ := Median(xs)
			assert.Equal(t, med, ci.Center)
			assert.Equal(t, n, ci.N)
			assert.Equal(t, float64(n), xs[0], "input modified")
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
		require.True(t, ok)
		cov := coverage(n, int(ci.Lo), int(ci.Hi))
		assert.InDelta(t, 0.95, cov, 0.025, "n=%d [%v,%v]", n, ci.Lo, ci.Hi)
		assert.GreaterOrEqual(t, cov, 0.945, "n=%d", n)
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
		require.True(t, ok)
		assert.Equal(t, float64(tc.l), ci.Lo, "n=%d", tc.n)
		assert.Equal(t, float64(tc.r), ci.Hi, "n=%d", tc.n)
	}
	_, ok := PairedSignCI([]float64{1, 2, 3, 4, 5}, 0.95)
	assert.False(t, ok, "n=5 has no finite 95% interval")
	_, ok = PairedSignCI([]float64{1, 2, 3, 4, 5, math.NaN()}, 0.95)
	assert.False(t, ok)
	_, ok = PairedSignCI([]float64{1, 2, 3, 4, 5, 6}, 1)
	assert.False(t, ok)
}

func TestPairedBootstrapCI(t *testing.T) {
	xs := []float64{0.98, 0.99, 1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.10, 1.20}
	a, ok := PairedBootstrapCI(xs, 0.95, 2000, 1)
	require.True(t, ok)
	b, ok := PairedBootstrapCI(xs, 0.95, 2000, 1)
	require.True(t, ok)
	assert.Equal(t, a, b, "same seed, same interval")
	assert.Equal(t, 1.04, a.Center)
	assert.LessOrEqual(t, a.Lo, a.Center)
	assert.GreaterOrEqual(t, a.Hi, a.Center)
	assert.GreaterOrEqual(t, a.Lo, 0.98)
	assert.LessOrEqual(t, a.Hi, 1.20)
	assert.Less(t, a.Lo, a.Hi, "a spread sample has a non-degenerate interval")
	sign, _ := PairedSignCI(xs, 0.95)
	assert.LessOrEqual(t, a.Hi-a.Lo, sign.Hi-sign.Lo+1e-12, "the bootstrap is never wider than the sign test here")

	for _, bad := range []struct {
		xs   []float64
		conf float64
		rs   int
	}{{xs[:1], 0.95, 2000}, {xs, 0, 2000}, {xs, 0.95, 10}, {[]float64{1, math.Inf(1)}, 0.95, 2000}} {
		_, ok := PairedBootstrapCI(bad.xs, bad.conf, bad.rs, 1)
		assert.False(t, ok, "%v", bad)
	}
}

// floats decodes data as little-endian float64s (a trailing partial word is
// dropped).
func floats(data []byte) []float64 {
	xs := make([]float64, len(data)/8)
	for i := range xs {
		xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return xs
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
		if !slices.EqualFunc(orig, xs, func(a, b float64) bool { return a == b || (a != a && b != b) }) {
			t.Fatal("input modified")
		}
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
