package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// SuiteSize is the number of benchmarks of klauspost/compress's zstd
// package, the largest suite the HTML report is sized for.
const SuiteSize = 342

// suite returns n benchmarks named and shaped like a compression
// package's: decoders and encoders over a corpus of files, levels and
// sizes. With loop, each ran once with a benchkit.Loop timeline of
// registry.MaxTimeline batches (every row gets plots); else each ran
// -count=10 times. One in eight sits in two regimes, one in five has
// outlier spikes; every twentieth holds a control comparison of 40
// rounds over 5 forks.
func suite(n int, loop bool) Input {
	r := rand.New(rand.NewPCG(342, 1))
	kinds := []string{"Decoder_DecodeAll", "Decoder_DecodeAllParallel", "Encoder_EncodeAllSimple", "Encoder_EncodeAllXML", "Decoder_Stream", "Encoder_Stream"}
	var bs []registry.Bench
	for i := range n {
		name := fmt.Sprintf("Benchmark%s/z%06d.zst/level=%d", kinds[i%len(kinds)], i*37%100000, 1+i%4)
		level := 200 + 5000*r.Float64()
		samples := suiteSamples(r, level, i, loop)
		b := registry.Bench{Name: name}
		if loop {
			b.Runs, b.Timeline = runs(2, 0.02, level), samples
		} else {
			b.Runs = runs(2, 0.02, samples...)
		}
		b.TotalRuns = len(b.Runs)
		if i%20 == 0 {
			b.Comparisons = []registry.Comparison{suiteComparison(r, level)}
		}
		bs = append(bs, b)
	}
	return Input{Package: "github.com/klauspost/compress/zstd", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU @ 2.0GHz", Benches: bs}
}

// suiteSamples are benchmark i's samples around level: a timeline of
// registry.MaxTimeline batches with loop, else 10 runs.
func suiteSamples(r *rand.Rand, level float64, i int, loop bool) []float64 {
	n := 10
	if loop {
		n = registry.MaxTimeline
	}
	xs := make([]float64, n)
	for k := range xs {
		xs[k] = level * (1 + 0.02*r.NormFloat64())
		if i%8 == 0 && k >= n/3 && k < 2*n/3 {
			xs[k] *= 1.4
		}
		if i%5 == 0 && r.Float64() < 0.05 {
			xs[k] *= 3
		}
	}
	return xs
}

// suiteComparison is a comparison of a baseline at level with a control
// and two candidates.
func suiteComparison(r *rand.Rand, level float64) registry.Comparison {
	est := func(name string, d float64, v verdict.Verdict) verdict.Estimate {
		forks := make([]float64, 5)
		for k := range forks {
			forks[k] = d + r.NormFloat64()
		}
		return verdict.Estimate{Name: name, NsPerOp: level * (1 + d/100), DeltaPct: d, LoPct: d - 1.2, HiPct: d + 1.2, Verdict: v, Reason: "the interval excludes 0", ForkDeltaPct: forks}
	}
	rounds := make([][]float64, 4)
	for k := range rounds {
		rounds[k] = make([]float64, 40)
		for j := range rounds[k] {
			rounds[k][j] = level * (1 + 0.05*float64(k/2)) * (1 + 0.01*r.NormFloat64())
		}
	}
	return registry.Comparison{Procs: 2, RoundNs: rounds, Result: verdict.Result{Baseline: "v1", BaselineNsPerOp: level, Rounds: 40, Forks: 5, Confidence: 0.983, Negligible: 1,
		Control:    est("v1", 0.1, verdict.Same),
		Candidates: []verdict.Estimate{est("v2", 5, verdict.Slower), est("v3", -3, verdict.Faster)}}}
}

// TestHTMLSuiteSize renders the HTML report of a suite of SuiteSize
// benchmarks, every one with a timeline to plot, from -count=10 runs and
// from Loop timelines, and logs its size and the time HTMLAnalysis took,
// and Analyze before it (go test -v -run TestHTMLSuiteSize prints them);
// it fails when a page exceeds MaxSuiteHTMLBytes. The times are logged,
// never checked: the machines are shared.
func TestHTMLSuiteSize(t *testing.T) {
	for _, tc := range []struct {
		what string
		loop bool
	}{{"-count=10", false}, {"benchkit.Loop, 256 batches each", true}} {
		in := suite(SuiteSize, tc.loop)
		var buf bytes.Buffer
		start := time.Now()
		a := Analyze(in)
		analysed := time.Now()
		require.NoError(t, HTMLAnalysis(&buf, in, a))
		t.Logf("%d benchmarks (%s, %d comparisons): %d KB, rendered in %d ms (Analyze before it: %d ms)", SuiteSize, tc.what, SuiteSize/20+1,
			buf.Len()/1000, time.Since(analysed).Milliseconds(), analysed.Sub(start).Milliseconds())
		assert.Less(t, buf.Len(), MaxSuiteHTMLBytes)
		assert.Len(t, svgs(buf.String(), "timeline"), SuiteSize)
		assert.Contains(t, buf.String(), `<details class="bench" id="bench-342">`, "folded")
	}
}

// MaxSuiteHTMLBytes bounds the HTML report of a suite of SuiteSize
// benchmarks.
const MaxSuiteHTMLBytes = 4 << 20
