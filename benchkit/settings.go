package benchkit

import (
	"flag"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/settings"
	"math"
	"time"
)

// MainOption configures [Main] and [Run]. Options are built by [MainJSON],
// [MainSamples], [MainReport], [MainWarmup], [MainRunsNeededFor] and [MainStrict];
// the interface is sealed.
type MainOption interface{ applyMain(*settings.Config) }

type mainOptionFunc func(*settings.Config)

func (f mainOptionFunc) applyMain(c *settings.Config) { f(c) }

// MainJSON writes the JSON report (schema benchkit-report/v1,
// docs/report.md) to path after the benchmarks, created or truncated; ""
// writes none. Paths follow [Main]'s rules.
func MainJSON(path string) MainOption {
	return mainOptionFunc(func(c *settings.Config) { c.JSONPath = path })
}

// MainSamples writes every sample to path in the Go benchmark format, for
// `benchstat path` (docs/report.md); "" writes none.
func MainSamples(path string) MainOption {
	return mainOptionFunc(func(c *settings.Config) { c.SamplesPath = path })
}

// Report destinations for [MainReport], -benchkit.report and
// BENCHKIT_REPORT; any other value is a file path.
const (
	ReportStdout = settings.ReportStdout // the default: after go test's output
	ReportStderr = settings.ReportStderr // the test binary's stderr, which go test merges into its output
	ReportOff    = settings.ReportOff    // no text report (the files are still written)
	// ReportFull is the full report on stdout; "full:" before another
	// destination ("full:stderr", "full:report.txt") sends it there.
	ReportFull = settings.ReportFull
)

// MainReport sends the text report to dest: [ReportStdout] (the default,
// also for ""), [ReportStderr], [ReportOff], or a file path (with
// [MainJSON]'s rules; a directory gets "<pkg>.report.txt"). Only a file or
// ReportOff keeps the report out of go test's output; with either, the
// reasons a failed run failed still go to stderr.
//
// The report is compact: a header line, a row per benchmark, a line per
// finding that needs action. [ReportFull], alone or as "full:" before a
// destination, gives the full one: the environment, the column legends,
// each benchmark's samples in order and every finding explained (the
// JSON and HTML reports always hold all of it).
func MainReport(dest string) MainOption {
	return mainOptionFunc(func(c *settings.Config) { c.Report, c.ReportFull = settings.ParseReport(dest) })
}

// MainWarmup sets the warm-up's time limit; 0 turns the warm-up off. The
// warm-up stops earlier once its batch times are stable (package warmup).
// It panics if limit is negative.
func MainWarmup(limit time.Duration) MainOption {
	if limit < 0 {
		panic(fmt.Sprintf("benchkit: MainWarmup(%v): the warm-up limit must be positive, or 0 to turn it off", limit))
	}
	return mainOptionFunc(func(c *settings.Config) { c.Warmup = limit })
}

// MainRunsNeededFor sets the change, in percent, that the report's
// runs-needed column sizes for (Lehr's rule, docs/statistics.md). It
// panics unless pct is positive and finite.
func MainRunsNeededFor(pct float64) MainOption {
	if !(pct > 0) || math.IsInf(pct, 0) {
		panic(fmt.Sprintf("benchkit: MainRunsNeededFor(%v): the change to resolve must be a positive percentage, e.g. 5", pct))
	}
	return mainOptionFunc(func(c *settings.Config) { c.Delta = pct })
}

// MainStrict makes every flag a benchmark raised fail the run: Main exits
// 1 when m passed. Each such flag also fails its benchmark when raised
// (b.Error), so that go test -json names it; a kind the benchmark
// accepted with [Allow] fails nothing.
func MainStrict() MainOption {
	return mainOptionFunc(func(c *settings.Config) { c.Strict = true })
}

// RegisterFlags defines [Main]'s -benchkit.* flags on flag.CommandLine,
// for a TestMain that calls flag.Parse itself, which would otherwise
// reject them; the environment variables work either way. Calling it more
// than once, or before Main, is harmless:
//
//	func TestMain(m *testing.M) {
//		benchkit.RegisterFlags()
//		flag.Parse()
//		setUp() // reads the parsed flags
//		benchkit.Main(m)
//	}
func RegisterFlags() { settings.Register(flag.CommandLine, settings.Defaults()) }

// options returns opts as the session applies them.
func options(opts []MainOption) []func(*settings.Config) {
	fns := make([]func(*settings.Config), 0, len(opts))
	for _, o := range opts {
		if o != nil {
			fns = append(fns, o.applyMain)
		}
	}
	return fns
}
