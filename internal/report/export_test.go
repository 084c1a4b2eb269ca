package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// The Bencher Metric Format's field set, from
// https://bencher.dev/docs/reference/bencher-metric-format and its JSON
// Schema https://bencher.dev/bmf.json: an object of benchmarks (a name of
// at most 1024 characters), each an object of measures (a slug or name of
// at most 64 characters), each {value: number (required), lower_value:
// number, upper_value: number} and nothing else.
var (
	bmfMetricFields   = []string{"value", "lower_value", "upper_value"}
	bmfRequired       = []string{"value"}
	bmfMaxBenchmark   = 1024
	bmfMaxMeasure     = 64
	bmfMeasurePattern = regexp.MustCompile(`^[a-z0-9-]+$`) // a slug: kebab case
)

// github-action-benchmark's custom format (tool customSmallerIsBetter),
// from the BenchmarkResult schema in
// https://github.com/benchmark-action/github-action-benchmark/blob/master/src/extract.ts
// and the README's "customSmallerIsBetter" example: a JSON array of
// {name: string, unit: string, value: number, range?: string, extra?:
// string}.
var (
	gabFields   = []string{"name", "unit", "value", "range", "extra"}
	gabRequired = []string{"name", "unit", "value"}
)

// exportInput has tracked rows, a comparison with two -count repeats and
// a cross-build comparison.
func exportInput() Input {
	in := fixture()
	cmp := in.Benches[5].Comparisons[0]
	first := cmp
	first.Candidates = []verdict.Estimate{{Name: "new", DeltaPct: 99, LoPct: 98, HiPct: 100, Verdict: verdict.Slower}}
	in.Benches[5].Comparisons = []registry.Comparison{first, cmp}
	in.Against = againstInput().Against
	return in
}

func TestBMFFieldSet(t *testing.T) {
	in := exportInput()
	var buf bytes.Buffer
	require.NoError(t, BMF(&buf, in, Analyze(in)))
	var doc map[string]map[string]map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc), "an object of benchmarks of measures of metrics")
	require.NotEmpty(t, doc)
	for bench, measures := range doc {
		assert.NotEmpty(t, bench)
		assert.LessOrEqual(t, len(bench), bmfMaxBenchmark)
		assert.NotEmpty(t, measures, bench)
		for measure, metric := range measures {
			assert.LessOrEqual(t, len(measure), bmfMaxMeasure)
			assert.Regexp(t, bmfMeasurePattern, measure)
			for _, k := range bmfRequired {
				assert.Contains(t, metric, k, "%s %s", bench, measure)
			}
			for k, v := range metric {
				assert.Contains(t, bmfMetricFields, k, "%s %s", bench, measure)
				assert.IsType(t, float64(0), v, "%s %s %s is a number", bench, measure, k)
			}
			lo, hasLo := metric["lower_value"]
			hi, hasHi := metric["upper_value"]
			assert.Equal(t, hasLo, hasHi, "both bounds or neither: %s %s", bench, measure)
			if hasLo && hasHi {
				assert.LessOrEqual(t, lo.(float64), hi.(float64))
			}
		}
	}
}

func TestBMFContent(t *testing.T) {
	in := exportInput()
	var buf bytes.Buffer
	require.NoError(t, BMF(&buf, in, Analyze(in)))
	var doc map[string]map[string]bmfMetric
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))

	clean := doc["BenchmarkClean-2"]
	require.Contains(t, clean, MeasureLatency)
	lat := clean[MeasureLatency]
	assert.InDelta(t, 100.05, lat.Value, 0.01)
	require.NotNil(t, lat.Lower)
	assert.Less(t, *lat.Lower, lat.Value)
	assert.Greater(t, *lat.Upper, lat.Value)
	assert.Equal(t, 1.0, clean[MeasureAllocs].Value)
	assert.Equal(t, 64.0, clean[MeasureBytes].Value)
	loop := doc["BenchmarkLoop-2"][MeasureLatency]
	require.NotNil(t, loop.Lower, "over batches: the run's own interval")
	assert.InDelta(t, loop.Value-*loop.Lower, *loop.Upper-loop.Value, 1e-9, "symmetric in percent")

	newImpl := doc["BenchmarkCompare/impl=new"][MeasureCompareDelta]
	assert.Equal(t, -5.1, newImpl.Value, "the last of the -count repeats")
	assert.Equal(t, -6.0, *newImpl.Lower)
	assert.Equal(t, 0.3, doc["BenchmarkCompare/impl=control"][MeasureCompareDelta].Value)

	work := doc["BenchmarkWork-2"]
	assert.Equal(t, 50.0, work[MeasureAgainstDelta].Value)
	assert.Equal(t, 45.0, *work[MeasureAgainstDelta].Lower)
	assert.Equal(t, 0.1, work[MeasureAgainstNoise].Value)
	assert.Equal(t, 2.0, work[MeasureAllocs].Value)
	assert.Equal(t, 150.0, work[MeasureLatency].Value)
}

func TestGABFieldSet(t *testing.T) {
	in := exportInput()
	var buf bytes.Buffer
	require.NoError(t, GAB(&buf, in, Analyze(in)))
	var doc []map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc), "an array of results")
	require.NotEmpty(t, doc)
	var names []string
	for _, e := range doc {
		for _, k := range gabRequired {
			assert.Contains(t, e, k, "%v", e)
		}
		for k, v := range e {
			assert.Contains(t, gabFields, k)
			if k == "value" {
				assert.IsType(t, float64(0), v)
				assert.GreaterOrEqual(t, v.(float64), 0.0, "smaller is better: a size, never negative")
			} else {
				assert.IsType(t, "", v, "%s is a string", k)
				assert.NotEmpty(t, v, k)
			}
		}
		names = append(names, e["name"].(string))
	}
	assert.Len(t, slices.Compact(slices.Sorted(slices.Values(names))), len(names), "every name once: %q", names)
}

func TestGABContent(t *testing.T) {
	in := exportInput()
	var buf bytes.Buffer
	require.NoError(t, GAB(&buf, in, Analyze(in)))
	var doc []gabEntry
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	byName := map[string]gabEntry{}
	for _, e := range doc {
		byName[e.Name] = e
	}
	ns := byName["BenchmarkClean-2 - ns/op"]
	assert.Equal(t, "ns/op", ns.Unit)
	assert.InDelta(t, 100.05, ns.Value, 0.01)
	assert.Regexp(t, `^± [0-9.]+%$`, ns.Range)
	assert.Equal(t, 1.0, byName["BenchmarkClean-2 - allocs/op"].Value)

	newImpl := byName["BenchmarkCompare/impl=new - ratio to old"]
	assert.InDelta(t, 0.949, newImpl.Value, 1e-9)
	assert.Equal(t, "0.9400 … 0.9580", newImpl.Range)
	assert.Contains(t, newImpl.Extra, "faster")
	assert.Contains(t, byName, "BenchmarkCompare/impl=control - ratio to old")

	assert.InDelta(t, 1.5, byName["BenchmarkWork-2 - ratio to base"].Value, 1e-9)
	assert.InDelta(t, 1.001, byName["BenchmarkWork-2 - control ratio to base"].Value, 1e-9)
	assert.Equal(t, 2.0, byName["BenchmarkWork-2 - allocs/op"].Value)

	buf.Reset()
	require.NoError(t, GAB(&buf, Input{}, Analysis{}))
	assert.Equal(t, "[]\n", buf.String(), "an empty run is an empty list, never null")
}
