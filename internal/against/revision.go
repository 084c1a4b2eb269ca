package against

import (
	"debug/buildinfo"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/benchkit/go-benchkit/internal/basebuild"
)

// Revision is a base built from a git revision
// (-benchkit.against=origin/main) rather than given as a binary.
type Revision struct {
	// Rev is the revision as given; Commit the merge base of it and
	// HEAD, the commit the base was built at.
	Rev, Commit string
	// Reused is true when the base's binary came from the cache: a run
	// before this one built it.
	Reused bool
	// Flags are the go test flags and environment variables carried
	// from this binary's build to the base's.
	Flags []string
	// Missing says why the package has no base ("" when it has one): it
	// is not at the base, so every benchmark is new.
	Missing string
}

// ShortCommit is the first 12 digits of the merge base's hash.
func (r Revision) ShortCommit() string { return basebuild.Short(r.Commit) }

// fromRevision builds the base at the merge base of p.Rev and HEAD and
// returns its binary's path, or "" when there is none: the package is
// not at the base (p.rev.Missing) or did not build (p.buildFailure). The
// error is bad input, naming the fix.
func (p *Plan) fromRevision(log io.Writer) (string, error) {
	b, err := basebuild.Prepare(basebuild.Request{Rev: p.Rev, Pkg: p.pkg, Settings: p.newSettings,
		GoVersion: runtime.Version(), Timeout: p.timeout, Log: log})
	if err != nil {
		return "", err
	}
	p.built = b
	p.rev = &Revision{Rev: b.Rev, Commit: b.Commit, Reused: b.Reused, Flags: b.Flags, Missing: b.Missing}
	switch {
	case b.Failed != "":
		p.buildFailure = &Failure{Side: sideNames[sideBase], Build: true, Message: fmt.Sprintf("%s at %s", b.Failed, basebuild.Short(b.Commit)), Output: b.Output}
		return "", nil
	case b.Binary == "":
		return "", nil
	}
	if other := packageOf(b.Binary); p.pkg != "" && other != "" && other != p.pkg {
		p.rev.Missing = "at the base, its directory holds package " + other
		return "", nil
	}
	p.baseDir = b.Dir
	return b.Binary, nil
}

// packageOf is the package a test binary tests, "" when unknown.
func packageOf(path string) string {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(bi.Path, ".test")
}

// newOnly is Measure without a base binary: this binary's discovery
// process names its benchmarks (and fails the run if it fails), which
// are all new when the package is not at the base; when the base did not
// build, its failure says so and no benchmark is listed as new.
func (st *state) newOnly(dir string, fs *flag.FlagSet) Result {
	if f := st.p.buildFailure; f != nil {
		st.failures = append(st.failures, *f)
	}
	st.discoverOne(sideNew, dir, fs)
	return st.result()
}
