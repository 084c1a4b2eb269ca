package env

import (
	"runtime/debug"
	"strconv"
)

// VCS is the version-control stamp of a build, from
// runtime/debug.BuildInfo's vcs settings.
type VCS struct {
	// System is "git", "hg", ...; Revision the commit; Time its commit
	// time (RFC 3339) or "".
	System, Revision, Time string
	// Modified is true when the work tree had uncommitted changes; nil
	// when the stamp does not say.
	Modified *bool
}

// ParseVCS returns the vcs, vcs.revision, vcs.time and vcs.modified build
// settings, or nil when there is no revision (go test stamps test
// binaries only with -buildvcs=true).
func ParseVCS(settings []debug.BuildSetting) *VCS {
	var v VCS
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
