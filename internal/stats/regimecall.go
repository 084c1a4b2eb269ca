package stats

// RegimeCall is the result of [FindRegimes].
type RegimeCall struct {
	Regimes
	// Shift is true when the regimes come from [ShiftedBlock] (a block by
	// position), false when from [TwoRegimes] (a split by value).
	Shift bool
	// SustainedShare is, for a timeline, the smaller share of the values
	// on either side of the split after [Sustained]'s running median; 0
	// for runs.
	SustainedShare float64
}

// FindRegimes looks for two regimes in xs, a sample in time order:
// [TwoRegimes] first, then, when it finds none, [ShiftedBlock] (a hog
// makes its stretch spiky, which defeats a split by value).
//
// timeline says what one value is. For the runs of -count (timeline
// false) each value already spans a whole run, so a split that passes the
// tests is a change of the machine's state between runs. For a
// benchkit.Loop timeline (timeline true) one value is a batch of a few
// milliseconds, and short interference bursts scattered over the run can
// make up 15% of the batches and persist over a few consecutive ones; a
// regime must then also be a sustained level ([Sustained], at the
// regimes' Split: for a value split the threshold between the groups, for
// a block the midpoint of the two medians), or it is outliers, which
// [Tukey] already counts.
//
// found is false when no test passes; c then describes nothing.
func FindRegimes(xs []float64, timeline bool) (c RegimeCall, found bool) {
	if r, ok := TwoRegimes(xs); ok && sustainedAt(xs, r.Split, timeline, &c) {
		c.Regimes = r
		return c, true
	}
	if r, ok := ShiftedBlock(xs); ok && sustainedAt(xs, r.Split, timeline, &c) {
		c.Regimes, c.Shift = r, true
		return c, true
	}
	return RegimeCall{}, false
}

// sustainedAt applies [Sustained] at split when timeline is true and
// records the share in c; for runs it is always true.
func sustainedAt(xs []float64, split float64, timeline bool, c *RegimeCall) bool {
	if !timeline {
		c.SustainedShare = 0
		return true
	}
	ok, share, _ := Sustained(xs, split)
	c.SustainedShare = share
	return ok
}
