package session

import (
	"fmt"
	"time"

	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/shard"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/testingb"
)

// shardPlain narrows -test.bench on d.fs, before m runs, to shard
// cfg.Shard of the top-level benchmarks of m that it and -test.skip
// select (shard.Narrow), and returns the line that says so; "" without
// a shard. m's benchmarks are read from m, or listed from this binary
// when m does not show them.
func shardPlain(cfg settings.Config, d Deps, m any) (string, error) {
	if !cfg.Shard.Set() {
		return "", nil
	}
	tops := testingb.BenchmarkNames(m)
	if tops == nil {
		exe, err := child.Self()
		if err == nil {
			tops, err = child.ListBenchmarks(child.Spec{Path: exe, Timeout: time.Minute})
		}
		if err != nil {
			return "", fmt.Errorf("benchkit: -benchkit.shard=%s: %v; run without -benchkit.shard (checked before the run: nothing ran)", cfg.Shard, err)
		}
	}
	bench := testflag.Value(d.fs, "test.bench")
	pattern, kept, of := shard.Narrow(d.pkg, bench, testflag.Value(d.fs, "test.skip"), tops, cfg.Shard.K, cfg.Shard.N)
	if err := d.fs.Set("test.bench", pattern); err != nil {
		return "", fmt.Errorf("benchkit: -benchkit.shard=%s: %v", cfg.Shard, err)
	}
	return shardLine(cfg.Shard, d.pkg, kept, of), nil
}

// shardAgainst narrows plan p to shard cfg.Shard (against.Plan.Shard)
// and returns the line that says so ("" without a shard) and whether the
// shard holds none of the package's selected benchmarks.
func shardAgainst(p *against.Plan, cfg settings.Config, d Deps, m any) (line string, empty bool, err error) {
	if !cfg.Shard.Set() {
		return "", false, nil
	}
	kept, of, err := p.Shard(cfg.Shard, testingb.BenchmarkNames(m))
	if err != nil {
		return "", false, err
	}
	return shardLine(cfg.Shard, d.pkg, kept, of), kept == 0, nil
}

// shardLine says what shard sh of package pkg holds: kept of the of
// top-level benchmarks the selection holds.
func shardLine(sh settings.Shard, pkg string, kept, of int) string {
	if pkg == "" {
		pkg = "this package"
	}
	if kept == 0 {
		return fmt.Sprintf("shard %s: none of the %d top-level benchmarks -bench selects in %s; the other shards measure them", sh, of, pkg)
	}
	return fmt.Sprintf("shard %s: %d of the %d top-level benchmarks -bench selects in %s; the other shards measure the rest", sh, kept, of, pkg)
}

// note prints line ("" none) where the text report goes: stdout or
// stderr, not with the report off or in a file (the JSON report and the
// summary record the shard).
func note(cfg settings.Config, d Deps, line string) {
	if line == "" {
		return
	}
	switch cfg.Report {
	case "":
		fmt.Fprintln(d.stdout, report.Prefix+line)
	case settings.ReportStderr:
		fmt.Fprintln(d.stderr, report.Prefix+line)
	}
}
