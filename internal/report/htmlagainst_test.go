package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/against"
)

// twoBenchAgainst is a cross-build comparison of two benchmarks with
// long names, each measured in lockstep (10 triples of 30 runs, in
// their processes only: nothing ran in this one), allocating nothing on
// either side. The first got 17% faster, and a few of its runs took 5
// to 11 times as long (the machine's hiccups); the second is undecided
// with the long reason the rule gives.
func twoBenchAgainst() Input {
	r := rand.New(rand.NewPCG(7, 11))
	side := func(ns float64, spikes int) against.Side {
		var s against.Side
		for i := range 300 {
			v := ns * (1 + 0.02*r.NormFloat64())
			if i < spikes {
				v *= 5 + 6*r.Float64()
			}
			s.NsPerOp = append(s.NsPerOp, v)
			s.AllocsPerOp = append(s.AllocsPerOp, 0)
			s.BytesPerOp = append(s.BytesPerOp, 0)
			s.Iters = append(s.Iters, 20000)
		}
		r.Shuffle(len(s.NsPerOp), func(i, j int) { s.NsPerOp[i], s.NsPerOp[j] = s.NsPerOp[j], s.NsPerOp[i] })
		return s
	}
	groups := []int{30, 30, 30, 30, 30, 30, 30, 30, 30, 30}
	ctl := verdict.Estimate{Name: "control", NsPerOp: 1210, DeltaPct: 0.2, LoPct: -0.9, HiPct: 1.3, Verdict: verdict.Same,
		Reason: "noise floor: a copy of base lies within [-0.90%, +1.30%]"}
	a := &against.Result{
		Base:    against.Binary{Path: "/home/runner/work/project/project/.cache/base.test", Package: "example.com/project/codec", GoVersion: "go1.26.8"},
		New:     against.Binary{Path: "/tmp/go-build1234/b001/codec.test", Package: "example.com/project/codec", VCSRevision: "abc123"},
		Pattern: ".", Benchtime: "1s", Rounds: 10, Confidence: 0.95, Negligible: 1, RunTargetNs: 3e6,
		Benches: []against.Bench{
			{
				Name: "DecodeStreamingJSON/size=65536/workers=4-2", Mode: against.ModeLockstep, Groups: groups,
				Base: side(1200, 3), New: side(1000, 4), Control: side(1200, 3), ControlEst: ctl,
				NewEst: verdict.Estimate{Name: "new", NsPerOp: 1000, DeltaPct: -17, LoPct: -18.2, HiPct: -15.9, Verdict: verdict.Faster,
					Reason: "the interval excludes 0 and lies below the control's [-0.90%, +1.30%]"},
				Allocs: against.Count{Base: 0, New: 0}, Bytes: against.Count{Base: 0, New: 0},
			},
			{
				Name: "EncodeStreamingJSON/size=65536/workers=4-2", Mode: against.ModeLockstep, Groups: groups,
				Base: side(900, 0), New: side(905, 0), Control: side(900, 0), ControlEst: ctl, DetectablePct: 2.4,
				NewEst: verdict.Estimate{Name: "new", NsPerOp: 905, DeltaPct: 0.5, LoPct: -1.4, HiPct: 2.5, Verdict: verdict.Undecided,
					Reason: "the interval contains 0 and reaches beyond ±1%: the 10 triples disagree by more than that (control: [-0.90%, +1.30%]); " +
						"a longer -benchtime gives more triples"},
				Allocs: against.Count{Base: 0, New: 0}, Bytes: against.Count{Base: 0, New: 0},
			},
		},
	}
	return Input{Package: strings.TrimSuffix(a.New.Package, "/"), Against: a}
}

// TestHTMLAgainstOnly: a page of a run whose benchmarks all ran in child
// processes has no benchmarks section or link and no count of this
// process's benchmarks in its title; a series that never changes
// (allocs/op 0 in every run of both sides) is said, not plotted; the forest plot is
// forestW wide; each verdict is one short clause with the whole reason
// folded under it; a sub-benchmark's name may break after each "/".
func TestHTMLAgainstOnly(t *testing.T) {
	in := twoBenchAgainst()
	page := renderHTML(t, in)
	assert.NotContains(t, page, `<section id="benchmarks">`)
	assert.NotContains(t, page, `href="#benchmarks"`)
	assert.Contains(t, page, `<p class="title">hygiene report · against `)
	assert.NotContains(t, page, "0 benchmarks · 0 runs")

	assert.Empty(t, svgs(page, "counts"), "allocs/op 0 in every round: no flat plot")
	assert.Equal(t, 2, strings.Count(page, "allocs/op 0 in every run of both builds (not plotted), B/op 0"))
	assert.Len(t, svgs(page, "rounds"), 2, "the runs' ratios change: plotted")

	rows := svgs(page, "forest-row")
	require.Len(t, rows, 2)
	for _, r := range rows {
		assert.Contains(t, r, fmt.Sprintf(`width="%d"`, forestW))
	}
	assert.Contains(t, page, `<td class="verdict"><details class="why"><summary>faster</summary>faster: the interval excludes 0 and lies below the control&#39;s [-0.90%, &#43;1.30%]</details></td>`)
	assert.Contains(t, page, `<td class="verdict"><details class="why"><summary>undecided: the interval contains 0 and reaches beyond ±1%</summary>undecided: the interval contains 0`)
	assert.Contains(t, page, `>DecodeStreamingJSON/<wbr>size=65536/<wbr>workers=4-2</a></td>`)
	head := regexp.MustCompile(`(?s)<table class="forest against">\s*<thead><tr>(.*?)</tr></thead>`).FindStringSubmatch(page)
	require.NotNil(t, head)
	var cols []string
	for _, m := range regexp.MustCompile(`(?s)<th( class="plot")?>(.*?)</th>`).FindAllStringSubmatch(head[1], -1) {
		if m[1] != "" {
			m[2] = "(plot)"
		}
		cols = append(cols, m[2])
	}
	assert.Equal(t, []string{"benchmark", "base/op", "new/op", "Δ", "interval", "(plot)", "noise floor", "allocs/op", "verdict"}, cols,
		"the compact text table's columns, the plot after the interval")
}

// TestRoundsPlotBulk: a run-by-run scatter is scaled to the bulk of its
// points: a few far ones are drawn as triangles at the edge they passed
// and counted in the legend, and the axis is not stretched to them;
// without far points nothing is clipped.
func TestRoundsPlotBulk(t *testing.T) {
	var ys []float64
	for i := range 200 {
		ys = append(ys, -17+float64(i%7)-3)
	}
	ys[10], ys[50], ys[90] = 420, 980, -95
	plot, legend := roundsPlot("x", "runs in order", []series{{"new/base − 1", "s0", ys}}, 1)
	tri := regexp.MustCompile(`<path class="clip" d="([^"]*)"`).FindStringSubmatch(string(plot))
	require.NotNil(t, tri, "the far points are marked")
	assert.Equal(t, 3, strings.Count(tri[1], "M"), "one triangle each")
	assert.Equal(t, 2, strings.Count(tri[1], "l-4 7h8z"), "two above the scale")
	assert.Equal(t, 1, strings.Count(tri[1], "l-4 -7h8z"), "one below")
	assert.Contains(t, legend[len(legend)-1].Text, "3 points beyond the scale")
	for _, tick := range regexp.MustCompile(`text-anchor="end">([^<]*)<`).FindAllStringSubmatch(string(plot), -1) {
		assert.NotContains(t, []string{"+100%", "+200%", "+500%"}, tick[1], "the axis spans the bulk, not the far points")
	}

	plot, legend = roundsPlot("x", "runs in order", []series{{"new/base − 1", "s0", ys[100:]}}, 1)
	assert.NotContains(t, string(plot), `class="clip"`)
	assert.NotContains(t, legend[len(legend)-1].Text, "beyond the scale")

	lo, hi, ok := bulkSpan([]float64{1, 2, 3, 100})
	assert.True(t, ok)
	assert.Equal(t, [2]float64{1, 100}, [2]float64{lo, hi}, "fewer than 8 points: all of them")
	lo, hi, _ = bulkSpan([]float64{5, 5, 5, 5, 5, 5, 5, 5, 6, 9})
	assert.Equal(t, [2]float64{5, 9}, [2]float64{lo, hi}, "IQR 0: no spread to judge by, all of them")
	_, _, ok = bulkSpan([]float64{math.NaN()})
	assert.False(t, ok)
}

// TestConstantSeries: a plot of series whose every value is the same
// would be a flat line.
func TestConstantSeries(t *testing.T) {
	assert.True(t, constantSeries([]series{{ys: []float64{0, 0}}, {ys: []float64{0, math.NaN()}}}))
	assert.True(t, constantSeries(nil))
	assert.False(t, constantSeries([]series{{ys: []float64{1, 1}}, {ys: []float64{1, 2}}}))
}
