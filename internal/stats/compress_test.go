package stats

import (
	"slices"
	"testing"
)

func TestCompress(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		max  int
		want []float64
	}{
		{[]float64{1, 2, 3, 4, 5}, 3, []float64{1.5, 3.5, 5}},
		{[]float64{1, 2, 3, 4, 5}, 1, []float64{3}},
		{[]float64{1, 2}, 2, []float64{1, 2}},
	} {
		if got := Compress(slices.Clone(c.xs), c.max); !slices.Equal(got, c.want) {
			t.Errorf("Compress(%v, %d) = %v, want %v", c.xs, c.max, got, c.want)
		}
	}
	if got := Compress(make([]float64, 10000), 0); len(got) != 1 {
		t.Errorf("Compress(10000 zeros, 0) has %d points, want 1", len(got))
	}
}
