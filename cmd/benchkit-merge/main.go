package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/summary"
)

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

// inputs are what the command line names: JSON reports and summary
// parts, each with the file it came from.
type inputs struct {
	names   []string
	reports []report.JSONReport
	parts   []summary.Part
	mds     int // summaries read
}

// run is the command: it returns the exit status, with every message on
// stderr.
func run(args []string, stderr io.Writer) int {
	fl := flag.NewFlagSet("benchkit-merge", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("o", "", "write the merged JSON reports to `path`: a directory gets <pkg>.json per package")
	sum := fl.String("summary", "", "add the merged summary to the Markdown file at `path`")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: benchkit-merge [-o out/] [-summary FILE] input... (JSON reports, summaries, or directories of them)")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 || *out == "" && *sum == "" {
		fl.Usage()
		return 2
	}
	in, err := read(fl.Args(), stderr)
	if err == nil {
		err = merge(in, *out, *sum, stderr)
	}
	var missing missingShards
	switch {
	case errors.As(err, &missing):
		fmt.Fprintln(stderr, "benchkit-merge:", err)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "benchkit-merge:", err)
		return 2
	}
	return 0
}

// read reads every input: a file named is a JSON report or a summary, or
// an error; a directory is searched for both.
func read(paths []string, stderr io.Writer) (inputs, error) {
	var in inputs
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return in, err
		}
		if !fi.IsDir() {
			if err := in.add(p, true); err != nil {
				return in, err
			}
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			return in.add(path, false)
		})
		if err != nil {
			return in, err
		}
	}
	if len(in.reports) == 0 && len(in.parts) == 0 {
		return in, fmt.Errorf("no JSON report or summary in %s: give the files -benchkit.json and -benchkit.summary wrote, or their directories", strings.Join(paths, " "))
	}
	if len(in.reports) > 0 && in.mds > 0 {
		fmt.Fprintf(stderr, "benchkit-merge: the summary is made from the %d JSON reports; the %d summaries given are not read\n", len(in.reports), in.mds)
	}
	return in, nil
}

// add reads path as a JSON report (.json) or a summary (.md). named is
// true for a file the command line names: one that is neither is an
// error there, and skipped in a directory.
func (in *inputs) add(path string, named bool) error {
	switch {
	case strings.HasSuffix(path, ".bmf.json") || strings.HasSuffix(path, ".gab.json"):
		if named {
			return fmt.Errorf("%s is an export for a dashboard, not a JSON report: give the file -benchkit.json wrote", path)
		}
	case strings.HasSuffix(path, ".json"):
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		rep, err := report.ReadJSON(f)
		_ = f.Close()
		if err != nil && named {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err == nil {
			in.names, in.reports = append(in.names, path), append(in.reports, rep)
		}
	case strings.HasSuffix(path, ".md"):
		parts, err := summary.Read(path)
		if err != nil {
			return err
		}
		if parts == nil && named {
			return fmt.Errorf("%s holds no benchkit summary: give the file -benchkit.summary wrote", path)
		}
		if parts != nil {
			in.mds++
			in.parts = append(in.parts, parts...)
		}
	default:
		if named {
			return fmt.Errorf("%s is neither a JSON report (.json) nor a summary (.md)", path)
		}
	}
	return nil
}
