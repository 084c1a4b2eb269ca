package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/settings"
)

// shardReport is the JSON report of shard k of n of a cross-build run of
// pkg that compared names and found only in the base onlyBase.
func shardReport(pkg string, k, n int, names []string, onlyBase ...string) JSONReport {
	res := against.Result{Pattern: ".", Base: against.Binary{VCSRevision: "b1"}, New: against.Binary{VCSRevision: "n1"}, OnlyBase: onlyBase}
	for _, name := range names {
		res.Benches = append(res.Benches, against.Bench{Name: name, Mode: against.ModeRounds,
			NewEst:     verdict.Estimate{Name: "new", DeltaPct: 1, LoPct: -1, HiPct: 3, Verdict: verdict.Undecided},
			ControlEst: verdict.Estimate{Name: "control", LoPct: -1, HiPct: 1, Verdict: verdict.Same},
			Allocs:     against.Count{Base: -1, New: -1}, Bytes: against.Count{Base: -1, New: -1},
			BetweenPct: -1, WithinPct: -1, IdleCPUPct: -1})
	}
	in := Input{Package: pkg, Against: &res, Settings: Settings{Shard: settings.Shard{K: k, N: n}}}
	return JSONReportOf(in, Analyze(in))
}

// TestMergeJSON: two shards' reports merge into one with every
// benchmark once, sorted, the shards listed.
func TestMergeJSON(t *testing.T) {
	a := shardReport("example.com/p", 2, 2, []string{"Work-2", "Alloc-2"})
	b := shardReport("example.com/p", 1, 2, []string{"Same-2"}, "Gone-2")
	m, err := MergeJSON([]string{"a.json", "b.json"}, []JSONReport{a, b})
	require.NoError(t, err)
	var names []string
	for _, bm := range m.Against.Benchmarks {
		names = append(names, bm.Name)
	}
	assert.Equal(t, []string{"Alloc-2", "Same-2", "Work-2"}, names)
	assert.Equal(t, []string{"Gone-2"}, m.Against.OnlyBase)
	assert.Equal(t, []string{}, m.Against.OnlyNew)
	assert.Equal(t, &JSONShard{K: 0, N: 2, Merged: []int{1, 2}}, m.Settings.Shard)
	assert.Equal(t, "example.com/p", m.Package)

	one := shardReport("example.com/p", 0, 0, []string{"Work-2"})
	m, err = MergeJSON([]string{"one.json"}, []JSONReport{one})
	require.NoError(t, err)
	assert.Equal(t, one, m, "a report that is not a shard passes as it is")
}

// TestMergeJSONConflicts: reports that are not the shards of one run
// are refused, naming the files and the fix.
func TestMergeJSONConflicts(t *testing.T) {
	s1 := shardReport("example.com/p", 1, 2, []string{"Work-2"})
	s2 := shardReport("example.com/p", 2, 2, []string{"Same-2"})
	plain := shardReport("example.com/p", 2, 2, nil)
	plain.Against = nil
	otherRev := shardReport("example.com/p", 2, 2, []string{"Same-2"})
	otherRev.Against.Base.VCSRevision = "b2"
	for _, tc := range []struct {
		name string
		reps []JSONReport
		want string
	}{
		{"the same shard twice", []JSONReport{s1, s1}, "report: a.json and b.json are both shard 1/2 of example.com/p: give each shard's report once"},
		{"overlapping shards", []JSONReport{s1, shardReport("example.com/p", 2, 2, []string{"Work-2"})},
			"report: the compared benchmark Work-2 is in both a.json and b.json: the shards overlap"},
		{"another split", []JSONReport{s1, shardReport("example.com/p", 2, 3, nil)}, "report: a.json is shard 1/2 and b.json shard 2/3: merge the shards of one split, all with the same N"},
		{"not a shard", []JSONReport{s1, shardReport("example.com/p", 0, 0, nil)}, "report: b.json is not the report of one shard (its settings.shard is null)"},
		{"another package", []JSONReport{s1, shardReport("example.com/q", 2, 2, nil)}, "report: a.json is of package example.com/p and b.json of example.com/q: merge each package's shards apart"},
		{"plain beside against", []JSONReport{s1, plain}, "report: a.json is a cross-build comparison and b.json is not"},
		{"another base", []JSONReport{s1, otherRev}, `report: b.json has the base revision "b2" where the lowest shard has "b1": merge the shards of one run`},
	} {
		_, err := MergeJSON([]string{"a.json", "b.json"}, tc.reps)
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
	_, err := MergeJSON([]string{"a.json", "b.json"}, []JSONReport{s1, s2})
	assert.NoError(t, err)
}

// TestMergeJSONRevision: against a revision, a base that did not build
// fails each shard alike, and the merged report says it once; shards
// built against different merge bases are refused.
func TestMergeJSONRevision(t *testing.T) {
	shard := func(k int, commit string) JSONReport {
		res := against.Result{Pattern: ".", GatePct: 5, BaseRev: &against.Revision{Rev: "origin/main", Commit: commit},
			Failures: []against.Failure{{Side: "base", Build: true, Message: "go test -c exited with status 1 at " + commit, Output: "./x.go:3: undefined: y"}}}
		in := Input{Package: "example.com/p", Against: &res, Settings: Settings{Shard: settings.Shard{K: k, N: 2}}}
		rep := JSONReportOf(in, Analyze(in))
		rep.Failures = []string{"benchkit: against the base: the gate compared nothing"}
		return rep
	}
	m, err := MergeJSON([]string{"a.json", "b.json"}, []JSONReport{shard(1, "c1"), shard(2, "c1")})
	require.NoError(t, err)
	require.Len(t, m.Against.Failures, 1, "the build's failure once")
	assert.True(t, m.Against.Failures[0].Build)
	assert.Equal(t, []string{"benchkit: against the base: the gate compared nothing"}, m.Failures)
	assert.Equal(t, "c1", m.Against.BaseRevision.Commit)

	_, err = MergeJSON([]string{"a.json", "b.json"}, []JSONReport{shard(1, "c1"), shard(2, "c2")})
	assert.ErrorContains(t, err, `report: b.json has the merge base "c2" where the lowest shard has "c1": merge the shards of one run`)
}
