// Package report renders benchkit's end-of-run hygiene report: a text
// report for the terminal, a JSON report for machines (schema
// benchkit-report/v1), a samples file that benchstat reads directly, an
// HTML report (one page with inline SVG plots and no script), and exports
// in Bencher Metric Format and github-action-benchmark's custom JSON.
//
// Every output is a pure function of an [Input] (environment facts and
// warnings, the warm-up summary, the registry's records, the settings):
//
//	in := report.Input{Facts: ..., Warmup: ..., Benches: registry.Default().Benchmarks()}
//	a := report.Analyze(in)              // rows, comparisons, failures
//	report.TextAnalysis(os.Stdout, in, a) // every line starts with report.Prefix
//	report.JSONAnalysis(f, in, a)         // schema "benchkit-report/v1"
//	rep, err := report.ReadJSON(f)        // read back: a JSONReport
//	report.SamplesAnalysis(g, in, a)      // benchfmt: benchstat g
//	report.HTMLAnalysis(h, in, a)         // a self-contained page
//	report.BMF(b, in, a); report.GAB(c, in, a) // dashboards' formats
//
// Every text line starts with [Prefix] ("benchkit │ "), so that the report
// printed after `go test -bench` output leaves it parseable:
// golang.org/x/perf/benchfmt.Reader reads no result, unit or configuration
// line from it. A line holds at most [LineWidth] runes after the prefix; a
// longer one wraps at spaces onto continuation lines that carry the prefix
// too.
//
// The text report's sections, every field of the JSON schema and the
// samples file format are documented for users in the repository's
// docs/report.md, which is the reference: a change to the JSON output
// changes that page in the same commit. Fields may be added within v1; a
// removed or redefined field makes v2. [JSONReport] and the types it holds
// are the one declaration of the schema: the writer fills them, and
// [ReadJSON] decodes a report into them for programs that read it (the
// accuracy tables of internal/accuracy, cmd/benchkit-merge, which joins
// the reports of a run's shards with [MergeJSON]).
package report
