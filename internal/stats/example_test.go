package stats_test

import (
	"fmt"

	"github.com/benchkit/go-benchkit/internal/stats"
)

// runThatLied is seed 001's twenty runs (ns/op) in run order: a 40 ns
// regime, a 27 ns regime for runs 9–16, then back.
var runThatLied = []float64{
	39.39, 42.80, 43.85, 41.62, 43.07, 42.51, 40.96, 37.00,
	27.54, 25.83, 28.71, 26.40, 27.12, 28.95, 25.37, 26.88,
	34.00, 38.61, 39.44, 39.35,
}

func ExampleCV() {
	mean, _ := stats.Mean(runThatLied)
	cv, _ := stats.CV(runThatLied)
	fmt.Printf("mean %.2f ns/op, CV %.2f%%\n", mean, cv)
	// Output: mean 34.97 ns/op, CV 19.97%
}

func ExampleQuantile() {
	xs := []float64{10, 20, 30, 40}
	q1, _ := stats.Quantile(xs, 0.25)
	med, _ := stats.Median(xs)
	_, ok := stats.Quantile(xs, 1.5)
	fmt.Println(q1, med, ok)
	// Output: 17.5 25 false
}

func ExampleMAD() {
	xs := []float64{100, 101, 99, 102, 98, 100, 250} // one outlier
	mad, _ := stats.MAD(xs)
	sd, _ := stats.StdDev(xs)
	fmt.Printf("MAD %.0f (σ ≈ %.2f); sample sd %.1f\n", mad, stats.MADNormal*mad, sd)
	// Output: MAD 1 (σ ≈ 1.48); sample sd 56.7
}

func ExampleTukey() {
	xs := []float64{100, 101, 99, 102, 98, 100, 101, 99, 100, 106, 250}
	o, _ := stats.Tukey(xs)
	fmt.Printf("Q1 %.2f Q3 %.2f IQR %.2f\n", o.Q1, o.Q3, o.IQR)
	fmt.Printf("mild high %d, severe high %d, at %v\n", o.HighMild, o.HighSevere, o.Indices)
	// Output:
	// Q1 99.50 Q3 101.50 IQR 2.00
	// mild high 1, severe high 1, at [9 10]
}

func ExampleLehrRuns() {
	for _, c := range []struct{ cv, delta float64 }{{5, 5}, {1, 2}, {18.88, 5}, {18.88, 1}} {
		n, ok := stats.LehrRuns(c.cv, c.delta)
		fmt.Printf("CV %5.2f%%, change %d%%: %6d runs per side (ok=%v)\n", c.cv, int(c.delta), n, ok)
	}
	// Output:
	// CV  5.00%, change 5%:     16 runs per side (ok=true)
	// CV  1.00%, change 2%:      4 runs per side (ok=true)
	// CV 18.88%, change 5%:    229 runs per side (ok=true)
	// CV 18.88%, change 1%:   5704 runs per side (ok=true)
}

func ExampleTwoRegimes() {
	r, bimodal := stats.TwoRegimes(runThatLied)
	fmt.Println("two regimes:", bimodal)
	for _, g := range []struct {
		name string
		r    stats.Regime
	}{{"low", r.Low}, {"high", r.High}} {
		fmt.Printf("%-4s centre %.2f, %2d runs, %.2f–%.2f, run segments %v\n", g.name, g.r.Center, g.r.Size, g.r.Lo, g.r.Hi, g.r.Segments)
	}
	fmt.Printf("split %.3f, Ashman's D %.2f (needs %.2f), run-order p %.5f\n",
		r.Split, r.Separation, stats.RegimeCriticalD(len(runThatLied), true), r.OrderP)
	// Output:
	// two regimes: true
	// low  centre 27.00,  8 runs, 25.37–28.95, run segments [[8 16]]
	// high centre 40.20, 12 runs, 34.00–43.85, run segments [[0 8] [16 20]]
	// split 31.475, Ashman's D 6.23 (needs 5.19), run-order p 0.00016
}

func ExampleMedianCI() {
	c, lo, hi, ok := stats.MedianCI(runThatLied, 0.95)
	fmt.Printf("median %.2f, 95%% CI [%.2f, %.2f], ok=%v\n", c, lo, hi, ok)
	_, _, _, ok = stats.MedianCI(runThatLied[:5], 0.95)
	fmt.Println("five runs:", ok)
	// Output:
	// median 37.80, 95% CI [27.54, 40.96], ok=true
	// five runs: false
}

func ExampleMannWhitneyP() {
	before := []float64{100, 101, 99, 102, 98, 100, 101, 99}
	after := []float64{95, 96, 94, 97, 95, 96, 93, 95}
	p, _ := stats.MannWhitneyP(before, after)
	fmt.Printf("p=%.4f\n", p)
	// Output: p=0.0002
}
