package forks

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/stats"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// nominal is each variant's nominal size, for the table's labels.
var nominal = map[string]string{"same": "0%", "p2": "~+2%", "p5": "~+5%", "p10": "~+10%"}

// row is one table row's counts over its n repetitions.
type row struct {
	n, covered, flagged, wrong, undecided int
	width, med, min, max                  float64 // points (width NaN without an interval) and percent
}

// summarize counts one row's repetitions; see the package doc for each
// column. An estimate is covered when lo ≤ median ≤ hi, both ends as the
// JSON report holds them, with 1e-9 of slack for the float arithmetic; an
// estimate without an interval is never covered and has no width.
func summarize(xs []obs, variant string) row {
	var ds, ws []float64
	var verdicts []string
	for _, o := range xs {
		ds = append(ds, o.Delta)
		if o.HasCI {
			ws = append(ws, o.Hi-o.Lo)
		}
		verdicts = append(verdicts, o.Verdict)
	}
	t := harness.TallyVerdicts(verdicts, variant == "same")
	r := row{n: t.N, flagged: t.Flagged, wrong: t.Wrong, undecided: t.Undecided}
	if r.n > 0 { // otherwise the row prints "–"
		r.med, _ = stats.Median(ds)
		r.min, r.max = slices.Min(ds), slices.Max(ds)
		r.width = harness.MedianOrNaN(ws)
	}
	for _, o := range xs {
		if o.HasCI && o.Lo-1e-9 <= r.med && r.med <= o.Hi+1e-9 {
			r.covered++
		}
	}
	return r
}

// printTable writes the markdown table and its footnotes.
func printTable(w io.Writer, cfg config, methods []method, res *results) {
	fmt.Fprintln(w, "| method | work | variant | coverage¹ | width² | flagged / caught³ | wrong sign | undecided | median Δ | Δ range (min – max) | wall / rep⁴ |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, m := range methods {
		wall := medianDur(res.wall[m.name])
		for _, wk := range cfg.works {
			if wk == swapWork {
				continue
			}
			for _, v := range variants {
				r := summarize(res.obs[key{m.name, wk, v}], v)
				fmt.Fprintln(w, formatRow(m, wk, v, r, wall))
			}
		}
	}
	printFootnotes(w)
	if slices.Contains(cfg.works, swapWork) {
		printSwapTable(w, methods, res)
	}
}

// formatRow formats one row; counts that do not apply are "–".
func formatRow(m method, work, variant string, r row, wall string) string {
	frac := func(k int) string { return fmt.Sprintf("%d/%d", k, r.n) }
	cover, width, wrong, und := "–", "–", "–", "–"
	if !m.isPlain() && r.n > 0 {
		cover, width, und = frac(r.covered), fmtWidth(r.width), frac(r.undecided)
	}
	what := "flagged "
	if variant != "same" {
		what, wrong = "caught ", frac(r.wrong)
	}
	med, rng := "–", "–"
	if r.n > 0 {
		med, rng = fmt.Sprintf("%+.2f%%", r.med), fmt.Sprintf("%+.2f%% – %+.2f%%", r.min, r.max)
	}
	return fmt.Sprintf("| %s | %s | %s (%s) | %s | %s | %s%s | %s | %s | %s | %s | %s |",
		m.name, work, variant, nominal[variant], cover, width, what, frac(r.flagged), wrong, und, med, rng, wall)
}

func printFootnotes(w io.Writer) {
	fmt.Fprint(w, `
Every variant is compared with base; Δ is its estimate in percent of base; k/n counts the n repetitions (fresh processes) that method completed.

¹ coverage: the repetitions whose printed interval [lo, hi] contains the median Δ of that row's n repetitions. The median over fresh processes stands in for the truth: it is what a user who reruns converges to, while the nominal sizes are only approximate (each call has a fixed cost, and sort's work grows as n·log₂n plus a linear part). Compare's intervals are at the level its header line states (Bonferroni over the control and the candidates). "–" for the plain way: benchstat prints each side's median with its own 95% interval but no interval on the ratio, and a ratio of the two intervals' ends is not an interval at any stated level, so none is computed.
² width: the median of hi − lo, in percentage points, over the repetitions with an interval (one without is never covered).
³ flagged (same, truth 0%): a decided verdict, faster or slower; for the plain way p ≤ 0.05 in benchmath.AssumeNothing's Mann-Whitney U test (benchstat prints a delta instead of ~). caught (p2, p5, p10): flagged as slower; wrong sign: flagged as faster. undecided: Compare refused a verdict, counted as neither.
⁴ wall / rep: the median wall time of that method's process (all its workloads, start-up and any forked children included).
BENCHKIT_FORKS sets Compare's fork count; a Compare built before forks existed ignores it and measures every F in one process.
`)
}

// fmtWidth formats an interval width, or "–" for NaN (no interval).
func fmtWidth(w float64) string {
	if math.IsNaN(w) {
		return "–"
	}
	return fmt.Sprintf("%.2f", w)
}

// medianDur formats the median of ds, or "–" if there are none.
func medianDur(ds []time.Duration) string {
	if len(ds) == 0 {
		return "–"
	}
	return textfmt.Dur(harness.MedianDuration(ds))
}
