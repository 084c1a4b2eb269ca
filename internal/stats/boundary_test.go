package stats

import (
	"math"
	"slices"
	"testing"
)

// TestTukeyFences moves one value across each fence, one ulp at a time.
// With nine values whose quartiles are fixed order statistics (h = 2 and
// 6), Q1 = 2, Q3 = 6, IQR = 4: mild fences −4 and 12, severe −10 and 18.
func TestTukeyFences(t *testing.T) {
	test := func(x float64, lowMild, lowSevere, highMild, highSevere int) {
		t.Helper()
		var xs []float64
		if x > 6 {
			xs = []float64{0, 1, 2, 3, 4, 5, 6, 7, x}
		} else {
			xs = []float64{x, 1, 2, 3, 4, 5, 6, 7, 8}
		}
		o, ok := Tukey(xs)
		if !ok || o.Q1 != 2 || o.Q3 != 6 || o.IQR != 4 {
			t.Fatalf("Tukey(x=%v): quartiles %v %v %v %v; want 2 6 4", x, o.Q1, o.Q3, o.IQR, ok)
		}
		if o.LowMild != lowMild || o.LowSevere != lowSevere || o.HighMild != highMild || o.HighSevere != highSevere {
			t.Errorf("Tukey(x=%v) = %+v; want low %d mild %d severe, high %d mild %d severe",
				x, o, lowMild, lowSevere, highMild, highSevere)
		}
		want := []int(nil)
		if o.Count() == 1 {
			want = []int{0}
			if x > 6 {
				want = []int{8}
			}
		}
		if !slices.Equal(o.Indices, want) {
			t.Errorf("Tukey(x=%v).Indices = %v; want %v", x, o.Indices, want)
		}
	}
	test(12, 0, 0, 0, 0) // on the mild fence: not beyond it
	test(math.Nextafter(12, 13), 0, 0, 1, 0)
	test(18, 0, 0, 1, 0) // on the severe fence: mild
	test(math.Nextafter(18, 19), 0, 0, 0, 1)
	test(-4, 0, 0, 0, 0)
	test(math.Nextafter(-4, -5), 1, 0, 0, 0)
	test(-10, 1, 0, 0, 0)
	test(math.Nextafter(-10, -11), 0, 1, 0, 0)
	test(-fMax, 0, 1, 0, 0)
	test(fMax, 0, 0, 0, 1)
}

func TestTukeyEdges(t *testing.T) {
	// IQR 0: every value off the common one is severe.
	o, ok := Tukey([]float64{5, 5, 5, 5, 5, 9, 4})
	if !ok || o.IQR != 0 || o.HighSevere != 1 || o.LowSevere != 1 || !slices.Equal(o.Indices, []int{5, 6}) {
		t.Errorf("Tukey(IQR 0) = %+v, %v; want one severe each side at 5 and 6", o, ok)
	}
	// All equal: no outliers.
	if o, ok := Tukey([]float64{3, 3, 3, 3}); !ok || o.Count() != 0 || o.Indices != nil {
		t.Errorf("Tukey(all equal) = %+v, %v; want none", o, ok)
	}
	// Negative, zero-mean values.
	if o, ok := Tukey([]float64{-2, -1, 0, 1, 2, -40}); !ok || o.LowSevere != 1 || !slices.Equal(o.Indices, []int{5}) {
		t.Errorf("Tukey(negatives) = %+v, %v; want −40 severe", o, ok)
	}
	// IQR overflows: refused.
	if o, ok := Tukey([]float64{-fMax, -fMax, fMax, fMax}); ok {
		t.Errorf("Tukey(±MaxFloat64 halves) = %+v, true; want false (IQR overflows)", o)
	}
	// Huge but finite IQR: fences overflow to ±Inf, nothing is beyond them.
	if o, ok := Tukey([]float64{-fMax / 2, -fMax / 4, 0, fMax / 4, fMax / 2}); !ok || o.Count() != 0 || !isFinite(o.IQR) {
		t.Errorf("Tukey(wide) = %+v, %v; want no outliers", o, ok)
	}
	// Exactly four values is enough.
	if _, ok := Tukey([]float64{1, 2, 3, 4}); !ok {
		t.Error("Tukey(4 values) ok = false; want true")
	}
}

// TestLehrRunsBoundaries checks the rounding of ⌈16·(cv/Δ)²⌉ ulp by ulp
// and at the tolerance and cap edges.
func TestLehrRunsBoundaries(t *testing.T) {
	test := func(cv, delta float64, want int, wantOK bool) {
		t.Helper()
		got, ok := LehrRuns(cv, delta)
		if got != want || ok != wantOK {
			t.Errorf("LehrRuns(%v, %v) = %d, %v; want %d, %v", cv, delta, got, ok, want, wantOK)
		}
	}
	test(5, 5, 16, true)
	test(math.Nextafter(5, 6), 5, 16, true) // 16·(1+2ε): within the 1e-9 tolerance
	test(math.Nextafter(5, 4), 5, 16, true) // 15.999…: ceil to 16
	// Tolerance edge: x = 16·(1+2e-9) needs 17; 16·(1+5e-10) stays 16.
	test(math.Sqrt(1+2e-9), 1, 17, true)
	test(math.Sqrt(1+5e-10), 1, 16, true)
	test(0.3, 0.1, 144, true)   // 16·2.9999999999999996² = 143.99999999999997
	test(0.6, 0.2, 144, true)   // 16·(0.6/0.2)²
	test(1.1, 1, 20, true)      // 19.36
	test(1, 4, 1, true)         // exactly 1
	test(1, 5, 1, true)         // 0.64: at least one run
	test(5e-324, fMax, 1, true) // ratio underflows to 0: still one run
	// The cap: 16·6250 = 100000 = MaxLehrRuns.
	test(math.Sqrt(6250), 1, MaxLehrRuns, true)
	test(math.Sqrt(6250)*(1+1e-8), 1, MaxLehrRuns, false)
	test(fMax, 5e-324, MaxLehrRuns, false) // ratio overflows
	test(fMax, 1, MaxLehrRuns, false)
	for _, c := range [][2]float64{{0, 5}, {5, 0}, {-1, 5}, {5, -1}, {fNaN, 5}, {5, fNaN}, {fInf, 5}, {5, fInf}, {fNegInf, 5}, {math.Nextafter(0, -1), 5}} {
		test(c[0], c[1], 0, false)
	}
	// Smallest positive inputs are valid.
	test(5e-324, 5e-324, 16, true)
}
