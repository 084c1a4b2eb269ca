// Package summary owns the views of a whole go test run across its
// packages: the Markdown summary (-benchkit.summary, and
// $GITHUB_STEP_SUMMARY under -benchkit.against in GitHub Actions) and
// the HTML reports' index page, which each package's test binary adds
// its part to as it finishes.
//
// A [Part] is what one package's JSON report says at a glance ([PartOf]):
// the benchmarks to act on or look at, each in a [Class], and the rest as
// counts. [Add] adds parts to a file: under a lock it reads the parts the
// file holds, replaces or adds these, renders the whole summary again
// ([Markdown]: every part's benchmarks together, regressions first, then
// improvements, undecided, flagged, and the rest as counts) and replaces
// the file at once, so that the file reads as one summary after every
// package and no concurrent addition is lost. The parts travel inside
// the file, in a comment Markdown does not show; [Read] reads them back.
// What a file holds outside benchkit's block is kept.
//
// [AddIndex] keeps the HTML reports' index page (index.html in the
// directory of one page per package) the same way: one line per
// package, linked to its page, with its [Headline]. docs/report.md
// describes both.
package summary
