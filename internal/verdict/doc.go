// Package verdict holds what control.Compare and benchkit.Main's
// -benchkit.against share to reach a verdict: the balanced random order of
// a round ([Schedule]), the estimate over per-process ratios ([Spread]) and
// the rule ([Rule]) that turns a candidate's interval and the control's
// into Faster, Slower, Same or Undecided with a reason.
//
// Everything here is pure: it times nothing and, for a given seed, is
// deterministic. The rule's statement, with its reasons, is in package
// control's Analyze doc; this package is its one implementation.
package verdict
