package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// MergeJSON merges the JSON reports of one package from the shards of
// one run (-benchkit.shard=K/N, settings.shard) into one report, as if one
// run had measured them all: the benchmarks, comparisons, cross-build
// benchmarks, the benchmarks found in one build only, failures and
// warnings of every shard (the benchmarks sorted by name; a failure
// several shards give alike, such as a base that did not build, once),
// failed when any failed, and settings.shard {k: 0, n: N, merged: the
// shards}. What describes one run (the start time, the environment, the
// binaries, the settings) is the lowest shard's: each shard ran on its
// own runner. names name the reports in messages (their files). A single
// report that is not a shard is returned as it is.
//
// It fails, naming the reports and the fix, when they are not shards of
// one run of one package: another package, a report that is not a shard
// beside others, shards of different N, one shard twice, a benchmark in
// two shards, a plain run beside a cross-build one, another selection or
// another build of either side (its VCS revision, the base's merge
// base). A shard missing from the reports is no error here (merged lists
// those present).
func MergeJSON(names []string, reps []JSONReport) (JSONReport, error) {
	if len(reps) == 0 || len(names) != len(reps) {
		return JSONReport{}, fmt.Errorf("report: merging %d reports named by %d names", len(reps), len(names))
	}
	if len(reps) == 1 && reps[0].Settings.Shard == nil {
		return reps[0], nil
	}
	order, err := shardOrder(names, reps)
	if err != nil {
		return JSONReport{}, err
	}
	first := reps[order[0]]
	out := first
	out.Benchmarks, out.Comparisons, out.Failures = nil, nil, nil
	out.DroppedComparisons, out.Dropped, out.Failed = nil, 0, false
	out.Settings.Shard = &JSONShard{N: first.Settings.Shard.N, Merged: []int{}}
	if first.Against != nil {
		a := *first.Against
		a.Benchmarks, a.OnlyBase, a.OnlyNew, a.Failures, a.Warnings = nil, nil, nil, nil, nil
		out.Against = &a
	}
	seen := map[string]int{} // a benchmark's key → the report it came from
	for _, i := range order {
		if err := mergeOne(&out, reps[i], i, names, seen); err != nil {
			return JSONReport{}, err
		}
	}
	sortMerged(&out)
	return out, nil
}

// shardOrder checks that reps are shards of one split of one package and
// returns their indices by shard.
func shardOrder(names []string, reps []JSONReport) ([]int, error) {
	order := make([]int, len(reps))
	byK := map[int]int{}
	for i, r := range reps {
		order[i] = i
		sh, first := r.Settings.Shard, reps[0]
		switch {
		case r.Package != first.Package:
			return nil, fmt.Errorf("report: %s is of package %s and %s of %s: merge each package's shards apart", names[0], first.Package, names[i], r.Package)
		case sh == nil || sh.K == 0:
			return nil, fmt.Errorf("report: %s is not the report of one shard (its settings.shard is %s): merge the reports of -benchkit.shard=K/N runs, each once", names[i], shardText(sh))
		case sh.N != first.Settings.Shard.N:
			return nil, fmt.Errorf("report: %s is shard %d/%d and %s shard %d/%d: merge the shards of one split, all with the same N", names[0], first.Settings.Shard.K, first.Settings.Shard.N, names[i], sh.K, sh.N)
		}
		if j, dup := byK[sh.K]; dup {
			return nil, fmt.Errorf("report: %s and %s are both shard %d/%d of %s: give each shard's report once", names[j], names[i], sh.K, sh.N, r.Package)
		}
		byK[sh.K] = i
		if (r.Against == nil) != (first.Against == nil) {
			return nil, fmt.Errorf("report: %s is a cross-build comparison and %s is not: merge the shards of one run", names[againstIndex(reps)], names[plainIndex(reps)])
		}
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(reps[x].Settings.Shard.K, reps[y].Settings.Shard.K) })
	return order, nil
}

func againstIndex(reps []JSONReport) int {
	return slices.IndexFunc(reps, func(r JSONReport) bool { return r.Against != nil })
}

func plainIndex(reps []JSONReport) int {
	return slices.IndexFunc(reps, func(r JSONReport) bool { return r.Against == nil })
}

func shardText(s *JSONShard) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("{k: %d, n: %d, merged: %v}", s.K, s.N, s.Merged)
}

// mergeOne adds report r (reps[i], named names[i]) to out; seen maps each
// benchmark's key to the report that brought it.
func mergeOne(out *JSONReport, r JSONReport, i int, names []string, seen map[string]int) error {
	claim := func(kind, name string) error {
		key := kind + "\x00" + name
		if j, dup := seen[key]; dup && j != i {
			return fmt.Errorf("report: %s %s is in both %s and %s: the shards overlap, so they are not the shards of one run (the same -bench, package and N); merge the shards of one run",
				kind, name, names[j], names[i])
		}
		seen[key] = i
		return nil
	}
	for _, b := range r.Benchmarks {
		if err := claim("benchmark", b.Display); err != nil {
			return err
		}
	}
	for _, c := range r.Comparisons {
		if err := claim("the comparison of", c.Benchmark); err != nil {
			return err
		}
	}
	out.Benchmarks = append(out.Benchmarks, r.Benchmarks...)
	out.Comparisons = append(out.Comparisons, r.Comparisons...)
	for _, f := range r.Failures { // a reason every shard gives (the base did not build) once
		if !slices.Contains(out.Failures, f) {
			out.Failures = append(out.Failures, f)
		}
	}
	out.DroppedComparisons = append(out.DroppedComparisons, r.DroppedComparisons...)
	out.Dropped += r.Dropped
	out.Failed = out.Failed || r.Failed
	out.Settings.Shard.Merged = append(out.Settings.Shard.Merged, r.Settings.Shard.K)
	if r.Against != nil {
		return mergeAgainst(out.Against, *r.Against, names[i], claim)
	}
	return nil
}

// mergeAgainst adds a shard's cross-build comparison to out, after
// checking that it compared the same builds with the same selection.
func mergeAgainst(out *JSONAgainst, a JSONAgainst, name string, claim func(kind, name string) error) error {
	for _, side := range []struct{ what, x, y string }{
		{"-bench pattern", out.Pattern, a.Pattern},
		{"base revision", out.Base.VCSRevision, a.Base.VCSRevision},
		{"new revision", out.New.VCSRevision, a.New.VCSRevision},
		{"merge base", out.BaseRevision.commit(), a.BaseRevision.commit()},
	} {
		if side.x != side.y && side.x != "" && side.y != "" {
			return fmt.Errorf("report: %s has the %s %q where the lowest shard has %q: merge the shards of one run", name, side.what, side.y, side.x)
		}
	}
	for _, n := range a.OnlyBase {
		if err := claim("the base-only benchmark", n); err != nil {
			return err
		}
	}
	for _, n := range a.OnlyNew {
		if err := claim("the new-only benchmark", n); err != nil {
			return err
		}
	}
	for _, b := range a.Benchmarks {
		if err := claim("the compared benchmark", b.Name); err != nil {
			return err
		}
	}
	out.Benchmarks = append(out.Benchmarks, a.Benchmarks...)
	out.OnlyBase = append(out.OnlyBase, a.OnlyBase...)
	out.OnlyNew = append(out.OnlyNew, a.OnlyNew...)
	for _, f := range a.Failures { // a base that did not build fails every shard's comparison alike
		if !f.Build || !slices.ContainsFunc(out.Failures, func(g JSONProcFailure) bool { return g.Build && g.Message == f.Message }) {
			out.Failures = append(out.Failures, f)
		}
	}
	for _, w := range a.Warnings {
		if !slices.Contains(out.Warnings, w) {
			out.Warnings = append(out.Warnings, w)
		}
	}
	out.Rounds = max(out.Rounds, a.Rounds)
	return nil
}

// commit is the merge base a base was built at, "" for a base given by
// path.
func (r *JSONRevision) commit() string {
	if r == nil {
		return ""
	}
	return r.Commit
}

// sortMerged orders a merged report's lists by name and leaves none of
// its arrays null.
func sortMerged(r *JSONReport) {
	slices.SortStableFunc(r.Benchmarks, func(x, y JSONBenchmark) int { return strings.Compare(x.Display, y.Display) })
	slices.SortStableFunc(r.Comparisons, func(x, y JSONComparison) int { return strings.Compare(x.Benchmark, y.Benchmark) })
	r.Benchmarks, r.Comparisons = nonNil(r.Benchmarks), nonNil(r.Comparisons)
	r.Failures, r.DroppedComparisons = nonNil(r.Failures), nonNil(r.DroppedComparisons)
	if a := r.Against; a != nil {
		slices.SortStableFunc(a.Benchmarks, func(x, y JSONAgainstBench) int { return strings.Compare(x.Name, y.Name) })
		slices.Sort(a.OnlyBase)
		slices.Sort(a.OnlyNew)
		a.Benchmarks, a.OnlyBase, a.OnlyNew = nonNil(a.Benchmarks), nonNil(a.OnlyBase), nonNil(a.OnlyNew)
		a.Failures, a.Warnings = nonNil(a.Failures), nonNil(a.Warnings)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
