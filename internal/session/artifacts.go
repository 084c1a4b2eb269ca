package session

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

// The names of the files go test -artifacts gets by default: per package
// in its directory, and for the run in the artifacts' root.
const (
	artifactsSummary = "benchkit-summary.md"
	artifactsIndex   = "benchkit-index.html"
)

// artifacts returns, under go test -artifacts (-test.artifacts), the
// root of the run's artifacts, <-test.outputdir>/_artifacts (the working
// directory when -test.outputdir is not given, as testing does), and this
// package's directory in it, <root>/<package path less the module
// path>/benchkit, laid out as testing's code means to lay out a test's
// (testing.T.ArtifactDir: <root>/<package>/<test name>/<random>; go1.26.8
// falls back to <root>/<random>), with "benchkit" for the test's name,
// which no test's name can be (they begin with an upper-case letter).
// Both are "" without -artifacts.
func artifacts(d Deps) (root, dir string) {
	if testflag.Value(d.fs, "test.artifacts") != "true" {
		return "", ""
	}
	out := testflag.Value(d.fs, "test.outputdir")
	root, err := filepath.Abs(filepath.Join(out, "_artifacts"))
	if err != nil {
		return "", ""
	}
	pkg := d.pkg
	if d.build != nil {
		if bi, ok := d.build(); ok && bi.Main.Path != "" {
			pkg = strings.TrimPrefix(pkg, bi.Main.Path+"/")
		}
	}
	rel, err := filepath.Localize(strings.Trim(keepSymbols(pkg, "!#$%&()+,-.=@^_{}~ /"), "/"))
	if err != nil || rel == "" || rel == "." {
		rel = report.PackageFile(d.pkg, "")
	}
	return root, filepath.Join(root, rel, "benchkit")
}

// keepSymbols drops from s every rune that is not a letter, a digit or
// in allowed, as testing does to a package's path in its artifacts'.
func keepSymbols(s, allowed string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || strings.ContainsRune(allowed, r) {
			return r
		}
		return -1
	}, s)
}

// withArtifacts gives every file of cfg that no setting names a path in
// this package's artifacts directory (made here), and the summary one in
// the root when none is set: go test -artifacts keeps benchkit's files
// with the tests', one set per package, without a flag per file. It
// returns cfg as it was without -artifacts.
func withArtifacts(cfg settings.Config, d Deps) (settings.Config, error) {
	root, dir := artifacts(d)
	if dir == "" {
		return cfg, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return cfg, err
	}
	for _, f := range []struct {
		path *string
		name string
	}{
		{&cfg.JSONPath, "report.json"}, {&cfg.SamplesPath, "samples.txt"}, {&cfg.HTMLPath, "report.html"},
		{&cfg.BMFPath, "report.bmf.json"}, {&cfg.GABPath, "report.gab.json"},
	} {
		if *f.path == "" {
			*f.path = filepath.Join(dir, f.name)
		}
	}
	if cfg.SummaryPath == "" {
		cfg.SummaryPath = filepath.Join(root, artifactsSummary)
	}
	return cfg, nil
}
