package session

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/summary"
)

// summarySetting names the summary's setting in messages.
const summarySetting = "-benchkit.summary or BENCHKIT_SUMMARY"

// withDefaults fills what the settings leave to the environment: under
// -benchkit.against in GitHub Actions (GITHUB_ACTIONS=true), the
// summary goes to $GITHUB_STEP_SUMMARY unless -benchkit.summary says
// otherwise; under go test -artifacts every file no setting names goes
// to the artifacts (withArtifacts); -benchkit.summary=off becomes ""
// (none). It fails when the artifacts' directory cannot be made.
func withDefaults(cfg settings.Config, d Deps) (settings.Config, error) {
	if cfg.SummaryPath == "" && cfg.Against.On() && d.getenv("GITHUB_ACTIONS") == "true" {
		cfg.SummaryPath = d.getenv("GITHUB_STEP_SUMMARY")
	}
	cfg, err := withArtifacts(cfg, d)
	if err != nil {
		return cfg, fmt.Errorf("benchkit: go test -artifacts: %v; give -outputdir a directory benchkit can write to (checked before the run: nothing ran)", err)
	}
	if cfg.SummaryPath == settings.SummaryOff {
		cfg.SummaryPath = ""
	}
	return cfg, nil
}

// summaryFile returns the summary's file for the setting's path ("":
// none): the run's one file, summary.md in a directory.
func summaryFile(path string) string {
	if path != "" && dirForm(path) {
		return filepath.Join(path, "summary.md")
	}
	return path
}

// addViews adds this package's part to the run's summary (summary.Add),
// unless the part has nothing to say (summary.Part.Empty), and its line to
// the HTML reports' index page (addIndex). It reports false, with the
// reason on stderr, when the summary could not be written.
func addViews(cfg settings.Config, d Deps, in report.Input, a report.Analysis) bool {
	part := summary.PartOf(report.JSONReportOf(in, a))
	addIndex(cfg, d, part)
	path := summaryFile(cfg.SummaryPath)
	if path == "" || part.Empty() {
		return true
	}
	if err := summary.Add(path, part); err != nil {
		fmt.Fprintf(d.stderr, "benchkit: cannot add to the summary: %v; fix the path given by %s, or turn it off with -benchkit.summary=off\n", err, summarySetting)
		return false
	}
	return true
}

// indexName is the index page's name in a directory of HTML reports.
const indexName = "index.html"

// addIndex adds the package's line to the index page of the run's HTML
// reports, once the package's page is there: index.html beside it when
// the report's path is a directory (one page per package), or
// benchkit-index.html in the artifacts' root when go test -artifacts put
// the page in the package's artifacts. A failure is a warning on
// stderr, the page itself being written.
func addIndex(cfg settings.Config, d Deps, part summary.Part) {
	page := filePath(cfg.HTMLPath, d.pkg, ".html")
	index := filepath.Join(filepath.Dir(page), indexName)
	if root, dir := artifacts(d); dir != "" && page == filepath.Join(dir, "report.html") {
		index = filepath.Join(root, artifactsIndex)
	} else if cfg.HTMLPath == "" || !dirForm(cfg.HTMLPath) {
		return
	}
	if _, err := os.Stat(page); err != nil {
		return
	}
	if err := summary.AddIndex(index, summary.IndexEntryOf(part, index, page)); err != nil {
		fmt.Fprintf(d.stderr, "benchkit: warning: cannot update the HTML reports' index: %v\n", err)
	}
}
