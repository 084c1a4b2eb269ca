// Package verdict is benchkit's one estimator: what control.Compare (in
// one process or over forks) and benchkit.Main's -benchkit.against share
// to reach a verdict. It owns the types of a comparison ([Sample],
// [Estimate], [Result], [Verdict]), the estimate within one group of
// paired rounds ([Analyze]) and over groups of processes
// ([AnalyzeGroups], [Spread]), the rule that turns a candidate's interval
// and the control's into Faster, Slower, Same or Undecided with a reason
// ([rule]), the gate ([GateFails]), and the balanced random order of a
// round ([Schedule]).
//
// Everything here is pure: it times nothing and, for a given seed, is
// deterministic. Package control's Analyze doc states the rule for users;
// this package is its one implementation.
package verdict
