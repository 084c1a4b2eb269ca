package session

import (
	"flag"
	"strconv"
	"time"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/report"
)

// meta gathers the JSON report's run metadata: the start time, the Go
// version, go test's benchmark flags from fs, the build's VCS stamp and
// the snapshot.
func meta(d Deps, start time.Time, snap env.Snapshot) report.Meta {
	m := report.Meta{Start: start, GoVersion: snap.GoVersion, GoTest: goTestFlags(d.fs), Env: &snap}
	if d.build != nil {
		if bi, ok := d.build(); ok && bi != nil {
			m.VCS = env.ParseVCS(bi.Settings)
		}
	}
	return m
}

// goTestFlags reads -test.bench, -test.benchtime, -test.count,
// -test.cpu and -test.benchmem from fs; an absent flag is left at its
// zero value, and Count at 1 unless fs says otherwise.
func goTestFlags(fs *flag.FlagSet) report.GoTestFlags {
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
