package session

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/benchkit/go-benchkit/internal/settings"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/report"
)

// outputFile is one file Main writes: its setting's path, the
// extension of the per-package name in a directory, how the user names
// the setting, what the file is (for messages), and how it is rendered
// (nil for the text report, which [text] writes).
type outputFile struct {
	path, ext, setting, what string
	render                   func(io.Writer, report.Input, report.Analysis) error
}

// outputFiles lists the files cfg asks for.
func outputFiles(cfg settings.Config) []outputFile {
	all := []outputFile{
		{cfg.JSONPath, ".json", "-benchkit.json or BENCHKIT_JSON", "the JSON report", report.JSONAnalysis},
		{cfg.SamplesPath, ".txt", "-benchkit.samples or BENCHKIT_SAMPLES", "the samples file", report.SamplesAnalysis},
		{cfg.HTMLPath, ".html", "-benchkit.html or BENCHKIT_HTML", "the HTML report", report.HTMLAnalysis},
		{cfg.BMFPath, ".bmf.json", "-benchkit.bmf or BENCHKIT_BMF", "the Bencher Metric Format file", report.BMF},
		{cfg.GABPath, ".gab.json", "-benchkit.gab or BENCHKIT_GAB", "the github-action-benchmark file", report.GAB},
	}
	if r := cfg.Report; r != "" && r != settings.ReportStdout && r != settings.ReportStderr && r != settings.ReportOff {
		all = append(all, outputFile{r, ".report.txt", "-benchkit.report or BENCHKIT_REPORT", "the report", nil})
	}
	var out []outputFile
	for _, f := range all {
		if f.path != "" {
			out = append(out, f)
		}
	}
	return out
}

// checkPaths checks, before anything runs, that every file cfg asks
// for can be written: its directory exists and takes a new file, or the
// file exists and opens for writing. A path found wrong only after the
// benchmarks would throw their run away.
func checkPaths(cfg settings.Config, pkg string) error {
	owner := map[string]string{} // resolved path → setting
	check := func(path, setting string) error {
		abs := resolved(path)
		if other, dup := owner[abs]; dup {
			return fmt.Errorf("benchkit: %s and %s both write %s, and one would lose its output: give each its own path (checked before the run: nothing ran)",
				other, setting, path)
		}
		owner[abs] = setting
		if err := checkWritable(path); err != nil {
			return fmt.Errorf("benchkit: cannot write %s: %v; fix the path given by %s (checked before the run: nothing ran)",
				path, err, setting)
		}
		return nil
	}
	for _, f := range outputFiles(cfg) {
		if err := check(filePath(f.path, pkg, f.ext), f.setting); err != nil {
			return err
		}
	}
	if path := summaryFile(cfg.SummaryPath); path != "" {
		return check(path, summarySetting)
	}
	return nil
}

// resolved returns the file path names once every symbolic link is
// followed: the file's own when it exists, else its directory's joined
// with its name; the absolute path where neither resolves. Two settings
// that name one file through different links resolve alike.
func resolved(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// checkWritable reports why path cannot be written, or nil. It creates
// and removes a temporary file in path's directory when path does not
// exist, and opens an existing path for writing without truncating it.
func checkWritable(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("the directory %s does not exist", dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	if _, err := os.Stat(path); err == nil {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	f, err := os.CreateTemp(dir, ".benchkit-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name)
}

// otherPackage returns a warning when path already holds benchkit
// output of another package than pkg (the JSON report's "package", the
// samples file's "pkg:" line, the HTML report's benchkit-package meta
// element), which writing path would replace: two
// packages given one file path, as `go test ./...` with a file (not a
// directory) does. It returns "" when path is absent, unreadable, not
// benchkit's, or pkg's own.
func otherPackage(path, pkg string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	other := ""
	br := bufio.NewReader(f)
	if first, err := br.Peek(1); err == nil && first[0] == '{' {
		var head struct {
			Schema  string `json:"schema"`
			Package string `json:"package"`
		}
		if json.NewDecoder(br).Decode(&head) == nil && strings.HasPrefix(head.Schema, "benchkit-report/") {
			other = head.Package
		}
	} else if first, err := br.Peek(1); err == nil && first[0] == '<' {
		other = htmlPackage(br)
	} else {
		other = samplesPackage(br)
	}
	if other == "" || other == pkg {
		return ""
	}
	return fmt.Sprintf("benchkit: %s held the output of package %s (written %s); it is replaced by %s's. "+
		"With several packages (go test ./...) give a directory, such as out/, for one file per package",
		path, other, fi.ModTime().UTC().Format(time.RFC3339), pkg)
}

// samplesPackage returns the "pkg:" configuration value in the first
// lines of a samples file, or "" when there is none before the first
// result.
func samplesPackage(r io.Reader) string {
	sc := bufio.NewScanner(io.LimitReader(r, 64<<10))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Benchmark") {
			return ""
		}
		if v, ok := strings.CutPrefix(line, "pkg: "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// htmlPackage returns the content of the benchkit-package meta element
// in the head of an HTML report, or "" when there is none.
func htmlPackage(r io.Reader) string {
	head, _ := io.ReadAll(io.LimitReader(r, 4<<10))
	const start = `<meta name="benchkit-package" content="`
	_, rest, ok := strings.Cut(string(head), start)
	if !ok {
		return ""
	}
	v, _, ok := strings.Cut(rest, `"`)
	if !ok {
		return ""
	}
	return html.UnescapeString(v)
}
