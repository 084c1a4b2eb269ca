package env

import (
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxRead bounds every file read: /proc/cpuinfo of a 256-CPU machine is
// about 1 MiB; nothing the probes read is legitimately larger.
const maxRead = 4 << 20

// emptyFS is a filesystem with no files: the live root outside Linux.
type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// readSmall reads name from fsys, at most maxRead bytes. Files in /proc
// report size 0, so it reads to EOF rather than trusting Stat.
func readSmall(fsys fs.FS, name string) (string, bool) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRead))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// parseLoadavg parses /proc/loadavg, "0.48 0.91 0.45 1/96 15676", into the
// 1, 5 and 15 minute load averages.
func parseLoadavg(s string) (l1, l5, l15 float64, ok bool) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return 0, 0, 0, false
	}
	var v [3]float64
	for i := range v {
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, 0, 0, false
		}
		v[i] = x
	}
	return v[0], v[1], v[2], true
}

// statCPU holds the aggregate "cpu" line of /proc/stat, in USER_HZ ticks.
type statCPU struct {
	steal uint64 // 8th field
	total uint64 // fields 1-8 (guest time is already inside user and nice)
}

func (c statCPU) stealTime() time.Duration {
	return time.Duration(c.steal) * (time.Second / userHZ)
}

func (c statCPU) stealPercent() float64 {
	if c.total == 0 {
		return 0
	}
	return 100 * float64(c.steal) / float64(c.total)
}

// parseStatCPU finds the aggregate "cpu" line of /proc/stat,
// "cpu  user nice system idle iowait irq softirq steal guest guest_nice",
// and returns its steal field and the sum of the first eight fields. It
// fails when the line is missing, has fewer than eight fields (kernels
// before 2.6.11) or holds a non-number.
func parseStatCPU(s string) (statCPU, bool) {
	for line := range strings.Lines(s) {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "cpu" {
			continue
		}
		if len(f) < 9 {
			return statCPU{}, false
		}
		var c statCPU
		for i := 1; i <= 8; i++ {
			v, err := strconv.ParseUint(f[i], 10, 64)
			if err != nil || c.total+v < c.total {
				return statCPU{}, false
			}
			c.total += v
			if i == 8 {
				c.steal = v
			}
		}
		return c, true
	}
	return statCPU{}, false
}

// cpuinfoValue returns the first non-empty value of key in /proc/cpuinfo text.
// Lines look like "model name\t: Intel(R) Xeon(R) Processor"; keys match
// exactly (case-sensitive: "Processor" is not "processor").
func cpuinfoValue(cpuinfo, key string) (string, bool) {
	for line := range strings.Lines(cpuinfo) {
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) != key {
			continue
		}
		v = strings.TrimSpace(v)
		if v != "" {
			return v, true
		}
	}
	return "", false
}

// parseCPUModel returns a processor name from /proc/cpuinfo: "model name"
// (x86, and arm64 on some kernels), else "Processor" (old ARM kernels),
// "cpu model" (MIPS), "cpu" (POWER), "uarch" (RISC-V), else the decoded
// "CPU implementer" and "CPU part" (arm64), else "Hardware" (the board).
func parseCPUModel(cpuinfo string) (string, bool) {
	for _, key := range []string{"model name", "Processor", "cpu model", "cpu", "uarch"} {
		if v, ok := cpuinfoValue(cpuinfo, key); ok && printable(v) {
			return v, true
		}
	}
	impl, okImpl := cpuinfoValue(cpuinfo, "CPU implementer")
	part, okPart := cpuinfoValue(cpuinfo, "CPU part")
	if okImpl && okPart {
		if v, ok := armName(impl, part); ok {
			return v, true
		}
	}
	if v, ok := cpuinfoValue(cpuinfo, "Hardware"); ok && printable(v) {
		return v, true
	}
	return "", false
}

// armName decodes the arm64 MIDR implementer and part numbers found in
// /proc/cpuinfo (e.g. "0x41", "0xd0c") for the most common server and
// laptop cores; other parts are shown by number.
func armName(impl, part string) (string, bool) {
	i, err1 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(impl), "0x"), 16, 8)
	p, err2 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(part), "0x"), 16, 16)
	if err1 != nil || err2 != nil {
		return "", false
	}
	vendors := map[uint64]string{
		0x41: "ARM", 0x42: "Broadcom", 0x43: "Cavium", 0x46: "Fujitsu", 0x48: "HiSilicon",
		0x4e: "NVIDIA", 0x50: "APM", 0x51: "Qualcomm", 0x61: "Apple", 0x6d: "Microsoft", 0xc0: "Ampere",
	}
	armParts := map[uint64]string{
		0xd03: "Cortex-A53", 0xd04: "Cortex-A35", 0xd05: "Cortex-A55", 0xd07: "Cortex-A57",
		0xd08: "Cortex-A72", 0xd09: "Cortex-A73", 0xd0a: "Cortex-A75", 0xd0b: "Cortex-A76",
		0xd0c: "Neoverse-N1", 0xd0d: "Cortex-A77", 0xd40: "Neoverse-V1", 0xd41: "Cortex-A78",
		0xd49: "Neoverse-N2", 0xd4f: "Neoverse-V2", 0xd84: "Neoverse-V3", 0xd8e: "Neoverse-N3",
	}
	vendor, ok := vendors[i]
	if !ok {
		vendor = "implementer 0x" + strconv.FormatUint(i, 16)
	}
	if i == 0x41 {
		if name, ok := armParts[p]; ok {
			return vendor + " " + name, true
		}
	}
	return vendor + " part 0x" + strconv.FormatUint(p, 16), true
}

const cpuDir = "sys/devices/system/cpu"

// maxCPUs bounds parseCPUList against absurd ranges in a garbled file.
const maxCPUs = 1 << 16

// parseCPUList counts the CPUs in a kernel CPU list such as "0-63" or
// "0,2-5,8" (/sys/devices/system/cpu/online). A list that does not parse,
// holds a CPU number beyond 32 bits, or counts more than maxCPUs CPUs is
// unknown (ok false), whatever the size of int: the count is kept in 64
// bits and bounded before it becomes an int.
func parseCPUList(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	var n uint64
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseUint(lo, 10, 32)
		if err != nil {
			return 0, false
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(hi, 10, 32); err != nil || b < a {
				return 0, false
			}
		}
		// a and b fit in 32 bits, so neither b-a+1 nor n, at most
		// maxCPUs before the addition, can wrap in 64.
		n += b - a + 1
		if n > maxCPUs {
			return 0, false
		}
	}
	return int(n), true
}

// readGovernors reads cpuN/cpufreq/scaling_governor for every cpuN
// directory. It returns the distinct valid governor names (sorted), how many
// CPUs had one, how many of those were not "performance", and whether any
// was found.
func readGovernors(fsys fs.FS) (govs []string, cpus, notPerf int, ok bool) {
	entries, err := fs.ReadDir(fsys, cpuDir)
	if err != nil {
		return nil, 0, 0, false
	}
	for _, e := range entries {
		if !isCPUDir(e.Name()) {
			continue
		}
		b, ok := readSmall(fsys, cpuDir+"/"+e.Name()+"/cpufreq/scaling_governor")
		if !ok {
			continue
		}
		g := strings.TrimSpace(b)
		if !isWord(g) {
			continue
		}
		cpus++
		if g != "performance" {
			notPerf++
		}
		if !slices.Contains(govs, g) {
			govs = append(govs, g)
		}
	}
	slices.Sort(govs)
	return govs, cpus, notPerf, cpus > 0
}

// isCPUDir reports whether name is "cpu" followed by decimal digits.
func isCPUDir(name string) bool {
	n, ok := strings.CutPrefix(name, "cpu")
	if !ok || n == "" {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// isWord reports whether s is a plausible sysfs keyword: 1-32 characters
// of [a-z0-9_-].
func isWord(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// readTurbo reads intel_pstate/no_turbo ("0": turbo on, "1": off), else
// cpufreq/boost ("1": on, "0": off). Any other content is unknown.
func readTurbo(fsys fs.FS) (on bool, source string, ok bool) {
	if b, found := readSmall(fsys, cpuDir+"/intel_pstate/no_turbo"); found {
		switch strings.TrimSpace(b) {
		case "0":
			return true, "intel_pstate/no_turbo = 0", true
		case "1":
			return false, "intel_pstate/no_turbo = 1", true
		}
	}
	if b, found := readSmall(fsys, cpuDir+"/cpufreq/boost"); found {
		switch strings.TrimSpace(b) {
		case "1":
			return true, "cpufreq/boost = 1", true
		case "0":
			return false, "cpufreq/boost = 0", true
		}
	}
	return false, "", false
}

// vmVendors are substrings of DMI sys_vendor or product_name that name a
// virtual machine, matched case-insensitively, with the name to show.
var vmVendors = []struct{ match, name string }{
	{"qemu", "QEMU"}, {"kvm", "KVM"}, {"vmware", "VMware"}, {"virtualbox", "VirtualBox"},
	{"innotek", "VirtualBox"}, {"xen", "Xen"}, {"bochs", "Bochs"}, {"parallels", "Parallels"},
	{"bhyve", "bhyve"}, {"virtual machine", "Hyper-V"}, {"google compute engine", "Google Compute Engine"},
	{"openstack", "OpenStack"}, {"cloud hypervisor", "Cloud Hypervisor"}, {"firecracker", "Firecracker"},
	{"apple virtualization", "Apple Virtualization"},
}

// readVirtualisation looks for a hypervisor: the "hypervisor" CPU flag in
// /proc/cpuinfo (x86 sets it in every guest), /sys/hypervisor/type (Xen),
// and a VM vendor in /sys/class/dmi/id/sys_vendor or product_name. The
// answer is known when a hypervisor was found, or when a source that would
// show one (an x86 "flags" line, a DMI file) was read.
func readVirtualisation(fsys fs.FS, cpuinfo string, cpuinfoOK bool) (virt bool, evidence string, ok bool) {
	var found []string
	decisive := false
	if cpuinfoOK {
		if flags, has := cpuinfoValue(cpuinfo, "flags"); has {
			decisive = true
			if slices.Contains(strings.Fields(flags), "hypervisor") {
				found = append(found, "cpuinfo hypervisor flag")
			}
		}
	}
	if b, has := readSmall(fsys, "sys/hypervisor/type"); has {
		if t := strings.TrimSpace(b); isWord(t) {
			found = append(found, t+" (/sys/hypervisor/type)")
		}
	}
	var dmi []string
	for _, name := range []string{"sys_vendor", "product_name"} {
		if b, has := readSmall(fsys, "sys/class/dmi/id/"+name); has {
			if v := strings.TrimSpace(b); v != "" && printable(v) {
				dmi = append(dmi, v)
			}
		}
	}
	if len(dmi) > 0 {
		decisive = true
		joined := strings.ToLower(strings.Join(dmi, " "))
		name := ""
		if strings.Contains(joined, "amazon ec2") && !strings.Contains(joined, "metal") {
			name = "Amazon EC2" // Nitro instances are KVM guests; only *.metal types are not
		}
		for _, vm := range vmVendors {
			if name == "" && strings.Contains(joined, vm.match) {
				name = vm.name
			}
		}
		if name != "" {
			found = append(found, name+" (dmi)")
		}
	}
	if len(found) > 0 {
		return true, strings.Join(found, ", "), true
	}
	return false, "", decisive
}

// printable reports whether s holds no control characters.
func printable(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f || r == '\uFFFD' })
}

// applyBuild fills the build fields from the build settings and the
// testing cover mode.
func (s *Snapshot) applyBuild(rt runtimeInfo) {
	s.BuildKnown = rt.BuildInfoOK
	s.CoverMode = rt.CoverMode
	s.Cover = rt.CoverMode != ""
	if !rt.BuildInfoOK {
		return
	}
	for _, st := range rt.Settings {
		switch st.Key {
		case "-race":
			s.Race = st.Value == "true"
		case "-cover":
			s.Cover = s.Cover || st.Value == "true"
		case "-covermode":
			if s.CoverMode == "" {
				s.CoverMode = st.Value
			}
		case "-gcflags":
			s.GCFlags = st.Value
			s.OptimisationsOff = gcflagsDisableOpt(st.Value)
		}
	}
}

// gcflagsDisableOpt reports whether a -gcflags value such as "all=-N -l"
// turns off optimisation (-N) or inlining (-l).
func gcflagsDisableOpt(v string) bool {
	for _, tok := range strings.Fields(v) {
		if !strings.HasPrefix(tok, "-") {
			if _, after, ok := strings.Cut(tok, "="); ok {
				tok = after // a package pattern: "all=-N"
			}
		}
		if tok == "-N" || tok == "-l" {
			return true
		}
	}
	return false
}

// ThreadTimes is one thread's time on a CPU and time runnable but waiting
// for one, from its schedstat file (the first two fields, in ns). The CPU
// time lags by up to a scheduler tick for a thread that is running.
type ThreadTimes struct {
	Run, Wait time.Duration
}

// threadTimesFS reads proc/self/task/*/schedstat under fsys: every thread
// of the process, by thread id. Threads whose file vanished (the thread
// exited) or does not parse are left out; nil when the directory cannot
// be read.
func threadTimesFS(fsys fs.FS) map[int]ThreadTimes {
	entries, err := fs.ReadDir(fsys, "proc/self/task")
	if err != nil {
		return nil
	}
	m := make(map[int]ThreadTimes, len(entries))
	for _, e := range entries {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if t, ok := schedstatFS(fsys, "proc/self/task/"+e.Name()+"/schedstat"); ok {
			m[tid] = t
		}
	}
	return m
}

// schedstatFS reads and parses one schedstat file under fsys.
func schedstatFS(fsys fs.FS, path string) (ThreadTimes, bool) {
	b, ok := readSmall(fsys, path)
	if !ok {
		return ThreadTimes{}, false
	}
	return parseSchedstat(b)
}

// processCPUFS reads the user and system CPU time of the process whose
// /proc directory is proc, all its threads together, from its stat file
// (fields 14 and 15, in clock ticks of 1/100 s, which Linux fixes for
// /proc): one small read, at a tick's resolution.
func processCPUFS(fsys fs.FS, proc string) (time.Duration, bool) {
	b, ok := readSmall(fsys, proc+"/stat")
	if !ok {
		return 0, false
	}
	return parseProcStatCPU(b)
}

// parseProcStatCPU returns utime + stime from a /proc/<pid>/stat line.
// The command name (field 2, in parentheses) may hold spaces and
// parentheses, so the fields are counted after its last ')'.
func parseProcStatCPU(s string) (time.Duration, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || ut < 0 || st < 0 {
		return 0, false
	}
	const tick = 10 * time.Millisecond
	return time.Duration(ut+st) * tick, true
}

// runQueueWaitFS sums the run-queue wait of every thread of the process
// under fsys; the sum is known when at least one thread was read.
func runQueueWaitFS(fsys fs.FS) (time.Duration, bool) {
	threads := threadTimesFS(fsys)
	var total time.Duration
	for _, t := range threads {
		total += t.Wait
	}
	return total, len(threads) > 0
}

// parseSchedstat returns the first two fields (time on a CPU, run-queue
// wait, both ns) of a schedstat line "run_ns wait_ns slices".
func parseSchedstat(s string) (ThreadTimes, bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return ThreadTimes{}, false
	}
	run, err1 := strconv.ParseInt(f[0], 10, 64)
	wait, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || run < 0 || wait < 0 {
		return ThreadTimes{}, false
	}
	return ThreadTimes{Run: time.Duration(run), Wait: time.Duration(wait)}, true
}
