package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/summary"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// missingShards is the error of a merge that lacks shards: the files are
// written, the run is not whole.
type missingShards []string

func (m missingShards) Error() string {
	return "the merge lacks " + strings.Join(m, "; ") +
		": their jobs failed or their files were not downloaded, and the merged files hold the other shards' benchmarks only; rerun them, or merge the files of every shard"
}

// merge merges in's reports per package and writes them to out (""
// none), and adds the summary to sum ("" none): from the merged reports,
// or, without any, from the merged summaries. It returns missingShards
// when a package lacks shards, after writing.
func merge(in inputs, out, sum string, stderr io.Writer) error {
	merged, err := mergeReports(in)
	if err != nil {
		return err
	}
	if out != "" {
		if err := writeReports(merged, out); err != nil {
			return err
		}
	}
	parts := make([]summary.Part, 0, len(merged))
	for _, r := range merged {
		parts = append(parts, summary.PartOf(r))
	}
	if len(merged) == 0 {
		if parts, err = summary.Merge(in.parts); err != nil {
			return err
		}
	}
	if sum != "" {
		if err := summary.Add(sum, parts...); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "benchkit-merge: %s merged\n", textfmt.Plural(len(parts), "package"))
	return missing(parts)
}

// mergeReports merges the reports of each package (report.MergeJSON),
// by package.
func mergeReports(in inputs) ([]report.JSONReport, error) {
	byPkg := map[string][]int{}
	for i, r := range in.reports {
		byPkg[r.Package] = append(byPkg[r.Package], i)
	}
	var out []report.JSONReport
	for _, pkg := range slices.Sorted(maps.Keys(byPkg)) {
		var names []string
		var reps []report.JSONReport
		for _, i := range byPkg[pkg] {
			names, reps = append(names, in.names[i]), append(reps, in.reports[i])
		}
		m, err := report.MergeJSON(names, reps)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// writeReports writes the merged reports to out: a directory gets one
// file per package, a file the one package's report.
func writeReports(reps []report.JSONReport, out string) error {
	dir := strings.HasSuffix(out, "/") || strings.HasSuffix(out, string(os.PathSeparator))
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		dir = true
	}
	if !dir && len(reps) > 1 {
		return fmt.Errorf("-o %s is a file and the inputs hold %d packages: give -o a directory (out/), for one file per package", out, len(reps))
	}
	if dir {
		if err := os.MkdirAll(out, 0o777); err != nil {
			return err
		}
	}
	for _, r := range reps {
		path := out
		if dir {
			path = filepath.Join(out, report.PackageFile(r.Package, ".json"))
		}
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		err = report.WriteJSON(f, r)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}

// missing returns the shards each sharded part lacks, or nil.
func missing(parts []summary.Part) error {
	var out missingShards
	for _, p := range parts {
		s := p.Shard
		if s == nil || s.K != 0 {
			continue
		}
		var lack []string
		for k := 1; k <= s.N; k++ {
			if !slices.Contains(s.Merged, k) {
				lack = append(lack, fmt.Sprintf("%d/%d", k, s.N))
			}
		}
		if len(lack) > 0 {
			out = append(out, fmt.Sprintf("shard %s of %s", strings.Join(lack, ", "), p.Package))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
