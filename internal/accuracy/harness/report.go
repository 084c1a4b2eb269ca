package harness

import (
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/report"
)

// ReadReport reads the benchkit JSON report at path with
// [report.ReadJSON], which refuses a schema other than
// benchkit-report/v1.
func ReadReport(path string) (report.JSONReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return report.JSONReport{}, fmt.Errorf("reading its JSON report: %w", err)
	}
	defer f.Close()
	rep, err := report.ReadJSON(f)
	if err != nil {
		return report.JSONReport{}, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// RunReport runs bin with args and -benchkit.json=<path> as [Run] does
// (env, timeout), and returns the JSON report the process wrote
// ([ReadReport]), its standard output and its wall time. A report a
// previous run left at path is removed first, so that a process that
// writes none fails. The package's TestMain must call benchkit.Main, which
// defines the flag.
func RunReport(bin, path string, args, env []string, timeout time.Duration) (report.JSONReport, []byte, time.Duration, error) {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return report.JSONReport{}, nil, 0, err
	}
	out, wall, err := Run(bin, append(slices.Clip(args), "-benchkit.json="+path), env, timeout)
	if err != nil {
		return report.JSONReport{}, out, wall, err
	}
	rep, err := ReadReport(path)
	return rep, out, wall, err
}

// estimateOf converts a JSON report's estimate: Delta is delta_pct, NaN
// when null; the interval is [lo_pct, hi_pct] with HasCI when both ends
// are present, else Lo and Hi are 0 and HasCI false.
func estimateOf(e report.JSONEstimate) Estimate {
	out := Estimate{Delta: math.NaN(), Verdict: e.Verdict}
	if e.DeltaPct != nil {
		out.Delta = *e.DeltaPct
	}
	if e.LoPct != nil && e.HiPct != nil {
		out.Lo, out.Hi, out.HasCI = *e.LoPct, *e.HiPct, true
	}
	return out
}

// orNaN is *p, or NaN when p is nil (a JSON null).
func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
