package stats

import (
	"math"
	"slices"
	"testing"
)

const fMax = math.MaxFloat64

var (
	fNaN    = math.NaN()
	fInf    = math.Inf(1)
	fNegInf = math.Inf(-1)
)

// badInputs are samples every function must refuse (ok=false).
var badInputs = []struct {
	name string
	xs   []float64
}{
	{"nil", nil},
	{"empty", []float64{}},
	{"NaN", []float64{1, fNaN, 3, 4, 5, 6}},
	{"+Inf", []float64{1, 2, fInf, 4, 5, 6}},
	{"-Inf", []float64{fNegInf, 2, 3, 4, 5, 6}},
}

func TestRefuseBadInputs(t *testing.T) {
	for _, c := range badInputs {
		if v, ok := Mean(c.xs); ok || v != 0 {
			t.Errorf("Mean(%s) = %v, %v; want 0, false", c.name, v, ok)
		}
		if v, ok := StdDev(c.xs); ok || v != 0 {
			t.Errorf("StdDev(%s) = %v, %v; want 0, false", c.name, v, ok)
		}
		if v, ok := CV(c.xs); ok || v != 0 {
			t.Errorf("CV(%s) = %v, %v; want 0, false", c.name, v, ok)
		}
		if v, ok := Median(c.xs); ok || v != 0 {
			t.Errorf("Median(%s) = %v, %v; want 0, false", c.name, v, ok)
		}
		if v, ok := Quantile(c.xs, 0.3); ok || v != 0 {
			t.Errorf("Quantile(%s) = %v, %v; want 0, false", c.name, v, ok)
		}
		if v, ok := MAD(c.xs); ok || v != 0 {
			t.Errorf("MAD(%s) = %v, %v; want 0, false", c.name, v, ok)
		}
		if o, ok := Tukey(c.xs); ok || o.Indices != nil || o.IQR != 0 {
			t.Errorf("Tukey(%s) = %+v, %v; want zero, false", c.name, o, ok)
		}
		if c0, lo, hi, ok := MedianCI(c.xs, 0.95); ok || c0 != 0 || lo != 0 || hi != 0 {
			t.Errorf("MedianCI(%s) = %v %v %v %v; want zeros, false", c.name, c0, lo, hi, ok)
		}
		if p, ok := MannWhitneyP(c.xs, []float64{1, 2, 3}); ok || p != 0 {
			t.Errorf("MannWhitneyP(%s, b) = %v, %v; want 0, false", c.name, p, ok)
		}
		if p, ok := MannWhitneyP([]float64{1, 2, 3}, c.xs); ok || p != 0 {
			t.Errorf("MannWhitneyP(a, %s) = %v, %v; want 0, false", c.name, p, ok)
		}
		if _, bimodal := TwoRegimes(c.xs); bimodal {
			t.Errorf("TwoRegimes(%s) bimodal; want not", c.name)
		}
	}
}

func TestMean(t *testing.T) {
	for _, c := range []struct {
		xs     []float64
		want   float64
		reason string
	}{
		{[]float64{7}, 7, "one element"},
		{[]float64{1, 2, 3, 4}, 2.5, "plain"},
		{[]float64{-3, 3}, 0, "zero mean"},
		{[]float64{-1, -2, -3}, -2, "negative"},
		{[]float64{fMax, fMax, fMax}, fMax, "the sum overflows; the mean does not"},
		{[]float64{fMax, -fMax}, 0, "opposite extremes"},
		{[]float64{fMax, fMax, -fMax}, fMax / 3, "overflowing partial sum"},
		{[]float64{-fMax, -fMax}, -fMax, "negative extreme"},
		{[]float64{5e-324, 5e-324}, 5e-324, "smallest subnormal"},
		{[]float64{1e16, 1, -1e16}, 1.0 / 3, "cancellation: compensated sum keeps the 1"},
		{[]float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 0.1, "ten 0.1s"},
	} {
		got, ok := Mean(c.xs)
		if !ok || math.Abs(got-c.want) > 1e-15*math.Abs(c.want) {
			t.Errorf("Mean(%v) = %v, %v; want %v, true (%s)", c.xs, got, ok, c.want, c.reason)
		}
	}
}

func TestStdDevCV(t *testing.T) {
	for _, c := range []struct {
		xs     []float64
		sd     float64
		ok     bool
		reason string
	}{
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, math.Sqrt(32.0 / 7), true, "textbook, n−1"},
		{[]float64{1, 1, 1}, 0, true, "all equal"},
		{[]float64{3}, 0, false, "one element"},
		{[]float64{-1, 1}, math.Sqrt2, true, "zero mean"},
		{[]float64{fMax, fMax}, 0, true, "equal extremes"},
		{[]float64{fMax / 2, -fMax / 2}, fMax / math.Sqrt2, true, "deviation of MaxFloat64/2: squares would overflow"},
		{[]float64{fMax, -fMax}, 0, false, "sd = √2·MaxFloat64 overflows"},
		{[]float64{1e-320, 3e-320}, math.Sqrt2 * 1e-320, true, "subnormal spread"},
		{[]float64{1e9 + 1, 1e9 + 2, 1e9 + 3}, 1, true, "large offset: two-pass is exact here"},
	} {
		got, ok := StdDev(c.xs)
		if ok != c.ok || math.Abs(got-c.sd) > 1e-12*c.sd {
			t.Errorf("StdDev(%v) = %v, %v; want %v, %v (%s)", c.xs, got, ok, c.sd, c.ok, c.reason)
		}
	}
	for _, c := range []struct {
		xs     []float64
		cv     float64
		ok     bool
		reason string
	}{
		{[]float64{9, 11}, 100 * math.Sqrt2 / 10, true, "sd √2 over mean 10"},
		{[]float64{5, 5, 5}, 0, true, "all equal"},
		{[]float64{-1, 1}, 0, false, "zero mean"},
		{[]float64{-5, -6}, 0, false, "negative mean"},
		{[]float64{1}, 0, false, "one element"},
		{[]float64{-fMax / 2, fMax / 2, 5e-324}, 0, false, "ratio overflows"},
	} {
		got, ok := CV(c.xs)
		if ok != c.ok || math.Abs(got-c.cv) > 1e-12*c.cv {
			t.Errorf("CV(%v) = %v, %v; want %v, %v (%s)", c.xs, got, ok, c.cv, c.ok, c.reason)
		}
	}
}

// TestCVRunThatLied checks CV against cv.awk's formula on the seed sample:
// 100·sqrt(Σ(x−mean)²/(n−1))/mean computed the plain way.
func TestCVRunThatLied(t *testing.T) {
	n := float64(len(runThatLied))
	sum := 0.0
	for _, x := range runThatLied {
		sum += x
	}
	m := sum / n
	ss := 0.0
	for _, x := range runThatLied {
		ss += (x - m) * (x - m)
	}
	want := 100 * math.Sqrt(ss/(n-1)) / m
	got, ok := CV(runThatLied)
	if !ok || math.Abs(got-want) > 1e-12*want {
		t.Errorf("CV(run that lied) = %v, %v; want %v (cv.awk)", got, ok, want)
	}
}

func TestQuantile(t *testing.T) {
	test := func(xs []float64, p, want float64) {
		t.Helper()
		got, ok := Quantile(xs, p)
		if !ok || got != want {
			t.Errorf("Quantile(%v, %v) = %v, %v; want %v", xs, p, got, ok, want)
		}
	}
	xs := []float64{40, 10, 30, 20} // sorted 10 20 30 40; h = 3p
	test(xs, 0, 10)
	test(xs, 1, 40)
	test(xs, 0.5, 25)
	test(xs, 0.25, 17.5)
	test(xs, 1.0/3, 20)
	test(xs, math.Nextafter(1, 0), 40) // h just below 3: s[2]+~1·10
	test(xs, 5e-324, 10)
	test([]float64{3}, 0.7, 3)
	test([]float64{-fMax, fMax}, 0.5, 0)                                         // s[1]−s[0] overflows
	test([]float64{-fMax, fMax}, 1, fMax)                                        // p=1 exact
	test([]float64{-fMax, -fMax, fMax, fMax}, 0.5, 0)                            // median of extremes
	test([]float64{fMax, math.Nextafter(fMax, 0)}, 0.5, math.Nextafter(fMax, 0)) // rounds within [a, b]
	// Overflowing difference, interpolated over halves: within an ulp or two.
	if q, ok := Quantile([]float64{-fMax, fMax}, 0.25); !ok || math.Abs(q+fMax/2) > 1e-15*fMax {
		t.Errorf("Quantile(±MaxFloat64, 0.25) = %v, %v; want ≈ −MaxFloat64/2", q, ok)
	}
	for _, p := range []float64{-0.1, math.Nextafter(0, -1), math.Nextafter(1, 2), 1.5, fNaN, fInf, fNegInf} {
		if v, ok := Quantile(xs, p); ok || v != 0 {
			t.Errorf("Quantile(xs, %v) = %v, %v; want 0, false", p, v, ok)
		}
	}
	// Median equals the midpoint; ties.
	if m, ok := Median([]float64{1, 2, 2, 9}); !ok || m != 2 {
		t.Errorf("Median = %v, %v; want 2", m, ok)
	}
	if m, ok := Median([]float64{-fMax, fMax, fMax}); !ok || m != fMax {
		t.Errorf("Median = %v, %v; want MaxFloat64", m, ok)
	}
}

// TestQuantileMonotone checks quantileSorted is non-decreasing in p and
// stays within the sample across a dense grid, including samples spanning
// ±MaxFloat64 where the interpolation switches form.
func TestQuantileMonotone(t *testing.T) {
	for _, xs := range [][]float64{
		{-fMax, -1, 0, 1e-300, 3, fMax},
		{1, 1 + 1e-15, 1 + 2e-15, 7},
		{-fMax, fMax},
		{0.1, 0.2, 0.3},
	} {
		s := slices.Clone(xs)
		slices.Sort(s)
		prev := math.Inf(-1)
		for i := 0; i <= 10000; i++ {
			p := float64(i) / 10000
			q := quantileSorted(s, p)
			if q < prev || q < s[0] || q > s[len(s)-1] || !isFinite(q) {
				t.Fatalf("quantile(%v, %v) = %v after %v: not monotone or out of range", xs, p, q, prev)
			}
			prev = q
		}
	}
}

func TestMAD(t *testing.T) {
	for _, c := range []struct {
		xs     []float64
		want   float64
		ok     bool
		reason string
	}{
		{[]float64{7}, 0, true, "one element"},
		{[]float64{4, 4, 4}, 0, true, "all equal"},
		{[]float64{1, 2, 3, 4}, 1, true, "even n: median 2.5, deviations 1.5 .5 .5 1.5"},
		{[]float64{-2, -1, 0, 1, 2}, 1, true, "zero-mean, negatives"},
		{[]float64{1, 2, 3, 4, 1000}, 1, true, "an outlier does not move it"},
		{[]float64{-fMax, 0, fMax}, fMax, true, "deviations up to MaxFloat64"},
		{[]float64{-fMax, fMax, fMax}, 0, true, "one infinite deviation is not the median"},
		{[]float64{-fMax, -fMax, fMax, fMax}, fMax, true, "median 0: deviations MaxFloat64"},
		{[]float64{-fMax, -fMax, fMax, fMax, fMax}, 0, true, "median MaxFloat64: three zero deviations"},
		{[]float64{-fMax, -fMax, -fMax, fMax, fMax}, 0, true, "median −MaxFloat64"},
		{[]float64{-fMax, -fMax, 0, fMax, fMax}, fMax, true, "median 0"},
		{[]float64{-fMax, -fMax, fMax / 2, fMax}, 0.75 * fMax, true, "median −MaxFloat64/4: the largest deviation overflows, the middle ones do not"},
	} {
		got, ok := MAD(c.xs)
		if ok != c.ok || (ok && got != c.want) || !isFinite(got) {
			t.Errorf("MAD(%v) = %v, %v; want %v, %v (%s)", c.xs, got, ok, c.want, c.ok, c.reason)
		}
	}
	// MADNormal·MAD estimates σ: for a large normal sample the ratio to the
	// sample sd is near 1 (deterministic quantiles of N(0,1)).
	xs := make([]float64, 999)
	for i := range xs {
		xs[i] = math.Sqrt2 * math.Erfinv(2*float64(i+1)/1000-1)
	}
	mad, _ := MAD(xs)
	if est := MADNormal * mad; math.Abs(est-1) > 0.01 {
		t.Errorf("MADNormal·MAD of normal quantiles = %v; want ≈ 1", est)
	}
}

// TestTotality runs every function over the small and awkward samples the
// package doc promises to handle, and checks the documented outcome.
func TestTotality(t *testing.T) {
	one := []float64{42}
	equal := []float64{7, 7, 7, 7, 7, 7, 7}
	zeroMean := []float64{-3, -1, 0, 1, 3, -2, 2}
	negative := []float64{-10, -12, -11, -13, -10, -11, -12}
	type result struct {
		v  float64
		ok bool
	}
	for _, c := range []struct {
		name   string
		got    result
		want   result
		reason string
	}{
		{"Mean(one)", r2(Mean(one)), result{42, true}, "the value itself"},
		{"StdDev(one)", r2(StdDev(one)), result{0, false}, "n−1 = 0"},
		{"CV(one)", r2(CV(one)), result{0, false}, "no sd"},
		{"Median(one)", r2(Median(one)), result{42, true}, "the value itself"},
		{"MAD(one)", r2(MAD(one)), result{0, true}, "no deviation"},
		{"StdDev(equal)", r2(StdDev(equal)), result{0, true}, "no spread"},
		{"CV(equal)", r2(CV(equal)), result{0, true}, "no spread"},
		{"MAD(equal)", r2(MAD(equal)), result{0, true}, "no spread"},
		{"Mean(zeroMean)", r2(Mean(zeroMean)), result{0, true}, "symmetric"},
		{"CV(zeroMean)", r2(CV(zeroMean)), result{0, false}, "mean ≤ 0"},
		{"MAD(zeroMean)", r2(MAD(zeroMean)), result{2, true}, "deviations 3 1 0 1 3 2 2"},
		{"Mean(negative)", r2(Mean(negative)), result{-79.0 / 7, true}, "negative mean"},
		{"CV(negative)", r2(CV(negative)), result{0, false}, "mean ≤ 0"},
		{"Median(negative)", r2(Median(negative)), result{-11, true}, "negative median"},
		{"MannWhitneyP(one, one)", r2(MannWhitneyP(one, one)), result{1, true}, "all equal: p = 1 like benchmath"},
		{"MannWhitneyP(equal, equal)", r2(MannWhitneyP(equal, equal)), result{1, true}, "all equal: p = 1"},
	} {
		if math.Abs(c.got.v-c.want.v) > 1e-12 || c.got.ok != c.want.ok {
			t.Errorf("%s = %v, %v; want %v, %v (%s)", c.name, c.got.v, c.got.ok, c.want.v, c.want.ok, c.reason)
		}
	}
	if _, ok := Tukey(one); ok {
		t.Error("Tukey(one) ok; want false (fewer than 4 values)")
	}
	if o, ok := Tukey(equal); !ok || o.IQR != 0 || o.Count() != 0 {
		t.Errorf("Tukey(equal) = %+v, %v; want IQR 0, no outliers", o, ok)
	}
	if o, ok := Tukey(negative); !ok || o.Q1 != -12 || o.Q3 != -10.5 || o.Count() != 0 {
		t.Errorf("Tukey(negative) = %+v, %v; want Q1 −12, Q3 −10.5, no outliers", o, ok)
	}
	if _, _, _, ok := MedianCI(one, 0.95); ok {
		t.Error("MedianCI(one) ok; want false (infinite bound)")
	}
	if c, lo, hi, ok := MedianCI(equal, 0.95); !ok || c != 7 || lo != 7 || hi != 7 {
		t.Errorf("MedianCI(equal) = %v [%v, %v] %v; want 7 [7, 7] true", c, lo, hi, ok)
	}
	if c, lo, hi, ok := MedianCI(negative, 0.95); !ok || c != -11 || lo != -13 || hi != -10 {
		t.Errorf("MedianCI(negative) = %v [%v, %v] %v; want −11 [−13, −10] true", c, lo, hi, ok)
	}
	for _, xs := range [][]float64{one, equal, zeroMean, negative} {
		if r, bimodal := TwoRegimes(xs); bimodal || !isFinite(r.Separation) || r.OrderP < 0 || r.OrderP > 1 {
			t.Errorf("TwoRegimes(%v) = %+v, %v; want not bimodal, finite", xs, r, bimodal)
		}
	}
}

// r2 packs a (value, ok) pair.
func r2(v float64, ok bool) struct {
	v  float64
	ok bool
} {
	return struct {
		v  float64
		ok bool
	}{v, ok}
}
