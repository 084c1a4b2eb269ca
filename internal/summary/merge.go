package summary

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/benchkit/go-benchkit/internal/report"
)

// Merge merges the parts of the shards of one run (as Read returns
// them from each shard's summary) into one part per package: the listed
// benchmarks of every shard of the package, the counts summed, the
// failures of each, why it was not compared or is new (the lowest shard
// that says so), and the shard {k: 0, n: N, merged: the shards}. A
// package's single part that is not a shard is kept as it is. It fails,
// naming the fix, when a package's parts are not the shards of one split
// (a part that is not a shard beside others, different N, one shard
// twice) or a benchmark is listed by two shards.
func Merge(parts []Part) ([]Part, error) {
	byPkg := map[string][]Part{}
	for _, p := range parts {
		byPkg[p.Package] = append(byPkg[p.Package], p)
	}
	var out []Part
	for _, pkg := range slices.Sorted(maps.Keys(byPkg)) {
		m, err := mergePackage(byPkg[pkg])
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// mergePackage merges one package's parts.
func mergePackage(ps []Part) (Part, error) {
	if len(ps) == 1 && (ps[0].Shard == nil || ps[0].Shard.K == 0) {
		return ps[0], nil
	}
	slices.SortFunc(ps, func(x, y Part) int { return cmp.Compare(shardK(x), shardK(y)) })
	pkg := ps[0].Package
	m := Part{Package: pkg, Against: ps[0].Against, Rest: map[string]int{}}
	seen := map[string]int{}
	for _, p := range ps {
		switch s := p.Shard; {
		case s == nil || s.K == 0:
			return Part{}, fmt.Errorf("summary: package %s has a part that is not one shard's (shard %s) beside others: merge the summaries of one run's -benchkit.shard=K/N jobs, each once", pkg, shardText(s))
		case s.N != ps[0].Shard.N:
			return Part{}, fmt.Errorf("summary: package %s has shards of %d and of %d: merge the shards of one split, all with the same N", pkg, ps[0].Shard.N, s.N)
		case m.Shard != nil && slices.Contains(m.Shard.Merged, s.K):
			return Part{}, fmt.Errorf("summary: shard %d/%d of package %s is given twice: give each shard's summary once", s.K, s.N, pkg)
		}
		if m.Shard == nil {
			m.Shard = &report.JSONShard{N: p.Shard.N, Merged: []int{}}
		}
		m.Shard.Merged = append(m.Shard.Merged, p.Shard.K)
		for _, e := range p.Entries {
			if k, dup := seen[e.Name]; dup {
				return Part{}, fmt.Errorf("summary: %s of package %s is listed by shards %d and %d of %d: the shards overlap; merge the shards of one run", e.Name, pkg, k, p.Shard.K, p.Shard.N)
			}
			seen[e.Name] = p.Shard.K
		}
		m.Entries = append(m.Entries, p.Entries...)
		for k, n := range p.Rest {
			m.Rest[k] += n
		}
		m.Failures = append(m.Failures, p.Failures...)
		m.Failed = m.Failed || p.Failed
		m.NotCompared = cmp.Or(m.NotCompared, p.NotCompared)
		m.New = cmp.Or(m.New, p.New)
	}
	return m, nil
}

func shardText(s *report.JSONShard) string {
	if s == nil {
		return "none"
	}
	if s.K == 0 {
		return fmt.Sprintf("merged %v of %d", s.Merged, s.N)
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}
