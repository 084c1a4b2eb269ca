package stats

import (
	"math"
	"slices"
	"testing"
)

func TestMADBasic(t *testing.T) {
	// median 3; deviations 2,1,0,1,6 -> sorted 0,1,1,2,6 -> MAD 1.
	got, ok := MAD([]float64{1, 2, 3, 4, 9})
	if !ok || got != 1 {
		t.Errorf("MAD = %v, %v; want 1, true", got, ok)
	}
	if _, ok := MAD(nil); ok {
		t.Error("MAD(nil) ok = true; want false")
	}
	if _, ok := MAD([]float64{1, math.NaN()}); ok {
		t.Error("MAD with NaN ok = true; want false")
	}
}

func TestTukeyBasic(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 30}
	o, ok := Tukey(xs)
	if !ok {
		t.Fatal("Tukey ok = false")
	}
	if o.Q1 != 3.75 || o.Q3 != 9.25 || o.IQR != 5.5 {
		t.Errorf("quartiles = %v %v %v; want 3.75 9.25 5.5", o.Q1, o.Q3, o.IQR)
	}
	// Q1 = 3.75, Q3 = 9.25, IQR = 5.5: mild fence 17.5, severe 25.75;
	// 15 is inside, 30 is severe.
	if o.HighSevere != 1 || o.HighMild != 0 || o.LowMild != 0 || o.LowSevere != 0 || !slices.Equal(o.Indices, []int{11}) {
		t.Errorf("Tukey = %+v; want one severe high outlier at index 11", o)
	}
	if _, ok := Tukey([]float64{1, 2, 3}); ok {
		t.Error("Tukey(3 values) ok = true; want false")
	}
}

func TestLehrRunsBasic(t *testing.T) {
	for _, c := range []struct {
		cv, delta float64
		want      int
	}{
		{5, 5, 16},      // the seed: 5% CV, 5% change -> 16 runs
		{18.88, 5, 229}, // the loaded machine: 16*3.776^2 = 228.13
		{1, 4, 1},       // 16/16
		{0.6, 0.2, 144}, // float rounding of 0.6/0.2 must not add a run
		{10, 10.01, 16}, // 15.97 -> 16
	} {
		got, ok := LehrRuns(c.cv, c.delta)
		if !ok || got != c.want {
			t.Errorf("LehrRuns(%v, %v) = %v, %v; want %v, true", c.cv, c.delta, got, ok, c.want)
		}
	}
	if _, ok := LehrRuns(0, 5); ok {
		t.Error("LehrRuns(0, 5) ok = true; want false")
	}
	if got, ok := LehrRuns(1000, 1); ok || got != MaxLehrRuns {
		t.Errorf("LehrRuns(1000, 1) = %v, %v; want %v, false", got, ok, MaxLehrRuns)
	}
}

func TestMedianCIBasic(t *testing.T) {
	xs := []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5}
	c, lo, hi, ok := MedianCI(xs, 0.95)
	// n=10 at 95%: [x2, x9] (go-ground §2.3).
	if !ok || c != 5.5 || lo != 2 || hi != 9 {
		t.Errorf("MedianCI = %v [%v, %v] %v; want 5.5 [2, 9] true", c, lo, hi, ok)
	}
	if xs[0] != 10 || xs[1] != 1 {
		t.Error("MedianCI sorted its input")
	}
	if _, _, _, ok := MedianCI(xs[:5], 0.95); ok {
		t.Error("MedianCI(5 values, 0.95) ok = true; want false (infinite bound)")
	}
}

func TestMannWhitneyPBasic(t *testing.T) {
	a := []float64{4, 3, 2, 1}
	b := []float64{8, 7, 6, 5}
	p, ok := MannWhitneyP(a, b)
	// Fully separated 4 vs 4: exact two-sided p = 2/C(8,4) = 2/70.
	if !ok || math.Abs(p-2.0/70) > 1e-12 {
		t.Errorf("MannWhitneyP = %v, %v; want %v, true", p, ok, 2.0/70)
	}
	if a[0] != 4 || b[0] != 8 {
		t.Error("MannWhitneyP sorted its input")
	}
	if p, ok := MannWhitneyP([]float64{1, 1}, []float64{1, 1}); !ok || p != 1 {
		t.Errorf("MannWhitneyP(all equal) = %v, %v; want 1, true", p, ok)
	}
	if _, ok := MannWhitneyP(nil, b); ok {
		t.Error("MannWhitneyP(nil, b) ok = true; want false")
	}
}
