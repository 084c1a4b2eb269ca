package against

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lock is a lockstep outcome with Δ delta, the interval [lo, hi], the
// triples run and the stop reason.
func lock(verdict string, delta, lo, hi float64, triples int, stop string) outcome {
	return outcome{verdict: verdict, delta: delta, lo: lo, hi: hi, hasInterval: true, triples: triples, stop: stop,
		between: math.NaN(), within: math.NaN(), mutator: math.NaN(), cycles: math.NaN()}
}

func TestTallyStops(t *testing.T) {
	outs := []outcome{
		lock("same", 0, -1, 1, 9, "budget"), lock("same", 0, -1, 1, 9, "decided"), lock("same", 0, -1, 1, 9, "zzz"),
		lock("same", 0, -1, 1, 9, "decided"), lock("same", 0, -1, 1, 9, "aaa"), noComponents("same", 0),
	}
	assert.Equal(t, "decided 2, budget 1, aaa 1, zzz 1", tallyStops(outs), "the known reasons in order, then others sorted; none left out")
	assert.Empty(t, tallyStops([]outcome{noComponents("same", 0)}), "plain and rounds have none")
}

func TestSummarize(t *testing.T) {
	outs := []outcome{
		lock("slower", 5, 4, 6, 10, "decided"), lock("slower", 6, 5.5, 7, 14, "decided"),
		lock("undecided", 2, 1, 3, 31, "budget"),
	}
	outs[0].between, outs[0].within = 6, 1
	outs[1].between, outs[1].within = 4, math.NaN()
	outs[0].mutator, outs[0].cycles = 0.2, 5.1
	outs[2].mutator, outs[2].cycles = 0.4, 4.9
	s := summarize(outs, false, 5.2)
	assert.Equal(t, 2, s.tally.Flagged, "caught")
	assert.Equal(t, 1, s.tally.Undecided)
	assert.Equal(t, 5.0, s.medDelta)
	assert.Equal(t, 3, s.withInt)
	assert.Equal(t, 1, s.holdsMed, "only [4, 6] holds the median Δ 5")
	assert.Equal(t, 1, s.holdsTruth, "only [4, 6] holds the truth 5.2")
	assert.Equal(t, 14.0, s.triples, "the median triples, a whole count")
	assert.Equal(t, "decided 2, budget 1", s.stops)
	assert.Equal(t, 5.0, s.between, "the median of the known ones")
	assert.Equal(t, 1.0, s.within)
	assert.InDelta(t, 0.3, s.mutator, 1e-12, "the median of the known collector parts")
	assert.InDelta(t, 5.0, s.cycles, 1e-12)
	assert.Contains(t, row("Alloc", &cell{scenario: "+5% bytes", method: "lockstep"}, s, 5.2), "\t+0.30% / +5.00%\t", "the parts' column")

	s = summarize(outs, false, math.NaN())
	assert.Zero(t, s.holdsTruth, "no truth, none counted")
	p := summarize([]outcome{noComponents("same", 1)}, true, 0)
	assert.True(t, math.IsNaN(p.triples) && math.IsNaN(p.between) && math.IsNaN(p.within) && math.IsNaN(p.mutator) && math.IsNaN(p.cycles))
	assert.Empty(t, p.stops)
}

func TestWallPerWorkload(t *testing.T) {
	l := &cell{scenario: "+5%", method: "lockstep"}
	p := &cell{scenario: "+5%", method: "plain"}
	for _, d := range []time.Duration{30, 10, 20} {
		l.add(map[string]outcome{"Compute": lock("slower", 5, 4, 6, 10, "decided"), "Map": lock("slower", 5, 4, 6, 10, "decided")},
			map[string]time.Duration{"Compute": d * time.Second, "Map": 2 * d * time.Second})
		p.add(map[string]outcome{"Compute": noComponents("slower", 5), "Map": noComponents("slower", 5)},
			map[string]time.Duration{"Compute": 40 * time.Second, "Map": 10 * time.Second})
	}
	l.add(map[string]outcome{"Compute": lock("slower", 5, 4, 6, 10, "decided")}, nil) // an old joint line: no wall
	assert.Equal(t, []time.Duration{30 * time.Second, 10 * time.Second, 20 * time.Second}, l.walls["Compute"])
	assert.Len(t, l.outs["Compute"], 4)

	var table bytes.Buffer
	printTable(&table, []string{"Compute", "Map"}, []*cell{l, p}, nil)
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	require.Len(t, lines, 5, "a header and a row per workload and cell")
	assert.True(t, strings.HasSuffix(lines[1], "20s"), "Compute lockstep: the median of its own walls: %q", lines[1])
	assert.True(t, strings.HasSuffix(lines[3], "40s"), "Map lockstep: %q", lines[3])

	var ratios bytes.Buffer
	assert.True(t, printWallRatios(&ratios, []string{"Compute", "Map"}, []*cell{l, p}))
	assert.Contains(t, ratios.String(), "Compute   +5%       0.50 (20s ÷ 40s)")
	assert.Contains(t, ratios.String(), "Map       +5%       4.00 (40s ÷ 10s)")
	ratios.Reset()
	assert.False(t, printWallRatios(&ratios, []string{"Compute"}, []*cell{l}), "no plain, no ratio")
	assert.Empty(t, ratios.String())
}

func TestRowsOnlyWhereTheScenarioChangesTheWorkload(t *testing.T) {
	cells := []*cell{{scenario: "+5% bytes", method: "plain"}, {scenario: "+5%", method: "plain"}}
	var table bytes.Buffer
	printTable(&table, []string{"Compute", "Alloc"}, cells, truths{"Alloc": {"+5% bytes": 4.1}})
	out := table.String()
	assert.NotContains(t, out, "Compute  +5% bytes", "the bytes5 build's Compute is the base's")
	assert.Contains(t, out, "Compute   +5%")
	assert.Contains(t, out, "+4.10%", "the truth Δ")
	c := config{workloads: []string{"Compute", "Alloc"}}
	assert.Len(t, units(c, 0, cells), 3, "bytes5 on Alloc only, +5% on both")
}

func TestUnitsRotate(t *testing.T) {
	cells := []*cell{{scenario: "A/A", method: "lockstep"}, {scenario: "A/A", method: "plain"}}
	c := config{workloads: []string{"Compute", "Map"}}
	first := func(i int) unit { return units(c, i, cells)[0] }
	assert.Equal(t, unit{cells[0], "Compute"}, first(0))
	assert.Equal(t, unit{cells[0], "Map"}, first(1))
	assert.Equal(t, unit{cells[1], "Compute"}, first(2))
	assert.Equal(t, first(0), first(4))
}

func TestLockstepRoundsOnlyWhenGiven(t *testing.T) {
	c, err := parseFlags([]string{"-workloads", "Map,Compute"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.False(t, c.roundsSet)
	assert.Equal(t, []string{"Compute", "Map"}, c.workloads, "table order")
	assert.Equal(t, []string{"-test.bench=^BenchmarkMap$", "-test.benchtime=1s", "-benchkit.pairing=lockstep"}, againstArgs(c, "lockstep", "Map"))
	assert.Contains(t, againstArgs(c, "rounds", "Map"), "-benchkit.rounds=10", "rounds pairing keeps DefaultRounds")
	c, err = parseFlags([]string{"-rounds", "10", "-scenarios", "x2,plus25,bytes5"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.True(t, c.roundsSet)
	assert.Contains(t, againstArgs(c, "lockstep", "Map"), "-benchkit.rounds=10", "given, lockstep gets it too")
	assert.Equal(t, []string{"+25%", "2×", "+5% bytes"}, c.scenarios)
	_, err = parseFlags([]string{"-workloads", "Sort"}, &bytes.Buffer{})
	assert.ErrorContains(t, err, `"Sort" is not one of Compute, Map, Alloc, AllocLive`)
}
