package stats

import (
	"slices"
	"testing"
)

// FuzzShiftedBlock checks ShiftedBlock on any sample (inputs decoded as
// raw float64 bits, see fuzzFloats): no panic, finite fields, OrderP in
// (0, 1], Separation in [0, RegimeMaxSeparation], the input unmodified,
// and a consistent description: one regime is a single block, the other
// the rest, their sizes sum to n, their segments tile [0, n), each range
// holds its centre, and Low's centre is at most High's.
func FuzzShiftedBlock(f *testing.F) {
	addSeeds(f)
	f.Add(fuzzBytes(seed001Timeline[:120]...))
	f.Add(fuzzBytes(1, 1, 1, 1, 9, 9, 9, 9, 1, 1, 1, 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		orig := slices.Clone(xs)
		r, shifted := ShiftedBlock(xs)
		good, _, _ := sampleBounds(xs)
		if shifted && !good {
			t.Fatalf("ShiftedBlock(%v) shifted on a bad sample", xs)
		}
		checkUnmodified(t, xs, orig)
		checkRegimesRanges(t, "ShiftedBlock", xs, r)
		if r.OrderP == 0 {
			t.Fatalf("ShiftedBlock(%v) = %+v: OrderP 0", xs, r)
		}
		if r.Low.Size == 0 {
			if shifted || r.High.Size != 0 || r.OrderP != 1 {
				t.Fatalf("ShiftedBlock(%v) = %+v, %v: half a result", xs, r, shifted)
			}
			return
		}
		if r.Low.Size+r.High.Size != len(xs) || r.Low.Center > r.High.Center {
			t.Fatalf("ShiftedBlock(%v) = %+v: sizes or centres inconsistent", xs, r)
		}
		if len(r.Low.Segments) != 1 && len(r.High.Segments) != 1 {
			t.Fatalf("ShiftedBlock(%v) = %+v: neither regime is one block", xs, r)
		}
		checkTiling(t, "ShiftedBlock", xs, r.Low, r.High)
		for _, g := range []Regime{r.Low, r.High} {
			if g.Center < g.Lo || g.Center > g.Hi {
				t.Fatalf("ShiftedBlock(%v) = %+v: centre outside its range", xs, r)
			}
			size := 0
			for _, s := range g.Segments {
				size += s[1] - s[0]
				for i := s[0]; i < s[1]; i++ {
					if xs[i] < g.Lo || xs[i] > g.Hi {
						t.Fatalf("ShiftedBlock(%v): value %d outside its regime's range", xs, i)
					}
				}
			}
			if size != g.Size {
				t.Fatalf("ShiftedBlock(%v) = %+v: segments do not add up to the size", xs, r)
			}
		}
	})
}
