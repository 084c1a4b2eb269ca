package report

import (
	"encoding/xml"
	"github.com/benchkit/go-benchkit/internal/against"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
)

func renderHTML(t *testing.T, in Input) string {
	t.Helper()
	return renderWith(t, HTML, in)
}

// svgs returns the <svg> elements of class in page.
func svgs(page, class string) []string {
	return regexp.MustCompile(`<svg class="`+regexp.QuoteMeta(class)+`"[^>]*>.*?</svg>`).FindAllString(page, -1)
}

// TestHTMLPlots: the full fixture's page has a forest row per estimate
// of its comparison (control and two candidates) over one axis, a
// timeline and a histogram per row with two samples or more, the
// comparison's verdicts and the findings in the text report's words.
func TestHTMLPlots(t *testing.T) {
	in := fixture()
	page := renderHTML(t, in)
	a := Analyze(in)
	plotted := 0
	for _, r := range a.Rows {
		if len(r.Samples) >= 2 {
			plotted++
		}
	}
	assert.Len(t, svgs(page, "forest-row"), 3)
	assert.Len(t, svgs(page, "forest-axis"), 1)
	assert.Len(t, svgs(page, "timeline"), plotted)
	assert.Len(t, svgs(page, "histogram"), plotted)
	for _, want := range []string{titleText(in, a), "gate 5%: FAILED", "noise floor, same", "load: load average 3.10"} {
		assert.Contains(t, page, esc(want))
	}
	for _, l := range allFindings(a.Rows, false) {
		assert.Contains(t, page, esc(l))
	}
	assert.Contains(t, page, `<details class="bench" id="bench-1">`, "more than MaxOpenDetails benchmarks: folded")
}

// TestHTMLSelfContained: no script, no external resource, every plot a
// well-formed SVG, nothing NaN, and the same page for the same input.
func TestHTMLSelfContained(t *testing.T) {
	for name, in := range goldenInputs() {
		t.Run(name, func(t *testing.T) {
			page := renderHTML(t, in)
			assert.NotContains(t, page, "<script")
			assert.NotContains(t, page, "NaN")
			assert.NotRegexp(t, `(src|href)="(https?:)?//`, page)
			assert.NotRegexp(t, `url\(`, page)
			for _, s := range regexp.MustCompile(`<svg .*?</svg>`).FindAllString(page, -1) {
				assertWellFormed(t, s)
			}
			assert.Equal(t, page, renderHTML(t, in))
		})
	}
}

func assertWellFormed(t *testing.T, s string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if !assert.NoError(t, err, "%.200s", s) {
			return
		}
	}
}

// TestHTMLEscapes: a name with markup is shown as text, in the tables and
// in the plots' labels.
func TestHTMLEscapes(t *testing.T) {
	in := fixture()
	in.Benches[0].Name = `Benchmark<b onload="x">&`
	page := renderHTML(t, in)
	assert.NotContains(t, page, `<b onload`)
	assert.Contains(t, page, `&lt;b onload=`)
}

// TestHTMLAgainst: a cross-build comparison has a forest row per
// benchmark, each benchmark's rounds and allocs/op, and every failed
// process's output; per-group deltas (ForkDeltaPct, as lockstep triples
// give) are dots on the benchmark's row.
func TestHTMLAgainst(t *testing.T) {
	in := againstInput()
	in.Against.Benches[0].NewEst.ForkDeltaPct = []float64{48, 50, 53}
	page := renderHTML(t, in)
	rows := svgs(page, "forest-row")
	require.Len(t, rows, 2)
	assert.Contains(t, rows[0], `class="dots fork" d="M`)
	assert.NotContains(t, rows[1], `dots fork`)
	assert.Len(t, svgs(page, "rounds"), 2)
	assert.Len(t, svgs(page, "counts"), 2)
	assert.Contains(t, page, "--- FAIL: BenchmarkOld")
	assert.Contains(t, page, esc("gate 5%, allocs/op: FAILED (Work-2)"))
	assert.Contains(t, page, `<details class="bench" id="against-1" open>`)
}

// TestHTMLNoAllocs: without allocs/op on either side the page says how
// to get them instead of drawing an empty plot.
func TestHTMLNoAllocs(t *testing.T) {
	a := againstFixture()
	for i := range a.Benches {
		b := &a.Benches[i]
		b.Base.AllocsPerOp, b.New.AllocsPerOp, b.Control.AllocsPerOp = nil, nil, nil
		b.Allocs = against.Count{Base: -1, New: -1}
	}
	page := renderHTML(t, Input{Against: a})
	assert.Empty(t, svgs(page, "counts"))
	assert.Contains(t, page, "go test printed none (run with -benchmem, or call b.ReportAllocs)")
}

// TestHTMLCompareRounds: a comparison with recorded rounds draws each
// implementation's per-round ratio to the baseline; one without rounds
// draws its rows and no estimate.
func TestHTMLCompareRounds(t *testing.T) {
	c := registry.Comparison{Result: verdict.Result{Baseline: "old", BaselineNsPerOp: 100, Rounds: 3, Confidence: 0.975, Negligible: 1,
		Control:    verdict.Estimate{Name: "old", NsPerOp: 100, DeltaPct: 0, LoPct: -1, HiPct: 1, Verdict: verdict.Same},
		Candidates: []verdict.Estimate{{Name: "new", NsPerOp: 90, DeltaPct: -10, LoPct: -11, HiPct: -9, Verdict: verdict.Faster}}},
		RoundNs: [][]float64{{100, 101, 99}, {100, 100, 100}, {90, 91, 89}}}
	none := registry.Comparison{Result: verdict.Result{Baseline: "old", Candidates: []verdict.Estimate{{Name: "slow"}}}}
	page := renderHTML(t, Input{Benches: []registry.Bench{{Name: "BenchmarkC", Comparisons: []registry.Comparison{c, none}}}})
	assert.Len(t, svgs(page, "rounds"), 1)
	rows := svgs(page, "forest-row")
	require.Len(t, rows, 4)
	assert.Contains(t, rows[1], `class="dots est v-faster"`)
	assert.NotContains(t, rows[3], `dots est`)
	assert.Contains(t, page, "no rounds")
}
