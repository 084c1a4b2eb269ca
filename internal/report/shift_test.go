package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// hogTimeline is a Loop timeline like examples/seed001's on a busy box:
// 150 batches near 50 ns, and batches 15-60 under a CPU hog, spiky (one
// in ten as fast as without it, one in five 20-40× slower). Ashman's D of
// a split by value is low; the block stands out in order.
func hogTimeline(hog bool) []float64 {
	r := rand.New(rand.NewPCG(1, 1))
	xs := make([]float64, 150)
	for i := range xs {
		xs[i] = 50 * (1 + 0.1*r.NormFloat64())
		if hog && i >= 15 && i < 60 {
			switch u := r.Float64(); {
			case u < 0.1:
			case u < 0.3:
				xs[i] = 1000 * (1 + r.Float64())
			default:
				xs[i] = 100 + 200*r.Float64()
			}
		}
	}
	return xs
}

func TestLevelShiftRegimes(t *testing.T) {
	tl := hogTimeline(true)
	_, bimodal := stats.TwoRegimes(tl)
	require.False(t, bimodal, "the fixture must be one TwoRegimes misses")

	in := Input{Benches: []registry.Bench{
		{Name: "BenchmarkHog", Runs: runs(2, 1.2, 180), TotalRuns: 1, Timeline: tl},
		{Name: "BenchmarkQuiet", Runs: runs(2, 0.1, 50), TotalRuns: 1, Timeline: hogTimeline(false)},
	}}
	a := Analyze(in)
	hog := rowByName(t, a, "Hog-2")
	require.NotNil(t, hog.Regimes)
	assert.True(t, hog.Shift)
	assert.Equal(t, [][2]int{{15, 61}}, hog.Regimes.High.Segments, "batch 61, just above the rest, joins the block")
	assert.Equal(t, 104, hog.Regimes.Low.Size)
	quiet := rowByName(t, a, "Quiet-2")
	assert.Nil(t, quiet.Regimes, "noise without a hog is not two regimes")
	assert.False(t, quiet.Shift)

	text := renderFlat(t, in)
	row := lineWith(t, text, "Hog-2", "1 run, 150 batches")
	assert.Contains(t, row, "two-regimes ")
	assert.Contains(t, row, "×104|")
	assert.Contains(t, row, "×46")
	reg := lineWith(t, text, "Hog-2: two regimes in the batches")
	assert.Contains(t, reg, "and 46 around")
	assert.Contains(t, reg, "(batches 16-61)")
	assert.Contains(t, reg, "a level shift in batch order (block test p 0.0025), robust separation")
	assert.NotContains(t, text, "Hog-2: 1", "no outlier finding next to the regimes")

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var rep struct {
		Benchmarks []struct {
			Display string
			Regimes *struct {
				Method string `json:"method"`
				High   struct {
					Segments [][2]int `json:"segments"`
				} `json:"high"`
			} `json:"regimes"`
		} `json:"benchmarks"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	require.Len(t, rep.Benchmarks, 2)
	require.NotNil(t, rep.Benchmarks[0].Regimes)
	assert.Equal(t, "level-shift", rep.Benchmarks[0].Regimes.Method)
	assert.Equal(t, [][2]int{{15, 61}}, rep.Benchmarks[0].Regimes.High.Segments)
	assert.Nil(t, rep.Benchmarks[1].Regimes)

	// A split by value keeps its method and text.
	buf.Reset()
	require.NoError(t, JSON(&buf, fixture()))
	require.NoError(t, json.Unmarshal(buf.Bytes(), &rep))
	methods := map[string]string{}
	for _, b := range rep.Benchmarks {
		if b.Regimes != nil {
			methods[b.Display] = b.Regimes.Method
		}
	}
	assert.Equal(t, "value-split", methods["MakeBuffer_Correct-2"])
	assert.NotContains(t, render(t, fixture()), "level shift")
}
