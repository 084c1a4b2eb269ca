package stats

import (
	"math"
	"testing"
)

func TestForkInterval(t *testing.T) {
	// Forks that agree give a narrow interval; forks that disagree, with
	// the same mean, a wider one.
	agree := []float64{1.050, 1.049, 1.051, 1.050, 1.050}
	disagree := []float64{1.030, 1.070, 1.045, 1.062, 1.043}
	a, ok := ForkInterval(agree, 0.95)
	if !ok {
		t.Fatal("ForkInterval(agree) not ok")
	}
	d, ok := ForkInterval(disagree, 0.95)
	if !ok {
		t.Fatal("ForkInterval(disagree) not ok")
	}
	if math.Abs(a.Center-1.05) > 1e-12 || math.Abs(d.Center-1.05) > 1e-12 {
		t.Errorf("centres %v, %v; want the mean 1.05", a.Center, d.Center)
	}
	if !(a.Lo < a.Center && a.Center < a.Hi) {
		t.Errorf("agree: %+v does not bracket its centre", a)
	}
	if wa, wd := a.Hi-a.Lo, d.Hi-d.Lo; !(wd > 10*wa) {
		t.Errorf("widths: agreeing forks %v, disagreeing forks %v; want the second far wider", wa, wd)
	}
	// Known value: mean 2, sd 1 over n = 4, t(0.975, 3) = 3.182446305284263.
	c, ok := ForkInterval([]float64{1, 2, 2, 3}, 0.95)
	half := 3.182446305284263 * math.Sqrt(2.0/3) / 2
	if !ok || math.Abs(c.Lo-(2-half)) > 1e-9 || math.Abs(c.Hi-(2+half)) > 1e-9 {
		t.Errorf("ForkInterval([1 2 2 3]) = %+v, %v; want [%v, %v]", c, ok, 2-half, 2+half)
	}
	// Higher confidence, wider interval.
	c99, _ := ForkInterval(disagree, 0.99)
	if !(c99.Hi-c99.Lo > d.Hi-d.Lo) {
		t.Errorf("99%% interval %+v not wider than 95%% %+v", c99, d)
	}
	if e, ok := ForkInterval([]float64{1.02, 1.02, 1.02}, 0.95); !ok || e.Lo != 1.02 || e.Hi != 1.02 {
		t.Errorf("equal forks: %+v, %v; want a zero-width interval at 1.02", e, ok)
	}
}

func TestForkIntervalBadInput(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		conf float64
	}{
		{nil, 0.95},
		{[]float64{1}, 0.95},
		{[]float64{1, math.NaN()}, 0.95},
		{[]float64{1, math.Inf(1)}, 0.95},
		{[]float64{1, 2}, 0},
		{[]float64{1, 2}, 1},
	} {
		if ci, ok := ForkInterval(tc.xs, tc.conf); ok || ci != (PairedInterval{}) {
			t.Errorf("ForkInterval(%v, %v) = %+v, %v; want zero, false", tc.xs, tc.conf, ci, ok)
		}
	}
}
