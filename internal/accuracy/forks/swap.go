package forks

import (
	"fmt"
	"io"
	"slices"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// swapWork is the workload that compares FNV-1a with a word fold, about
// 20× apart, both ways round; its rows go to their own table.
const swapWork = "swap"

// swapVariants are swap's rows: Compare's two directions, named by
// baseline, and the plain way's one ratio, the same samples either way.
var (
	swapVariants = []string{"base=fnv", "base=fold"}
	swapPlain    = "either"
)

// variantsOf returns the row variants of work for a method: the nominal
// variants for the four workloads, the two directions (Compare) or one
// row (plain) for swap.
func variantsOf(work string, plain bool) []string {
	switch {
	case work != swapWork:
		return variants
	case plain:
		return []string{swapPlain}
	}
	return swapVariants
}

// swapVariant returns the row of swap's Compare line for candidate cand:
// fold is the candidate when fnv is the baseline, and the other way round.
func swapVariant(cand string) (string, bool) {
	switch cand {
	case "fold":
		return "base=fnv", true
	case "fnv":
		return "base=fold", true
	}
	return "", false
}

// swapRatio returns o as the ratio fnv/fold and its interval (lo, hi are
// meaningful only when o.HasCI). With fnv as the baseline o is fold's Δ
// against fnv, so the ratio is 100/(100+Δ) and the interval's ends swap;
// otherwise (fold as the baseline, or the plain way's fnv against fold)
// it is 1+Δ/100.
func swapRatio(variant string, o obs) (r, lo, hi float64) {
	if variant == "base=fnv" {
		return 100 / (100 + o.Delta), 100 / (100 + o.Hi), 100 / (100 + o.Lo)
	}
	return 1 + o.Delta/100, 1 + o.Lo/100, 1 + o.Hi/100
}

// swapRow is one row of the swap table.
type swapRow struct {
	n, covered         int
	med, min, max, wid float64 // ratios and the median interval width (NaN without an interval)
}

// summarizeSwap summarises one method's swap rows. The truth for
// coverage is the median ratio over both directions' repetitions pooled:
// a ratio that does not depend on the baseline is covered from both
// sides.
func summarizeSwap(res *results, m method) (rows []swapRow, pooled float64) {
	vs := variantsOf(swapWork, m.isPlain())
	var all []float64
	for _, v := range vs {
		for _, o := range res.obs[key{m.name, swapWork, v}] {
			r, _, _ := swapRatio(v, o)
			all = append(all, r)
		}
	}
	pooled, _ = stats.Median(all)
	for _, v := range vs {
		var rs, ws []float64
		row := swapRow{}
		for _, o := range res.obs[key{m.name, swapWork, v}] {
			r, lo, hi := swapRatio(v, o)
			rs = append(rs, r)
			if !o.HasCI {
				continue // no interval: not covered, no width
			}
			ws = append(ws, hi-lo)
			if lo*(1-1e-6) <= pooled && pooled <= hi*(1+1e-6) {
				row.covered++
			}
		}
		row.n = len(rs)
		if row.n > 0 {
			row.med, _ = stats.Median(rs)
			row.min, row.max = slices.Min(rs), slices.Max(rs)
			row.wid = harness.MedianOrNaN(ws)
		}
		rows = append(rows, row)
	}
	return rows, pooled
}

// printSwapTable writes the swap table: per method and baseline, the
// ratio fnv/fold over the repetitions, its coverage and the gap between
// the two baselines.
func printSwapTable(w io.Writer, methods []method, res *results) {
	fmt.Fprintln(w, "\nA ratio must not depend on the baseline: fnv/fold (FNV-1a against a word fold of 1 KiB, about 20× apart), both ways round.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| method | baseline | fnv/fold median | range (min – max) | coverage⁵ | width⁶ | baseline gap⁷ |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, m := range methods {
		rows, _ := summarizeSwap(res, m)
		vs := variantsOf(swapWork, m.isPlain())
		for i, r := range rows {
			fmt.Fprintln(w, formatSwapRow(m, vs[i], r, i, rows))
		}
	}
	fmt.Fprint(w, `
⁵ coverage: the repetitions whose printed interval, as a ratio fnv/fold, contains the median ratio over both baselines' repetitions pooled (`+"`–`"+` for the plain way, which prints no interval).
⁶ width: the median interval width, as a ratio, over the repetitions with an interval.
⁷ baseline gap: the median with fold as the baseline over the median with fnv as the baseline, minus one, in percent.
`)
}

// formatSwapRow formats row i of rows (one method's).
func formatSwapRow(m method, variant string, r swapRow, i int, rows []swapRow) string {
	if r.n == 0 {
		return fmt.Sprintf("| %s | %s | – | – | – | – | – |", m.name, variant)
	}
	cover, width, gap := "–", "–", "–"
	if !m.isPlain() {
		cover, width = fmt.Sprintf("%d/%d", r.covered, r.n), fmtWidth(r.wid)
	}
	if i == 1 && rows[0].n > 0 {
		gap = fmt.Sprintf("%+.2f%%", 100*(r.med/rows[0].med-1))
	}
	return fmt.Sprintf("| %s | %s | %.2f | %.2f – %.2f | %s | %s | %s |", m.name, variant, r.med, r.min, r.max, cover, width, gap)
}
