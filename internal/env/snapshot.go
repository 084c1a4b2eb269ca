package env

import (
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// Snapshot describes the machine and the build a benchmark runs on. It is
// taken once, before the benchmarks, by [Probe].
//
// Every probe has an explicit known/unknown state: a field is meaningful
// only when its Known field is true. A probe that could not read its source
// (no /proc or /sys, not Linux, a garbled file) leaves Known false; it never
// returns an error and never guesses.
type Snapshot struct {
	// GoVersion is runtime.Version(), e.g. "go1.26.8". Always known.
	GoVersion string
	// GOOS and GOARCH are runtime.GOOS and runtime.GOARCH. Always known.
	GOOS, GOARCH string

	// NumCPU is runtime.NumCPU(): the logical CPUs usable by the process
	// (its CPU affinity mask on Linux). Always known, at least 1.
	NumCPU int
	// OnlineCPUs is the number of CPUs online in the whole machine, from
	// /sys/devices/system/cpu/online (e.g. "0-63"). It exceeds NumCPU when
	// the process is pinned to a subset of the CPUs. The load average is
	// machine-wide, so it is compared with OnlineCPUs when known.
	OnlineCPUs      int
	OnlineCPUsKnown bool
	// GOMAXPROCS is runtime.GOMAXPROCS(0) at probe time. Always known.
	GOMAXPROCS int
	// GOMAXPROCSEnv is the GOMAXPROCS environment variable, "" when unset.
	GOMAXPROCSEnv string

	// CPUName is the processor name go test prints on its "cpu:" line
	// ([GoTestCPU]'s rule: the CPUID brand string on amd64 and 386, else
	// /proc/cpuinfo's "model name" on Linux, else the sysctl on darwin
	// and the BSDs), spaces trimmed; CPUNameKnown is false where go test
	// prints none (arm64 Linux, whose /proc/cpuinfo has no model name;
	// windows without CPUID) or a name with control characters.
	CPUName      string
	CPUNameKnown bool
	// CPUModel is the processor name from /proc/cpuinfo: "model name" on
	// x86, else the first of "Processor", "cpu model", "cpu", "uarch",
	// "Hardware", else "CPU implementer"/"CPU part" decoded (arm64). On
	// VMs it often differs from CPUName ("AMD EPYC" where CPUID says
	// "Oxide Virtual Turin-like Processor").
	CPUModel      string
	CPUModelKnown bool

	// Load1, Load5 and Load15 are the 1, 5 and 15 minute load averages from
	// /proc/loadavg: the mean number of runnable (plus uninterruptible)
	// threads on the whole machine.
	Load1, Load5, Load15 float64
	LoadKnown            bool

	// Governors are the distinct CPU frequency governors found in
	// /sys/devices/system/cpu/cpuN/cpufreq/scaling_governor, sorted.
	// GovernorCPUs is how many CPUs had a readable governor and
	// NotPerformanceCPUs how many of those were not "performance".
	// GovernorKnown is false when no CPU exposed a governor (typical of VMs
	// and containers without cpufreq).
	Governors          []string
	GovernorCPUs       int
	NotPerformanceCPUs int
	GovernorKnown      bool

	// Turbo reports whether turbo/boost is enabled, from
	// /sys/devices/system/cpu/intel_pstate/no_turbo (0 means on) or
	// /sys/devices/system/cpu/cpufreq/boost (1 means on). TurboSource names
	// the file that decided it, relative to /sys/devices/system/cpu, and its
	// content, e.g. "intel_pstate/no_turbo = 0".
	Turbo       bool
	TurboSource string
	TurboKnown  bool

	// Virtualised reports whether a hypervisor was detected: the
	// "hypervisor" flag in /proc/cpuinfo (x86), /sys/hypervisor/type, or a
	// virtual-machine vendor in /sys/class/dmi/id/{sys_vendor,product_name}.
	// Hypervisor is the evidence, e.g. "KVM (dmi)" or "cpuinfo flag".
	// VirtualisedKnown is true when a hypervisor was found, or when a source
	// able to show one (x86 cpuinfo flags, DMI) was read and showed none.
	Virtualised      bool
	Hypervisor       string
	VirtualisedKnown bool

	// StealTime is the CPU time, summed over all CPUs, that the hypervisor
	// gave to other guests while this machine's CPUs were runnable, since
	// boot: the 8th field of the "cpu" line of /proc/stat, in USER_HZ ticks
	// of 10 ms. StealPercent is that time as a percentage of all CPU time
	// on the line (user+nice+system+idle+iowait+irq+softirq+steal).
	StealTime    time.Duration
	StealPercent float64
	StealKnown   bool

	// Race, Cover and OptimisationsOff describe the build, from
	// debug.ReadBuildInfo settings (-race=true, -cover=true, -gcflags
	// holding -N or -l) and testing.CoverMode. CoverMode is "set", "count",
	// "atomic", or "" (unknown mode or no coverage). GCFlags is the raw
	// -gcflags setting. BuildKnown is false when the binary carries no
	// build information.
	Race             bool
	Cover            bool
	CoverMode        string
	OptimisationsOff bool
	GCFlags          string
	BuildKnown       bool
}

// Fact is one line of the environment header: a short lowercase Name
// without ':' (e.g. "gomaxprocs") and a one-line Value, "unknown" where the
// probe could not read.
type Fact struct{ Name, Value string }

// Stable reports whether the fact's value stays the same between runs of
// the same build on the same machine: every fact but "load" and "steal".
// Only stable facts may be printed as benchfmt configuration lines
// ("name: value"): benchstat groups results by configuration, so a value
// that changes between runs would split its tables.
func (f Fact) Stable() bool {
	return f.Name != "load" && f.Name != "steal"
}

// Warning is one environment problem that can distort benchmark results.
// Key is a stable short lowercase identifier (e.g. "governor"). Message says
// what is wrong, the numbers and the fix, with no prefix: the report adds
// its own. Short says what is wrong in a few words with its number, for a
// header line ("load 3.10 above 2 CPUs"); "" where there is none.
type Warning struct{ Key, Message, Short string }

// Headline is w's Short, or when it has none the start of its Message, up
// to the first ": " (what is wrong, before why and the fix).
func (w Warning) Headline() string {
	if w.Short != "" {
		return w.Short
	}
	head, _, _ := strings.Cut(w.Message, ": ")
	return head
}

// KeyVirtualisation is the Key of the warning that a hypervisor was found.
const KeyVirtualisation = "virtualisation"

// Unknown is the Fact value of a probe that could not read its source.
const Unknown = "unknown"

// StealWarnPercent is the steal time, as a percentage of all CPU time since
// boot, at or above which [Snapshot.Warnings] warns. Below it steal is only
// shown as a fact: a few ticks of steal are normal on any VM.
const StealWarnPercent = 2.0

// userHZ is the unit of /proc/stat: USER_HZ is 100 on every Linux
// architecture Go supports (the kernel ABI fixes it, whatever CONFIG_HZ is).
const userHZ = 100

// runtimeInfo is what Probe reads from the Go runtime, separated so tests
// can substitute it.
type runtimeInfo struct {
	GoVersion, GOOS, GOARCH string
	NumCPU, GOMAXPROCS      int
	GOMAXPROCSEnv           string
	Settings                []debug.BuildSetting
	BuildInfoOK             bool
	CoverMode               string
	// CPUIDBrand is the CPUID brand string ("" without CPUID); OSCPUName
	// the operating system's name for the processor outside Linux (the
	// sysctl on darwin and the BSDs, else ""): the sources of go test's
	// cpu line besides /proc/cpuinfo, which probeFS reads itself.
	CPUIDBrand, OSCPUName string
}

func liveRuntime() runtimeInfo {
	rt := runtimeInfo{
		GoVersion:     runtime.Version(),
		GOOS:          runtime.GOOS,
		GOARCH:        runtime.GOARCH,
		NumCPU:        runtime.NumCPU(),
		GOMAXPROCS:    runtime.GOMAXPROCS(0),
		GOMAXPROCSEnv: os.Getenv("GOMAXPROCS"),
		CoverMode:     testing.CoverMode(),
		CPUIDBrand:    cpuidBrand(),
	}
	if runtime.GOOS != "linux" {
		rt.OSCPUName = osCPUName()
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		rt.Settings = bi.Settings
		rt.BuildInfoOK = true
	}
	return rt
}

// Probe reads the live machine: the Go runtime, the build information, and
// on Linux /proc and /sys. It takes under a millisecond (0.43 ms measured on
// a loaded 2-vCPU VM by BenchmarkProbe) and never fails: what it cannot read
// stays unknown.
func Probe() Snapshot {
	return probeFS(liveFS(), liveRuntime())
}

// probeFS builds a Snapshot from a filesystem rooted like "/" and runtime
// facts. All file parsing goes through fsys so fixtures can stand in for a
// machine on every OS.
func probeFS(fsys fs.FS, rt runtimeInfo) Snapshot {
	s := Snapshot{
		GoVersion:     rt.GoVersion,
		GOOS:          rt.GOOS,
		GOARCH:        rt.GOARCH,
		NumCPU:        max(rt.NumCPU, 1),
		GOMAXPROCS:    max(rt.GOMAXPROCS, 1),
		GOMAXPROCSEnv: rt.GOMAXPROCSEnv,
	}
	if b, ok := readSmall(fsys, cpuDir+"/online"); ok {
		s.OnlineCPUs, s.OnlineCPUsKnown = parseCPUList(b)
	}
	cpuinfo, cpuinfoOK := readSmall(fsys, "proc/cpuinfo")
	if cpuinfoOK {
		s.CPUModel, s.CPUModelKnown = parseCPUModel(cpuinfo)
	}
	if name := strings.TrimSpace(goTestName(rt.CPUIDBrand, rt.GOOS == "linux", cpuinfo, rt.OSCPUName)); name != "" && printable(name) {
		s.CPUName, s.CPUNameKnown = name, true
	}
	if b, ok := readSmall(fsys, "proc/loadavg"); ok {
		s.Load1, s.Load5, s.Load15, s.LoadKnown = parseLoadavg(b)
	}
	s.Governors, s.GovernorCPUs, s.NotPerformanceCPUs, s.GovernorKnown = readGovernors(fsys)
	s.Turbo, s.TurboSource, s.TurboKnown = readTurbo(fsys)
	s.Virtualised, s.Hypervisor, s.VirtualisedKnown = readVirtualisation(fsys, cpuinfo, cpuinfoOK)
	if b, ok := readSmall(fsys, "proc/stat"); ok {
		if st, ok := parseStatCPU(b); ok {
			s.StealTime = st.stealTime()
			s.StealPercent = st.stealPercent()
			s.StealKnown = true
		}
	}
	s.applyBuild(rt)
	return s
}

// Facts returns the snapshot as ordered name/value pairs for the report
// header: go, cpu, cpus, gomaxprocs, load, governor, turbo, virtualisation,
// steal, build. A value is "unknown" where the probe could not read.
func (s Snapshot) Facts() []Fact {
	f := []Fact{
		{"go", fmt.Sprintf("%s %s/%s", s.GoVersion, s.GOOS, s.GOARCH)},
		{"cpu", s.cpuValue()},
		{"cpus", s.cpusValue()},
		{"gomaxprocs", strconv.Itoa(s.GOMAXPROCS)},
		{"load", known(s.LoadKnown, fmt.Sprintf("%.2f %.2f %.2f (1, 5, 15 min)", s.Load1, s.Load5, s.Load15))},
		{"governor", known(s.GovernorKnown, s.governorValue())},
		{"turbo", known(s.TurboKnown, s.turboValue())},
		{"virtualisation", known(s.VirtualisedKnown, s.virtValue())},
		{"steal", known(s.StealKnown, fmt.Sprintf("%s since boot (%.2f%% of CPU time)", fmtSeconds(s.StealTime), s.StealPercent))},
		{"build", known(s.BuildKnown, s.buildValue())},
	}
	for i := range f {
		f[i].Value = textfmt.OneLine(f[i].Value)
	}
	return f
}

// cpuValue is the cpu fact: go test's name for the processor, so that
// the report and go test's cpu line agree; where go test prints none, the
// /proc/cpuinfo name; else unknown.
func (s Snapshot) cpuValue() string {
	if s.CPUNameKnown {
		return s.CPUName
	}
	return known(s.CPUModelKnown, s.CPUModel)
}

// Warnings returns the environment problems worth acting on, most serious
// first (build flags, then machine load, then CPU settings), each with the
// numbers and the fix. Unknown probes never warn.
func (s Snapshot) Warnings() []Warning {
	var w []Warning
	add := func(key, short, format string, args ...any) {
		w = append(w, Warning{key, textfmt.OneLine(fmt.Sprintf(format, args...)), short})
	}
	if s.BuildKnown && s.Race {
		add("race", "race detector on", "built with the race detector (-race): it slows memory accesses 2-20x and synchronisation more; "+
			"benchmark without -race")
	}
	if s.BuildKnown && s.Cover {
		mode := s.CoverMode
		if mode == "" {
			mode = "on"
		}
		add("cover", "coverage on", "built with coverage (cover mode %s): counters are added to every basic block; "+
			"benchmark without -cover or -coverprofile", mode)
	}
	if s.BuildKnown && s.OptimisationsOff {
		add("optimisations", "optimisations off", "built with optimisations or inlining off (-gcflags=%s): the timings are not those of a "+
			"normal build; remove -N and -l from -gcflags", s.GCFlags)
	}
	if cpus := s.machineCPUs(); s.LoadKnown && s.Load1 > float64(cpus) {
		add("load", fmt.Sprintf("load %.2f above %d CPUs", s.Load1, cpus), "load average %.2f over the last minute is above the %d CPUs: other processes are competing for "+
			"them; stop other work or benchmark on a quiet machine", s.Load1, cpus)
	}
	switch {
	case s.GOMAXPROCS < s.NumCPU:
		add("gomaxprocs", fmt.Sprintf("GOMAXPROCS %d of %d CPUs", s.GOMAXPROCS, s.NumCPU), "GOMAXPROCS is %d but %d CPUs are usable%s: parallel benchmarks use fewer CPUs than the machine "+
			"offers; unset GOMAXPROCS (or raise the container's CPU limit) unless this is intended",
			s.GOMAXPROCS, s.NumCPU, gomaxprocsCause(s.GOMAXPROCSEnv, "set by the GOMAXPROCS variable", "likely a cgroup CPU limit"))
	case s.GOMAXPROCS > s.NumCPU:
		add("gomaxprocs", fmt.Sprintf("GOMAXPROCS %d above %d CPUs", s.GOMAXPROCS, s.NumCPU), "GOMAXPROCS is %d but only %d CPUs are usable%s: goroutines time-share the CPUs; "+
			"set GOMAXPROCS to at most %d", s.GOMAXPROCS, s.NumCPU,
			gomaxprocsCause(s.GOMAXPROCSEnv, "set by the GOMAXPROCS variable", "set by runtime.GOMAXPROCS"), s.NumCPU)
	}
	if s.GovernorKnown && s.NotPerformanceCPUs > 0 {
		add("governor", "governor "+strings.Join(nonPerformance(s.Governors), ","), "CPU frequency governor is %s on %d of %d CPUs, not performance: the clock speed follows the "+
			"load; run `sudo cpupower frequency-set -g performance` (or `pyperf system tune`)",
			strings.Join(nonPerformance(s.Governors), ","), s.NotPerformanceCPUs, s.GovernorCPUs)
	}
	if s.TurboKnown && s.Turbo {
		fix := "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"
		if strings.HasPrefix(s.TurboSource, "cpufreq/boost") {
			fix = "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost"
		}
		add("turbo", "turbo on", "turbo boost is on (%s): the clock speed depends on temperature and on how many cores are busy; "+
			"run `%s`", s.TurboSource, fix)
	}
	if s.VirtualisedKnown && s.Virtualised {
		add(KeyVirtualisation, "under a hypervisor", "running under a hypervisor (%s): other guests share the physical CPUs and caches, so "+
			"timings drift between runs; compare only runs interleaved in one process, or use bare metal",
			s.Hypervisor)
	}
	if s.StealKnown && s.StealPercent >= StealWarnPercent {
		add("steal", fmt.Sprintf("steal %.1f%%", s.StealPercent), "the hypervisor took %.1f%% of CPU time since boot (%s of steal): the host is oversubscribed; "+
			"use a dedicated instance, or compare only runs interleaved in one process",
			s.StealPercent, fmtSeconds(s.StealTime))
	}
	return w
}

func known(ok bool, v string) string {
	if !ok || v == "" {
		return Unknown
	}
	return v
}

func gomaxprocsCause(env, byEnv, otherwise string) string {
	if env != "" {
		return " (" + byEnv + ")"
	}
	return " (" + otherwise + ")"
}

func nonPerformance(govs []string) []string {
	var out []string
	for _, g := range govs {
		if g != "performance" {
			out = append(out, g)
		}
	}
	return out
}

// machineCPUs is the CPU count the machine-wide load average is compared
// with: OnlineCPUs when known, else NumCPU.
func (s Snapshot) machineCPUs() int {
	if s.OnlineCPUsKnown && s.OnlineCPUs > 0 {
		return s.OnlineCPUs
	}
	return s.NumCPU
}

func (s Snapshot) cpusValue() string {
	if s.OnlineCPUsKnown && s.OnlineCPUs != s.NumCPU {
		return fmt.Sprintf("%d usable of %d online", s.NumCPU, s.OnlineCPUs)
	}
	return strconv.Itoa(s.NumCPU)
}

func (s Snapshot) governorValue() string {
	v := strings.Join(s.Governors, ",")
	if len(s.Governors) > 1 || s.GovernorCPUs != s.NumCPU {
		v += fmt.Sprintf(" (%d CPUs read)", s.GovernorCPUs)
	}
	return v
}

func (s Snapshot) turboValue() string {
	if s.Turbo {
		return "on (" + s.TurboSource + ")"
	}
	return "off (" + s.TurboSource + ")"
}

func (s Snapshot) virtValue() string {
	if s.Virtualised {
		return "yes: " + s.Hypervisor
	}
	return "none detected"
}

func (s Snapshot) buildValue() string {
	var parts []string
	if s.Race {
		parts = append(parts, "race on")
	}
	if s.Cover {
		if s.CoverMode != "" {
			parts = append(parts, "cover "+s.CoverMode)
		} else {
			parts = append(parts, "cover on")
		}
	}
	if s.OptimisationsOff {
		parts = append(parts, "optimisations off (-gcflags="+s.GCFlags+")")
	}
	if len(parts) == 0 {
		return "optimised, no race, no cover"
	}
	return strings.Join(parts, ", ")
}

// fmtSeconds formats a duration as seconds with two decimals, e.g. "0.83 s".
func fmtSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
}
