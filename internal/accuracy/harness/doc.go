// Package harness holds what the accuracy tables under internal/accuracy
// share: parsing a table's flags and turning its errors into an exit
// status, building a test binary once, running it as a fresh process with
// a deadline, reading benchkit's JSON report, reading what plain
// sub-benchmarks print, comparing the plain way as benchstat does,
// medians, and the line that describes the machine.
//
// # Reading benchkit
//
// The tables read what benchkit measured only from its JSON report
// (schema benchkit-report/v1), never from the text it prints for people:
// [RunReport] runs a test binary with -benchkit.json and decodes the file
// with report.ReadJSON into report.JSONReport, the types the report is
// written from. [CompareOutcomes] reads its control.Compare calls and
// [AgainstOutcomes] its cross-build comparison; a benchmark's name loses
// its -procs suffix with benchname.Trim. A measured package's TestMain must
// call benchkit.Main, which defines the -benchkit flags.
//
// # Conventions
//
// The packages the tables measure name their benchmarks
// BenchmarkCompare/work=<w> (one control.Compare per workload) and
// BenchmarkPlain/work=<w>/impl=<i> (ordinary sub-benchmarks, for go test
// -count and benchstat -col /impl).
//
// Every delta is in percent of the baseline: (candidate/baseline − 1)·100,
// so +5 means the candidate takes 5% longer. Interval ends are in percent
// too. A verdict is one of "faster", "slower", "same" or "undecided" (the
// JSON report's; the plain way never gives "undecided").
//
// The plain way is compared exactly as benchstat -col /impl does, with
// golang.org/x/perf/benchmath: AssumeNothing, the ratio of the medians of
// the samples, and a Mann-Whitney U test. Its verdict is decided (faster or
// slower) when p ≤ α = 0.05, that is when benchstat prints a delta instead
// of ~; it has no interval on the ratio.
//
// Medians and other quantiles are internal/stats' (type 7: linear
// interpolation between order statistics, R's default).
package harness
