package benchkit

import (
	"flag"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/report"
)

// mainMeta gathers the JSON report's run metadata: the start time, the Go
// version, go test's benchmark flags from fs, the build's VCS stamp and
// the snapshot.
func mainMeta(d mainDeps, start time.Time, snap env.Snapshot) report.Meta {
	m := report.Meta{Start: start, GoVersion: snap.GoVersion, GoTest: mainGoTestFlags(d.fs), Env: &snap}
	if d.build != nil {
		if bi, ok := d.build(); ok && bi != nil {
			m.VCS = mainVCS(bi.Settings)
		}
	}
	return m
}

// mainGoTestFlags reads -test.bench, -test.benchtime, -test.count,
// -test.cpu and -test.benchmem from fs; an absent flag is left at its
// zero value, and Count at 1 unless fs says otherwise.
func mainGoTestFlags(fs *flag.FlagSet) report.GoTestFlags {
	get := func(name string) string {
		if f := fs.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	g := report.GoTestFlags{Bench: get("test.bench"), Benchtime: get("test.benchtime"), CPU: get("test.cpu"), Count: 1}
	if n, err := strconv.Atoi(get("test.count")); err == nil && n >= 1 {
		g.Count = n
	}
	g.Benchmem, _ = strconv.ParseBool(get("test.benchmem"))
	return g
}

// mainVCS returns the vcs, vcs.revision, vcs.time and vcs.modified build
// settings, or nil when there is no revision (go test stamps test
// binaries only with -buildvcs=true).
func mainVCS(settings []debug.BuildSetting) *report.VCS {
	var v report.VCS
	for _, s := range settings {
		switch s.Key {
		case "vcs":
			v.System = s.Value
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			if b, err := strconv.ParseBool(s.Value); err == nil {
				v.Modified = &b
			}
		}
	}
	if v.Revision == "" {
		return nil
	}
	return &v
}
