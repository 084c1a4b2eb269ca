package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/summary"
)

// shardReport is the JSON report of shard k of n of a cross-build run
// of pkg that compared names, one decided slower and the rest the same.
func shardReport(pkg string, k, n int, names ...string) report.JSONReport {
	res := against.Result{Pattern: "."}
	for i, name := range names {
		v, d := verdict.Same, 0.1
		if i == 0 {
			v, d = verdict.Slower, 30
		}
		res.Benches = append(res.Benches, against.Bench{Name: name, Mode: against.ModeRounds,
			NewEst:     verdict.Estimate{Name: "new", DeltaPct: d, LoPct: d - 1, HiPct: d + 1, Verdict: v},
			ControlEst: verdict.Estimate{Name: "control", LoPct: -1, HiPct: 1, Verdict: verdict.Same},
			Allocs:     against.Count{Base: -1, New: -1}, Bytes: against.Count{Base: -1, New: -1},
			BetweenPct: -1, WithinPct: -1, IdleCPUPct: -1})
	}
	in := report.Input{Package: pkg, Against: &res, Settings: report.Settings{Shard: settings.Shard{K: k, N: n}}}
	return report.JSONReportOf(in, report.Analyze(in))
}

// write writes rep as a JSON report at path (its directory made).
func write(t *testing.T, path string, rep report.JSONReport) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o777))
	var b bytes.Buffer
	require.NoError(t, report.WriteJSON(&b, rep))
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o600))
}

func runMerge(args ...string) (int, string) {
	var stderr bytes.Buffer
	code := run(args, &stderr)
	return code, stderr.String()
}

func readReport(t *testing.T, path string) report.JSONReport {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rep, err := report.ReadJSON(f)
	require.NoError(t, err)
	return rep
}

// TestMergeShards: two shards' directories (as two CI jobs' artifacts)
// merge into one report per package with every benchmark once, and one
// summary; the exports beside the reports are skipped.
func TestMergeShards(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "shard-1", "out", "example.com_m_a.json"), shardReport("example.com/m/a", 1, 2, "Work-2", "Same-2"))
	write(t, filepath.Join(dir, "shard-2", "out", "example.com_m_a.json"), shardReport("example.com/m/a", 2, 2, "Parse-2"))
	write(t, filepath.Join(dir, "shard-2", "out", "example.com_m_b.json"), shardReport("example.com/m/b", 2, 2, "Hash-2"))
	write(t, filepath.Join(dir, "shard-1", "out", "example.com_m_b.json"), shardReport("example.com/m/b", 1, 2))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "shard-1", "out", "example.com_m_a.bmf.json"), []byte("{}"), 0o600))
	out, sum := filepath.Join(dir, "merged")+"/", filepath.Join(dir, "summary.md")

	code, msg := runMerge("-o", out, "-summary", sum, filepath.Join(dir, "shard-1"), filepath.Join(dir, "shard-2"))
	require.Equal(t, 0, code, msg)
	assert.Equal(t, "benchkit-merge: 2 packages merged\n", msg)
	a := readReport(t, filepath.Join(out, "example.com_m_a.json"))
	var names []string
	for _, b := range a.Against.Benchmarks {
		names = append(names, b.Name)
	}
	assert.Equal(t, []string{"Parse-2", "Same-2", "Work-2"}, names, "every benchmark once")
	assert.Equal(t, &report.JSONShard{N: 2, Merged: []int{1, 2}}, a.Settings.Shard)
	assert.FileExists(t, filepath.Join(out, "example.com_m_b.json"))

	parts, err := summary.Read(sum)
	require.NoError(t, err)
	require.Len(t, parts, 2)
	md, err := os.ReadFile(sum)
	require.NoError(t, err)
	assert.Contains(t, string(md), "### benchkit: 3 regressions · 1 more\n")
	assert.Contains(t, string(md), "- `example.com/m/a` (2 shards of 2 merged): 2 regressions")
}

// TestMergeSummaries: without JSON reports, the shards' summaries merge.
func TestMergeSummaries(t *testing.T) {
	dir := t.TempDir()
	s1, s2, merged := filepath.Join(dir, "s1.md"), filepath.Join(dir, "s2.md"), filepath.Join(dir, "merged.md")
	require.NoError(t, summary.Add(s1, summary.PartOf(shardReport("example.com/m/a", 1, 2, "Work-2"))))
	require.NoError(t, summary.Add(s2, summary.PartOf(shardReport("example.com/m/a", 2, 2, "Parse-2"))))
	code, msg := runMerge("-summary", merged, s1, s2)
	require.Equal(t, 0, code, msg)
	parts, err := summary.Read(merged)
	require.NoError(t, err)
	require.Len(t, parts, 1)
	assert.Len(t, parts[0].Entries, 2)
	assert.Equal(t, []int{1, 2}, parts[0].Shard.Merged)
}

// TestMergeMissingShard: a shard whose files are absent is named, after
// the others are merged and written, and the exit status is 1.
func TestMergeMissingShard(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "s1.json"), shardReport("example.com/m/a", 1, 3, "Work-2"))
	write(t, filepath.Join(dir, "s3.json"), shardReport("example.com/m/a", 3, 3, "Parse-2"))
	out := filepath.Join(dir, "merged.json")
	code, msg := runMerge("-o", out, filepath.Join(dir, "s1.json"), filepath.Join(dir, "s3.json"))
	assert.Equal(t, 1, code)
	assert.Contains(t, msg, "benchkit-merge: the merge lacks shard 2/3 of example.com/m/a: their jobs failed or their files were not downloaded")
	assert.Len(t, readReport(t, out).Against.Benchmarks, 2, "written from the shards there are")
}

// TestMergeBadInput: inputs that do not merge and bad arguments are
// refused with exit status 2 and a message naming the fix; nothing is
// written.
func TestMergeBadInput(t *testing.T) {
	dir := t.TempDir()
	s1, s1b, over := filepath.Join(dir, "s1.json"), filepath.Join(dir, "copy", "s1.json"), filepath.Join(dir, "over.json")
	write(t, s1, shardReport("example.com/m/a", 1, 2, "Work-2"))
	write(t, s1b, shardReport("example.com/m/a", 1, 2, "Work-2"))
	write(t, over, shardReport("example.com/m/a", 2, 2, "Work-2"))
	write(t, filepath.Join(dir, "b.json"), shardReport("example.com/m/b", 0, 0, "X-2"))
	bmf := filepath.Join(dir, "x.bmf.json")
	require.NoError(t, os.WriteFile(bmf, []byte("{}"), 0o600))
	notReport := filepath.Join(dir, "other.json")
	require.NoError(t, os.WriteFile(notReport, []byte(`{"a": 1}`), 0o600))
	out := filepath.Join(dir, "out.json")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"one shard twice", []string{"-o", out, s1, s1b}, "are both shard 1/2 of example.com/m/a: give each shard's report once"},
		{"overlapping shards", []string{"-o", out, s1, over}, "the compared benchmark Work-2 is in both"},
		{"two packages into one file", []string{"-o", out, s1, filepath.Join(dir, "b.json")}, "give -o a directory (out/), for one file per package"},
		{"an export", []string{"-o", out, bmf}, "is an export for a dashboard, not a JSON report: give the file -benchkit.json wrote"},
		{"not a report", []string{"-o", out, notReport}, `not a benchkit JSON report: no "schema" field`},
		{"no output", []string{s1}, "usage: benchkit-merge"},
		{"no input", []string{"-o", out}, "usage: benchkit-merge"},
		{"nothing found", []string{"-o", out, t.TempDir()}, "no JSON report or summary in"},
	} {
		code, msg := runMerge(tc.args...)
		assert.Equal(t, 2, code, tc.name)
		assert.Contains(t, msg, tc.want, tc.name)
		assert.NoFileExists(t, out, tc.name)
	}
	entries, _ := os.ReadDir(dir)
	assert.False(t, slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), "out") }))
}
