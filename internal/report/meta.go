package report

import (
	"runtime/debug"
	"strconv"
	"time"

	"github.com/benchkit/go-benchkit/internal/env"
)

// Meta is what the JSON report records about the run itself, so that
// reports from different days, machines and commits can be lined up: when
// it started, the toolchain, go test's flags, the commit, and the
// environment snapshot as typed fields.
type Meta struct {
	// Start is when benchkit.Main began (before the warm-up); zero when
	// unknown.
	Start time.Time
	// GoVersion is runtime.Version(), e.g. "go1.26.8"; "" unknown.
	GoVersion string
	// GoTest holds go test's benchmark flags as given.
	GoTest GoTestFlags
	// VCS is the version-control stamp of the test binary, nil when the
	// build has none (go test stamps one only with -buildvcs=true).
	VCS *VCS
	// Env is the environment snapshot the facts came from; nil when not
	// probed.
	Env *env.Snapshot
}

// GoTestFlags are go test's benchmark flags, each as the test binary
// parsed it (the -test.* flag's String()).
type GoTestFlags struct {
	// Bench is the -bench regular expression.
	Bench string
	// Benchtime is -benchtime: a duration ("1s") or an iteration count
	// ("100x").
	Benchtime string
	// Count is -count, at least 1.
	Count int
	// CPU is the -cpu list ("1,2,4"), "" when not given (GOMAXPROCS).
	CPU string
	// Benchmem is -benchmem.
	Benchmem bool
}

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

type jsonGoTest struct {
	Bench     string `json:"bench"`
	Benchtime string `json:"benchtime"`
	Count     int    `json:"count"`
	CPU       string `json:"cpu"`
	Benchmem  bool   `json:"benchmem"`
}

type jsonVCS struct {
	System   string `json:"system"`
	Revision string `json:"revision"`
	Time     string `json:"time"`
	Modified *bool  `json:"modified"`
}

// jsonMachine is the environment snapshot as typed fields, flattened into
// the JSON report's "environment" object next to facts and warnings.
// Unknown numbers and booleans are null; unknown enums are "unknown".
type jsonMachine struct {
	CPUModel      *string  `json:"cpu_model"`
	CPUs          *int     `json:"cpus"`
	OnlineCPUs    *int     `json:"online_cpus"`
	GOMAXPROCS    *int     `json:"gomaxprocs"`
	GOMAXPROCSEnv string   `json:"gomaxprocs_env"`
	Load1         *float64 `json:"load_1m"`
	Load5         *float64 `json:"load_5m"`
	Load15        *float64 `json:"load_15m"`
	// Governor is "performance" (every CPU read), "not-performance" (at
	// least one CPU is not) or "unknown".
	Governor           string   `json:"governor"`
	Governors          []string `json:"governors"`
	GovernorCPUs       *int     `json:"governor_cpus"`
	NotPerformanceCPUs *int     `json:"not_performance_cpus"`
	// Turbo is "on", "off" or "unknown".
	Turbo       string `json:"turbo"`
	TurboSource string `json:"turbo_source"`
	// Virtualisation is "yes", "none-detected" or "unknown".
	Virtualisation   string   `json:"virtualisation"`
	Hypervisor       string   `json:"hypervisor"`
	StealNs          *int64   `json:"steal_ns"`
	StealPct         *float64 `json:"steal_pct"`
	Race             *bool    `json:"race"`
	Cover            *bool    `json:"cover"`
	CoverMode        string   `json:"cover_mode"`
	OptimisationsOff *bool    `json:"optimisations_off"`
	GCFlags          string   `json:"gcflags"`
}

// addMeta fills the run's metadata and the environment's typed fields of
// rep from in.
func addMeta(rep *jsonReport, in Input) {
	m := in.Meta
	if !m.Start.IsZero() {
		s := m.Start.UTC().Format(time.RFC3339Nano)
		rep.StartTime = &s
	}
	rep.GoVersion = m.GoVersion
	rep.CPU = in.CPU
	rep.GoTest = jsonGoTest(m.GoTest)
	if v := m.VCS; v != nil {
		rep.VCS = &jsonVCS{System: v.System, Revision: v.Revision, Time: v.Time, Modified: v.Modified}
	}
	rep.Environment.jsonMachine = machine(m.Env)
}

// machine converts a snapshot; nil gives every field unknown.
func machine(s *env.Snapshot) jsonMachine {
	j := jsonMachine{Governor: env.Unknown, Governors: []string{}, Turbo: env.Unknown, Virtualisation: env.Unknown}
	if s == nil {
		return j
	}
	intp := func(v int) *int { return &v }
	boolp := func(v bool) *bool { return &v }
	if s.CPUModelKnown {
		j.CPUModel = &s.CPUModel
	}
	j.CPUs, j.GOMAXPROCS, j.GOMAXPROCSEnv = intp(s.NumCPU), intp(s.GOMAXPROCS), s.GOMAXPROCSEnv
	if s.OnlineCPUsKnown {
		j.OnlineCPUs = intp(s.OnlineCPUs)
	}
	if s.LoadKnown {
		j.Load1, j.Load5, j.Load15 = num(s.Load1), num(s.Load5), num(s.Load15)
	}
	if s.GovernorKnown {
		j.Governor = "performance"
		if s.NotPerformanceCPUs > 0 {
			j.Governor = "not-performance"
		}
		j.Governors = append(j.Governors, s.Governors...)
		j.GovernorCPUs, j.NotPerformanceCPUs = intp(s.GovernorCPUs), intp(s.NotPerformanceCPUs)
	}
	if s.TurboKnown {
		j.Turbo, j.TurboSource = "off", s.TurboSource
		if s.Turbo {
			j.Turbo = "on"
		}
	}
	if s.VirtualisedKnown {
		j.Virtualisation, j.Hypervisor = "none-detected", s.Hypervisor
		if s.Virtualised {
			j.Virtualisation = "yes"
		}
	}
	if s.StealKnown {
		ns := int64(s.StealTime)
		j.StealNs, j.StealPct = &ns, num(s.StealPercent)
	}
	if s.BuildKnown {
		j.Race, j.Cover, j.OptimisationsOff = boolp(s.Race), boolp(s.Cover), boolp(s.OptimisationsOff)
		j.CoverMode, j.GCFlags = s.CoverMode, s.GCFlags
	}
	return j
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
