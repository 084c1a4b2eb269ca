package stats

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// The fuzz targets decode their []byte input as little-endian float64s,
// so every bit pattern (NaN payloads, ±Inf, subnormals, ±MaxFloat64) is
// reachable. Properties checked for every function: no panic, no NaN or
// ±Inf out, ok=false on non-finite input, the input is not modified, and
// the function's own invariants.

// maxFuzzValues bounds the sample size so each execution stays fast.
const maxFuzzValues = 300

// fuzzFloats is floats of at most the first maxFuzzValues words of data.
func fuzzFloats(data []byte) []float64 {
	return floats(data[:min(len(data), 8*maxFuzzValues)])
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

func fuzzBytes(xs ...float64) []byte {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

// addSeeds adds the samples every fuzz target starts from.
func addSeeds(f *testing.F) {
	for _, xs := range [][]float64{
		nil,
		{1},
		{3, 3, 3, 3},
		{1, 2, 3, 4, 5, 6, 7},
		{-1, 1, -1, 1, -1, 1},
		{fMax, -fMax, fMax, 0, 5e-324, -5e-324},
		{fNaN, 1, 2, 3},
		{fInf, 1, 2, 3, 4, 5},
		runThatLied,
	} {
		f.Add(fuzzBytes(xs...))
	}
}

// checkSample reports whether xs is non-empty and finite, and its bounds.
func sampleBounds(xs []float64) (good bool, lo, hi float64) {
	if len(xs) == 0 || !finite(xs) {
		return false, 0, 0
	}
	lo, hi = bounds(xs)
	return true, lo, hi
}

func FuzzMean(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		orig := slices.Clone(xs)
		m, ok := Mean(xs)
		good, lo, hi := sampleBounds(xs)
		if ok != good || !isFinite(m) || (ok && (m < lo || m > hi)) || (!ok && m != 0) {
			t.Fatalf("Mean(%v) = %v, %v", xs, m, ok)
		}
		checkUnmodified(t, xs, orig)
	})
}

// bitsOf maps values to bits so that NaNs compare equal in slices.Equal.
func bitsOf(xs []float64) []uint64 {
	b := make([]uint64, len(xs))
	for i, x := range xs {
		b[i] = math.Float64bits(x)
	}
	return b
}

// checkUnmodified fails unless xs holds the same bits as orig, the copy
// taken before the call under test.
func checkUnmodified(t *testing.T, xs, orig []float64) {
	t.Helper()
	if !slices.Equal(bitsOf(xs), bitsOf(orig)) {
		t.Fatal("input modified")
	}
}

// checkRegimesRanges fails when a field of r, returned by fn for xs, is
// NaN or ±Inf, OrderP is outside [0, 1] or Separation outside
// [0, RegimeMaxSeparation].
func checkRegimesRanges(t *testing.T, fn string, xs []float64, r Regimes) {
	t.Helper()
	for _, v := range []float64{r.Split, r.Separation, r.OrderP, r.Low.Center, r.Low.Lo, r.Low.Hi, r.High.Center, r.High.Lo, r.High.Hi} {
		if !isFinite(v) {
			t.Fatalf("%s(%v) = %+v: non-finite field", fn, xs, r)
		}
	}
	if r.OrderP < 0 || r.OrderP > 1 || r.Separation < 0 || r.Separation > RegimeMaxSeparation {
		t.Fatalf("%s(%v) = %+v: OrderP or Separation out of range", fn, xs, r)
	}
}

// checkTiling fails unless the segments of regs, returned by fn for xs,
// cover every index of xs exactly once.
func checkTiling(t *testing.T, fn string, xs []float64, regs ...Regime) {
	t.Helper()
	seen := make([]int, len(xs))
	for _, g := range regs {
		for _, s := range g.Segments {
			for i := s[0]; i < s[1]; i++ {
				seen[i]++
			}
		}
	}
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("%s(%v): value %d covered %d times", fn, xs, i, c)
		}
	}
}

func FuzzStdDev(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		sd, ok := StdDev(xs)
		good, lo, hi := sampleBounds(xs)
		if !isFinite(sd) || sd < 0 || (ok && (!good || len(xs) < 2)) || (!ok && sd != 0) {
			t.Fatalf("StdDev(%v) = %v, %v", xs, sd, ok)
		}
		// ok=false for a good sample only when the spread overflows.
		if good && len(xs) >= 2 && !ok && isFinite(hi-lo) {
			t.Fatalf("StdDev(%v) refused a sample with finite range", xs)
		}
		if ok && lo == hi && sd != 0 {
			t.Fatalf("StdDev(all equal %v) = %v", xs, sd)
		}
	})
}

func FuzzCV(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		cv, ok := CV(xs)
		if !isFinite(cv) || cv < 0 || (!ok && cv != 0) {
			t.Fatalf("CV(%v) = %v, %v", xs, cv, ok)
		}
		if ok {
			if m, _ := Mean(xs); m <= 0 {
				t.Fatalf("CV(%v) ok with mean %v", xs, m)
			}
		}
	})
}

func FuzzMedian(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		orig := slices.Clone(xs)
		m, ok := Median(xs)
		good, lo, hi := sampleBounds(xs)
		if ok != good || !isFinite(m) || (ok && (m < lo || m > hi)) || (!ok && m != 0) {
			t.Fatalf("Median(%v) = %v, %v", xs, m, ok)
		}
		checkUnmodified(t, xs, orig)
	})
}

func FuzzQuantile(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// The first two values are the probabilities, the rest the sample.
		if len(data) < 16 {
			return
		}
		p1 := math.Float64frombits(binary.LittleEndian.Uint64(data))
		p2 := math.Float64frombits(binary.LittleEndian.Uint64(data[8:]))
		xs := fuzzFloats(data[16:])
		good, lo, hi := sampleBounds(xs)
		q1, ok1 := Quantile(xs, p1)
		q2, ok2 := Quantile(xs, p2)
		valid := func(p float64) bool { return p >= 0 && p <= 1 }
		if ok1 != (good && valid(p1)) || ok2 != (good && valid(p2)) || !isFinite(q1) || !isFinite(q2) {
			t.Fatalf("Quantile(%v, %v/%v) = %v %v / %v %v", xs, p1, p2, q1, ok1, q2, ok2)
		}
		if ok1 && (q1 < lo || q1 > hi) {
			t.Fatalf("Quantile(%v, %v) = %v outside [%v, %v]", xs, p1, q1, lo, hi)
		}
		if ok1 && ok2 && (p1 < p2 && q1 > q2 || p1 > p2 && q1 < q2) {
			t.Fatalf("Quantile(%v) not monotone: p %v→%v, q %v→%v", xs, p1, p2, q1, q2)
		}
		if good {
			if q0, _ := Quantile(xs, 0); q0 != lo {
				t.Fatalf("Quantile(%v, 0) = %v; want min %v", xs, q0, lo)
			}
			if q, _ := Quantile(xs, 1); q != hi {
				t.Fatalf("Quantile(%v, 1) = %v; want max %v", xs, q, hi)
			}
		}
	})
}

func FuzzMAD(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		mad, ok := MAD(xs)
		good, lo, hi := sampleBounds(xs)
		if ok != good || !isFinite(mad) || mad < 0 || (!ok && mad != 0) {
			t.Fatalf("MAD(%v) = %v, %v", xs, mad, ok)
		}
		if ok && isFinite(hi-lo) && mad > hi-lo {
			t.Fatalf("MAD(%v) = %v exceeds the range %v", xs, mad, hi-lo)
		}
	})
}

func FuzzTukey(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		o, ok := Tukey(xs)
		good, _, _ := sampleBounds(xs)
		if ok && (!good || len(xs) < 4) {
			t.Fatalf("Tukey(%v) ok on a bad sample", xs)
		}
		if !ok {
			if o.Count() != 0 || o.Indices != nil || o.IQR != 0 {
				t.Fatalf("Tukey(%v) = %+v with ok=false; want zero", xs, o)
			}
			return
		}
		if !isFinite(o.Q1) || !isFinite(o.Q3) || !isFinite(o.IQR) || o.Q1 > o.Q3 || o.IQR < 0 {
			t.Fatalf("Tukey(%v) quartiles %+v", xs, o)
		}
		if o.Count() != len(o.Indices) || !slices.IsSorted(o.Indices) || len(o.Indices) > len(xs) {
			t.Fatalf("Tukey(%v) counts/indices inconsistent: %+v", xs, o)
		}
		for _, i := range o.Indices {
			if x := xs[i]; x >= o.Q1 && x <= o.Q3 {
				t.Fatalf("Tukey(%v): value %v inside [Q1, Q3] flagged", xs, x)
			}
		}
	})
}

func FuzzLehrRuns(f *testing.F) {
	for _, c := range [][2]float64{{5, 5}, {18.88, 5}, {0.6, 0.2}, {0, 1}, {fNaN, 1}, {fMax, 5e-324}, {5e-324, fMax}, {-1, 2}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, cv, delta float64) {
		runs, ok := LehrRuns(cv, delta)
		valid := isFinite(cv) && isFinite(delta) && cv > 0 && delta > 0
		if ok && (!valid || runs < 1 || runs > MaxLehrRuns) {
			t.Fatalf("LehrRuns(%v, %v) = %d, true", cv, delta, runs)
		}
		if !ok && !(runs == 0 || runs == MaxLehrRuns) {
			t.Fatalf("LehrRuns(%v, %v) = %d, false; want 0 or MaxLehrRuns", cv, delta, runs)
		}
		if !valid && (ok || runs != 0) {
			t.Fatalf("LehrRuns(%v, %v) = %d, %v on invalid input", cv, delta, runs, ok)
		}
		// More noise never needs fewer runs.
		if ok && cv < fMax/2 {
			if r2, ok2 := LehrRuns(2*cv, delta); ok2 && r2 < runs {
				t.Fatalf("LehrRuns(%v, %v) = %d > LehrRuns(2·cv) = %d", cv, delta, runs, r2)
			}
		}
	})
}

func FuzzTwoRegimes(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		orig := slices.Clone(xs)
		r, bimodal := TwoRegimes(xs)
		good, _, _ := sampleBounds(xs)
		if bimodal && !good {
			t.Fatalf("TwoRegimes(%v) bimodal on a bad sample", xs)
		}
		checkRegimesRanges(t, "TwoRegimes", xs, r)
		checkUnmodified(t, xs, orig)
		if r.Low.Size == 0 {
			if bimodal || r.High.Size != 0 {
				t.Fatalf("TwoRegimes(%v) = %+v, %v: half a split", xs, r, bimodal)
			}
			return
		}
		if r.Low.Size+r.High.Size != len(xs) || r.Low.Hi >= r.High.Lo || r.Split < r.Low.Hi || r.Split >= r.High.Lo {
			t.Fatalf("TwoRegimes(%v) = %+v: inconsistent split", xs, r)
		}
		if r.Low.Center < r.Low.Lo || r.Low.Center > r.Low.Hi || r.High.Center < r.High.Lo || r.High.Center > r.High.Hi {
			t.Fatalf("TwoRegimes(%v) = %+v: centre outside its regime", xs, r)
		}
		// The segments of both regimes tile [0, n) and match the values.
		checkTiling(t, "TwoRegimes", xs, r.Low, r.High)
		for g, reg := range []Regime{r.Low, r.High} {
			for _, s := range reg.Segments {
				for i := s[0]; i < s[1]; i++ {
					if low := xs[i] <= r.Split; low != (g == 0) {
						t.Fatalf("TwoRegimes(%v): run %d (%v) in the wrong regime of split %v", xs, i, xs[i], r.Split)
					}
				}
			}
		}
	})
}

func FuzzRegimeCriticalD(f *testing.F) {
	for _, n := range []int{-1, 0, 5, 6, 20, 21, 999, 1000, math.MaxInt32, math.MaxInt} {
		f.Add(n, true)
	}
	f.Fuzz(func(t *testing.T, n int, persistent bool) {
		d := RegimeCriticalD(n, persistent)
		if !isFinite(d) || d < math.Sqrt(12) || (n >= 6 && d > 30) {
			t.Fatalf("RegimeCriticalD(%d, %v) = %v", n, persistent, d)
		}
	})
}

func FuzzMedianCI(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// The first value is the confidence, the rest the sample.
		if len(data) < 8 {
			return
		}
		conf := math.Float64frombits(binary.LittleEndian.Uint64(data))
		xs := fuzzFloats(data[8:])
		orig := slices.Clone(xs)
		c, lo, hi, ok := MedianCI(xs, conf)
		good, mn, mx := sampleBounds(xs)
		if !isFinite(c) || !isFinite(lo) || !isFinite(hi) || (!ok && (c != 0 || lo != 0 || hi != 0)) {
			t.Fatalf("MedianCI(%v, %v) = %v [%v, %v] %v", xs, conf, c, lo, hi, ok)
		}
		if ok && (!good || !(conf > 0 && conf < 1) || lo > c || c > hi || lo < mn || hi > mx) {
			t.Fatalf("MedianCI(%v, %v) = %v [%v, %v] ok", xs, conf, c, lo, hi)
		}
		if ok {
			if m, _ := Median(xs); !aeq12(m, c) {
				t.Fatalf("MedianCI(%v).center = %v; Median %v", xs, c, m)
			}
		}
		checkUnmodified(t, xs, orig)
	})
}

func FuzzMannWhitneyP(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// The first byte says where the second sample starts.
		if len(data) < 1 {
			return
		}
		xs := fuzzFloats(data[1:])
		k := min(int(data[0]), len(xs))
		a, b := xs[:k], xs[k:]
		orig := slices.Clone(xs)
		p, ok := MannWhitneyP(a, b)
		goodA, _, _ := sampleBounds(a)
		goodB, _, _ := sampleBounds(b)
		if ok != (goodA && goodB) || !isFinite(p) || p < 0 || p > 1 || (!ok && p != 0) {
			t.Fatalf("MannWhitneyP(%v, %v) = %v, %v", a, b, p, ok)
		}
		checkUnmodified(t, xs, orig)
	})
}
