// Package verdict is the pure core of a benchkit comparison: the types
// [control.Compare] and [control.Analyze] return ([Result], [Estimate],
// [Verdict]) and take ([Sample]), the estimate within one group of paired
// rounds ([Analyze]) and over groups of processes ([AnalyzeGroups]), the
// rule that turns a candidate's interval and the control's into Faster,
// Slower, Same or Undecided with a reason (stated on [Analyze]), and the
// gate. Compare's forks and benchkit.Main's -benchkit.against call it; so
// can anyone with per-round times of their own.
//
// It times nothing and, for a given seed, is deterministic.
//
// [control.Compare]: https://pkg.go.dev/github.com/benchkit/go-benchkit/control#Compare
// [control.Analyze]: https://pkg.go.dev/github.com/benchkit/go-benchkit/control#Analyze
package verdict
