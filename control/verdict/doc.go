// Package verdict is the pure core of a benchkit comparison: the types
// [control.Compare] and [control.Analyze] return ([Result], [Estimate],
// [Verdict]) and take ([Sample]), and the estimator, for anyone with
// per-round times: [Analyze] within one group of paired rounds, whose doc
// states the verdict rule, and [AnalyzeGroups] over groups of processes.
// It times nothing and, for a given seed, is deterministic. The reasons
// behind the rule are in docs/statistics.md in the repository.
//
// [control.Compare]: https://pkg.go.dev/github.com/benchkit/go-benchkit/control#Compare
// [control.Analyze]: https://pkg.go.dev/github.com/benchkit/go-benchkit/control#Analyze
package verdict
