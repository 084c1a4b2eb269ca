package stats

// Compress replaces xs, in place, by the means of consecutive buckets of
// k = ⌈len(xs)/max⌉ elements (the last bucket may be shorter), so that at
// most max points remain, and returns the shortened slice. max < 1 is
// treated as 1; a slice already short enough is returned unchanged.
func Compress(xs []float64, max int) []float64 {
	if max < 1 {
		max = 1
	}
	if len(xs) <= max {
		return xs
	}
	k := (len(xs) + max - 1) / max
	n := 0
	for i := 0; i < len(xs); i += k {
		end := min(i+k, len(xs))
		sum := 0.0
		for _, x := range xs[i:end] {
			sum += x
		}
		xs[n] = sum / float64(end-i)
		n++
	}
	return xs[:n]
}
