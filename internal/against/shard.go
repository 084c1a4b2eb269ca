package against

import (
	"fmt"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/shard"
)

// Shard narrows the plan to shard sh of its selection before anything is
// measured: of the top-level benchmarks of both builds that -test.bench
// and -test.skip select, those shard.Of puts in shard sh (see package
// shard), so that a benchmark found in one build only is listed by one
// shard too. newTops are this binary's top-level benchmarks, nil to list
// them from it; the base's are listed from it (-test.list), and with no
// base binary (a revision's package not at the base, or a base that did
// not build) this binary's alone are split. A base that cannot list
// them leaves its own benchmarks out of every shard, with a warning in
// the result. It returns how many top-level benchmarks the shard holds,
// of how many the selection holds; with none, the caller measures
// nothing.
func (p *Plan) Shard(sh settings.Shard, newTops []string) (kept, of int, err error) {
	if !sh.Set() {
		return 0, 0, nil
	}
	if newTops == nil {
		path, err := p.newExe()
		if err == nil {
			newTops, err = child.ListBenchmarks(child.Spec{Path: path, Shown: p.new.Path, Env: []string{"BENCHKIT_AGAINST="}, Timeout: time.Minute})
		}
		if err != nil {
			return 0, 0, fmt.Errorf("benchkit: -benchkit.shard=%s: %v; run without -benchkit.shard", sh, err)
		}
	}
	tops := newTops
	if p.basePin != nil { // nil: a revision's package not at the base, or a base that did not build
		path, err := p.basePin.path()
		if err == nil {
			var baseTops []string
			baseTops, err = child.ListBenchmarks(child.Spec{Path: path, Shown: p.base.Path, Env: []string{"BENCHKIT_AGAINST="}, Timeout: time.Minute})
			tops = append(tops, baseTops...)
		}
		if err != nil {
			p.warnings = append(p.warnings, fmt.Sprintf("benchkit: -benchkit.shard=%s: the base's benchmarks could not be listed (%v): a benchmark only in the base is in no shard", sh, err))
		}
	}
	p.asked, p.shard = p.pattern, sh
	p.pattern, kept, of = shard.Narrow(p.pkg, p.pattern, p.skip, tops, sh.K, sh.N)
	return kept, of, nil
}

// shownPattern is the -test.bench selection as the user gave it, before
// a shard narrowed it.
func (p Plan) shownPattern() string {
	if p.shard.Set() {
		return p.asked
	}
	return p.pattern
}

// Skipped returns the result of a plan whose shard holds none of the
// selected benchmarks: the binaries, the selection and the settings,
// nothing measured and nothing to fail (the other shards measure them).
func (p Plan) Skipped() Result {
	a := (&state{p: p, failed: map[string]bool{}}).result()
	a.NothingCompared = ""
	return a
}
