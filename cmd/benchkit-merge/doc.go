// Command benchkit-merge merges the results of the shards of one run
// (-benchkit.shard=K/N, one CI job each) into one: a JSON report per
// package and the run's Markdown summary.
//
// Usage:
//
//	go run github.com/benchkit/go-benchkit/cmd/benchkit-merge [-o out/] [-summary FILE] input...
//
// Each input is a JSON report (-benchkit.json), a summary
// (-benchkit.summary), or a directory searched for both (the Bencher and
// github-action-benchmark exports and files that are not benchkit's are
// skipped there; named on the command line, they are an error).
//
//	-o path        write the merged JSON reports: a directory (ending in a
//	               separator, or existing) gets <pkg>.json per package, a
//	               file the one package's report
//	-summary path  add the merged summary to this Markdown file, as
//	               -benchkit.summary does (in GitHub Actions,
//	               "$GITHUB_STEP_SUMMARY")
//
// The summary is made from the merged JSON reports; summaries are merged
// only when no JSON report is given. The reports of a package must be
// the shards of one split (the same N, each shard once, no benchmark in
// two), of one selection and one pair of builds; anything else is
// refused, naming the files. The merged report is the union of the
// shards', with the lowest shard's environment and run metadata (each
// shard ran on its own runner), and settings.shard {k: 0, n: N, merged:
// the shards}.
//
// Exit status: 0; 1 when a package lacks one of the N shards (the
// merged files are written from the others, and the message names the
// missing ones) or a file could not be written; 2 for bad arguments or
// inputs that do not merge. docs/ci.md shows the step in a workflow.
package main
