package benchkit

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// metricUnits returns, per benchmark name without its GOMAXPROCS suffix,
// the sorted units of its last result line in a go test output (original
// units, as printed): the last repeat, which has cv% when it is on.
func metricUnits(t *testing.T, out string) map[string][]string {
	t.Helper()
	units := map[string][]string{}
	r := benchfmt.NewReader(strings.NewReader(out), "out")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		name := res.Name.String()
		var us []string
		for _, v := range res.Values {
			u := v.Unit
			if v.OrigUnit != "" {
				u = v.OrigUnit
			}
			us = append(us, u)
		}
		sort.Strings(us)
		units[strings.TrimSuffix(name, "-"+suffixOf(name))] = us
	}
	require.NoError(t, r.Err())
	return units
}

// suffixOf returns the GOMAXPROCS suffix of a printed name ("2" of
// "Tracked-2"), or "".
func suffixOf(name string) string {
	if i := strings.LastIndexByte(name, '-'); i >= 0 {
		return name[i+1:]
	}
	return ""
}

// noExtras checks that units holds only go test's own units: under load
// a Compare can measure no round, and then go test leaves its ns/op (0)
// off the line too, so the exact set is not fixed.
func noExtras(t *testing.T, name string, units []string) {
	t.Helper()
	own := map[string]bool{"ns/op": true, "B/op": true, "allocs/op": true, "MB/s": true}
	for _, u := range units {
		assert.True(t, own[u], "%s: unit %q on the line with the metrics off", name, u)
	}
}

// TestMetricsSwitch: -benchkit.metrics=off and BENCHKIT_METRICS=off leave
// benchkit's metrics (cv%, wait%, batchcv%) and control's
// (per-implementation times and ratios, closure-ns/op, rounds) off the
// benchmark lines, with Main and without it; go test's own units stay.
func TestMetricsSwitch(t *testing.T) {
	// -benchtime=Nx gives Compare a budget of 1s per implementation for its
	// N rounds, so that a loaded machine cannot stop it before a round and
	// leave its per-implementation metrics off for want of a measurement;
	// 2000 iterations give Loop several 10µs batches whatever size it
	// starts them at (at 200x a Go 1.27 run once printed no batchcv%).
	common := []string{"-test.run=^$", "-test.bench=.", "-test.benchtime=2000x", "-test.count=2", "-test.benchmem"}
	plain := []string{"B/op", "allocs/op", "ns/op"}

	noMain := mainBinaryOf(t, "", "metrics")
	t.Run("without Main: on by default", func(t *testing.T) {
		r := mainExec(t, noMain, []string{"BENCHKIT_FORKS=1"}, common...)
		require.Equal(t, 0, r.code, r.stdout+r.stderr)
		u := metricUnits(t, r.stdout)
		assert.Contains(t, u["Compare"], "rounds", "reported even when no round was measured")
		if slices.Contains(u["Compare"], "ns/op") { // a round was measured (not always under load)
			assert.Contains(t, u["Compare"], "closure-ns/op")
			assert.Contains(t, u["Compare"], "new-ns/op")
		}
		assert.Contains(t, u["Looped"], "batchcv%")
		assert.Contains(t, u["Tracked"], "cv%")
	})
	t.Run("without Main: BENCHKIT_METRICS=off", func(t *testing.T) {
		r := mainExec(t, noMain, []string{"BENCHKIT_FORKS=1", "BENCHKIT_METRICS=off"}, common...)
		require.Equal(t, 0, r.code, r.stdout+r.stderr)
		u := metricUnits(t, r.stdout)
		assert.Equal(t, plain, u["Tracked"])
		assert.Equal(t, plain, u["Looped"])
		noExtras(t, "Compare", u["Compare"])
		if slices.Contains(u["Compare"], "ns/op") { // a round was measured
			assert.Contains(t, u["Compare"], "MB/s", "b.SetBytes: the baseline's throughput stays")
		}
		assert.Contains(t, r.stdout, "control: old ", "the verdicts are still logged")
	})

	withMain := mainBinaryOf(t, "", "maincompare")
	args := append(common, "-benchkit.warmup=off", "-benchkit.forks=1")
	t.Run("with Main: -benchkit.metrics=off", func(t *testing.T) {
		r := mainExec(t, withMain, nil, append(args, "-benchkit.metrics=off")...)
		require.Equal(t, 0, r.code, r.stdout+r.stderr)
		u := metricUnits(t, r.stdout)
		assert.Equal(t, plain, u["Tracked"])
		noExtras(t, "Compare", u["Compare"])
		assert.Regexp(t, `(?m)^benchkit │ github\.com/benchkit/go-benchkit/benchkit/testdata/maincompare · go`, r.stdout, "the report still runs")
	})
	t.Run("with Main: the flag overrides BENCHKIT_METRICS", func(t *testing.T) {
		r := mainExec(t, withMain, []string{"BENCHKIT_METRICS=off"}, append(args, "-benchkit.metrics=on")...)
		require.Equal(t, 0, r.code, r.stdout+r.stderr)
		u := metricUnits(t, r.stdout)
		assert.Contains(t, u["Tracked"], "cv%")
		assert.Contains(t, u["Compare"], "rounds")
	})
	t.Run("with Main: a bad value stops the run", func(t *testing.T) {
		r := mainExec(t, withMain, []string{"BENCHKIT_METRICS=maybe"}, args...)
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, `benchkit: environment variable BENCHKIT_METRICS="maybe" is not on or off: use on, off, true or false`)
	})
}
