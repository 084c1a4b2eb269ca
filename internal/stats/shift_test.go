package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// seed001Timeline is a real benchkit.Loop batch timeline (ns/op per batch,
// 248 batches, rounded to 0.1 ns) of examples/seed001's
// BenchmarkMakeBuffer_Correct on the busy 2-core VM, captured with
// `go test -run='^$' -bench=. ./examples/seed001 -args
// -benchkit.samples=DIR/`: the CPU hog competes from batch 21 to about 49,
// spiky (114 ns to 18 µs), then a ragged return to ~80 ns. TwoRegimes'
// Ashman's D is 1.3 on it (the spikes inflate the variance); the block
// test finds it.
var seed001Timeline = []float64{
	65.8, 72.5, 68.3, 82.3, 53.7, 84.6, 82.5, 71.8, 95.8, 59.7, 94.4, 85.7,
	63.0, 69.8, 63.7, 55.9, 70.1, 66.2, 77.3, 59.7, 127.0, 161.5, 273.8, 187.6,
	157.4, 114.1, 225.5, 234.6, 290.3, 363.7, 237.5, 480.5, 333.4, 458.4, 237.3, 342.2,
	342.1, 278.4, 420.5, 274.0, 350.5, 4100.5, 348.4, 386.4, 466.5, 179.6, 422.2, 148.3,
	18373.2, 75.1, 1265.7, 86.7, 125.6, 144.3, 110.7, 75.2, 67.3, 89.1, 120.7, 131.0,
	66.6, 112.8, 98.9, 66.1, 81.1, 57.3, 173.1, 86.5, 93.6, 71.8, 69.2, 78.1,
	81.4, 69.2, 96.6, 122.9, 57.7, 67.2, 82.4, 62.5, 80.9, 80.2, 151.2, 85.5,
	67.9, 66.7, 65.6, 107.9, 86.5, 104.7, 76.6, 69.3, 64.7, 57.4, 68.8, 64.7,
	56.5, 67.7, 69.0, 60.9, 72.5, 58.8, 63.2, 78.7, 57.5, 82.7, 79.4, 81.5,
	84.1, 74.7, 82.2, 72.7, 120.9, 83.6, 73.8, 71.5, 68.1, 62.9, 61.6, 476.2,
	86.8, 94.2, 72.5, 93.6, 79.4, 94.5, 73.1, 901.8, 93.9, 91.5, 83.5, 93.4,
	76.9, 75.9, 74.5, 96.2, 91.1, 97.8, 100.0, 78.1, 87.0, 89.3, 66.9, 172.8,
	68.0, 73.5, 134.8, 77.8, 91.5, 101.4, 104.8, 90.0, 80.4, 112.0, 87.4, 147.5,
	85.5, 80.0, 77.1, 77.8, 73.6, 96.6, 100.2, 87.1, 100.4, 88.9, 113.3, 85.2,
	65.2, 743.5, 89.0, 90.1, 84.9, 75.7, 86.3, 94.8, 76.5, 89.2, 90.6, 97.7,
	118.2, 77.9, 60.3, 69.1, 62.1, 189.0, 80.6, 76.1, 68.7, 147.6, 72.1, 83.5,
	87.6, 64.4, 85.1, 71.1, 79.4, 83.9, 80.8, 66.1, 62.7, 58.8, 61.2, 64.8,
	67.9, 79.7, 61.9, 123.0, 136.9, 93.0, 116.4, 91.2, 77.2, 75.0, 88.4, 76.2,
	91.8, 223.2, 66.7, 87.2, 84.2, 76.1, 93.0, 95.4, 76.1, 366.1, 93.7, 81.8,
	84.9, 81.9, 78.5, 72.1, 150.2, 90.7, 95.3, 99.9, 72.6, 66.0, 71.7, 66.8,
	54.3, 82.6, 76.8, 85.5, 89.7, 88.9, 95.9, 80.9}

func TestShiftedBlockSeed001Timeline(t *testing.T) {
	if _, bimodal := TwoRegimes(seed001Timeline); bimodal {
		t.Fatal("TwoRegimes calls the timeline two regimes; the test no longer shows what ShiftedBlock adds")
	}
	r, shifted := ShiftedBlock(seed001Timeline)
	if !shifted {
		t.Fatalf("ShiftedBlock(seed001Timeline) = %+v, false; want the hog's block", r)
	}
	// The hog is the high regime, one block starting at batch 20 (from 0).
	if len(r.High.Segments) != 1 || r.High.Segments[0][0] != 20 || r.High.Size < 25 || r.High.Size > 45 {
		t.Errorf("high regime %+v; want one block from 20 of 25-45 batches", r.High)
	}
	if r.Low.Size+r.High.Size != len(seed001Timeline) || r.Low.Center > 90 || r.High.Center < 200 {
		t.Errorf("regimes %+v / %+v; want sizes summing to %d, low centre < 90, high > 200", r.Low, r.High, len(seed001Timeline))
	}
	if r.OrderP > ShiftMaxP {
		t.Errorf("OrderP %v > %v", r.OrderP, ShiftMaxP)
	}
}

func TestShiftedBlockRunThatLied(t *testing.T) {
	for _, xs := range [][]float64{runThatLied, runThatLiedCV} {
		r, shifted := ShiftedBlock(xs)
		if !shifted {
			t.Fatalf("ShiftedBlock(%v) = %+v, false; want the slow runs 9-16", xs, r)
		}
		// The block is the fast runs; run 17 (34.00) may join either side.
		if len(r.Low.Segments) != 1 || (r.Low.Segments[0][0] != 7 && r.Low.Segments[0][0] != 8) || r.Low.Segments[0][1] < 16 || r.Low.Segments[0][1] > 17 {
			t.Errorf("low regime %+v; want runs 8 or 9 to 16 or 17 (from 1)", r.Low)
		}
	}
}

// TestShiftedBlockUnimodal checks one seeded sample per shape and size of
// TwoRegimes' unimodal shapes (noise, tails, outliers, drift, AR(1)).
func TestShiftedBlockUnimodal(t *testing.T) {
	for k, s := range unimodalShapes {
		for _, n := range []int{10, 20, 50, 200} {
			if r, shifted := ShiftedBlock(unimodalSample(k, n, 1)); shifted {
				t.Errorf("%s, n=%d: shifted, want not: %+v", s.name, n, r)
			}
		}
	}
}

// TestShiftedBlockFalsePositiveRate checks the calibration over 200 seeded
// samples per shape and size: at most 1% are called shifted (measured: at
// most 1/300 for every shape and n = 20 to 200, see docs/statistics.md).
// Autocorrelated shapes are skipped: see the doc of ShiftedBlock.
func TestShiftedBlockFalsePositiveRate(t *testing.T) {
	calibration(t)
	checkFalsePositiveRate(t, 200, []int{20, 30, 40}, 3000, "shifted", func(xs []float64) bool {
		_, shifted := ShiftedBlock(xs)
		return shifted
	})
}

// TestShiftedBlockDrift checks that steep drifts and humps, which persist
// in order and move far, are not a level shift.
func TestShiftedBlockDrift(t *testing.T) {
	calibration(t)
	r := rand.New(rand.NewPCG(11, 11))
	for _, n := range []int{20, 50, 100} {
		for _, shape := range []string{"drift", "hump"} {
			hits := 0
			for range 20 {
				xs := make([]float64, n)
				for i := range xs {
					u := float64(i) / float64(n-1)
					if shape == "hump" {
						u = 1 - math.Abs(2*u-1)
					}
					xs[i] = 100 + 100*u + r.NormFloat64()
				}
				if _, shifted := ShiftedBlock(xs); shifted {
					hits++
				}
			}
			if hits > 0 {
				t.Errorf("%s 100→200, n=%d: %d/20 shifted; want 0", shape, n, hits)
			}
		}
	}
}

// hogTimeline returns n batches near base with 10% noise, and a block
// [from, to) under a hog: levels spread over 2-6× base, one batch in
// five 20× base, one in ten as fast as base. TwoRegimes rarely calls it.
func hogTimeline(r *rand.Rand, n, from, to int, base float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = base * (1 + 0.1*math.Abs(r.NormFloat64()))
		if i >= from && i < to {
			switch u := r.Float64(); {
			case u < 0.1:
			case u < 0.3:
				xs[i] = 20 * base * (1 + r.Float64())
			default:
				xs[i] = base * (2 + 4*r.Float64())
			}
		}
	}
	return xs
}

func TestShiftedBlockPower(t *testing.T) {
	calibration(t)
	r := rand.New(rand.NewPCG(3, 3))
	for _, c := range []struct{ n, from, to int }{{80, 20, 45}, {100, 10, 40}, {150, 15, 50}, {150, 15, 110}, {60, 0, 20}, {60, 35, 60}} {
		found, twoRegimes := 0, 0
		for range 20 {
			xs := hogTimeline(r, c.n, c.from, c.to, 50)
			if g, shifted := ShiftedBlock(xs); shifted {
				found++
				want := [][2]int{{c.from, c.to}}
				if !slices.Equal(g.High.Segments, want) && !near(g.High.Segments, want[0], max(5, c.n/10)) {
					t.Errorf("n=%d block [%d,%d): high segments %v", c.n, c.from, c.to, g.High.Segments)
				}
			}
			if _, bimodal := TwoRegimes(xs); bimodal {
				twoRegimes++
			}
		}
		if found < 18 {
			t.Errorf("n=%d block [%d,%d): found %d/20 (TwoRegimes %d/20); want ≥ 18", c.n, c.from, c.to, found, twoRegimes)
		}
	}
	// A low block (seed 001's fast middle) with spikes everywhere.
	found := 0
	for range 30 {
		xs := make([]float64, 60)
		for i := range xs {
			xs[i] = 40 * (1 + 0.05*r.NormFloat64())
			if i >= 20 && i < 40 {
				xs[i] = 27 * (1 + 0.05*r.NormFloat64())
			}
			if r.IntN(16) == 0 {
				xs[i] *= 10
			}
		}
		if g, shifted := ShiftedBlock(xs); shifted && len(g.Low.Segments) == 1 {
			found++
		}
	}
	if found < 27 {
		t.Errorf("low block with spikes: found %d/30; want ≥ 27", found)
	}
}

// near reports whether segs is one segment within d of want at both ends.
func near(segs [][2]int, want [2]int, d int) bool {
	return len(segs) == 1 && abs(segs[0][0]-want[0]) <= d && abs(segs[0][1]-want[1]) <= d
}

func abs(x int) int { return max(x, -x) }

func TestShiftedBlockEdges(t *testing.T) {
	block := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 10 + float64(i%3)*0.01
			if i >= n/3 && i < 2*n/3 {
				xs[i] = 30 + float64(i%2)*0.01
			}
		}
		return xs
	}
	for _, c := range []struct {
		name string
		xs   []float64
	}{
		{"nil", nil},
		{"five values", []float64{1, 1, 9, 9, 9}},
		{"all equal", []float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 5}},
		{"NaN", append(block(30), math.NaN())},
		{"+Inf", append(block(30), math.Inf(1))},
		{"too long", block(ShiftMaxN + 1)},
		{"below ShiftMinN", block(ShiftMinN - 1)},
	} {
		r, shifted := ShiftedBlock(c.xs)
		if shifted || r.Low.Size != 0 || r.High.Size != 0 || r.OrderP != 1 {
			t.Errorf("%s: %+v, %v; want the zero Regimes with OrderP 1", c.name, r, shifted)
		}
	}

	xs := block(30)
	orig := slices.Clone(xs)
	r1, ok1 := ShiftedBlock(xs)
	r2, ok2 := ShiftedBlock(xs)
	if !ok1 || !ok2 || !slices.Equal(r1.High.Segments, r2.High.Segments) || r1.OrderP != r2.OrderP {
		t.Errorf("not deterministic or not found: %+v %v / %+v %v", r1, ok1, r2, ok2)
	}
	if !slices.Equal(xs, orig) {
		t.Error("input modified")
	}
	if want := [][2]int{{10, 20}}; !slices.Equal(r1.High.Segments, want) {
		t.Errorf("high segments %v, want %v", r1.High.Segments, want)
	}
	if math.Abs(r1.Split-20.0075) > 1e-9 {
		t.Errorf("split %v, want the midpoint of the centres 20.0075", r1.Split)
	}
	if r1.Separation != RegimeMaxSeparation {
		t.Errorf("separation %v, want the cap (both regimes nearly constant)", r1.Separation)
	}
	// Exactly equal values at two levels: MAD 0, separation capped, found.
	two := []float64{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1}
	if r, ok := ShiftedBlock(two); !ok || r.Separation != RegimeMaxSeparation || r.High.Size != 8 {
		t.Errorf("two exact levels: %+v, %v", r, ok)
	}
	// Huge magnitudes do not overflow.
	huge := block(30)
	for i := range huge {
		huge[i] *= math.MaxFloat64 / 40
	}
	if r, ok := ShiftedBlock(huge); !ok || !isFinite(r.Split) || !isFinite(r.Separation) {
		t.Errorf("huge values: %+v, %v", r, ok)
	}
	// A single change point: the block is the tail.
	tail := block(30)
	for i := 20; i < 30; i++ {
		tail[i] = 30
	}
	if r, ok := ShiftedBlock(tail); !ok || !slices.Equal(r.High.Segments, [][2]int{{10, 30}}) || !slices.Equal(r.Low.Segments, [][2]int{{0, 10}}) {
		t.Errorf("tail shift: %+v, %v", r, ok)
	}
}

func TestMidRanks(t *testing.T) {
	got := midRanks([]float64{3, 1, 3, 2, 3})
	if want := []float64{4, 1, 4, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("midRanks = %v, want %v", got, want)
	}
}
