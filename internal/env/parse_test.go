package env

import (
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLoadavg(t *testing.T) {
	tests := []struct {
		in          string
		l1, l5, l15 float64
		ok          bool
		why         string
	}{
		{"0.48 0.91 0.45 1/96 15676\n", 0.48, 0.91, 0.45, true, "real"},
		{"12.00 8.50 3.25", 12, 8.5, 3.25, true, "no process fields"},
		{"0.5", 0, 0, 0, false, "truncated"},
		{"", 0, 0, 0, false, "empty"},
		{"NaN 1 1 1/1 1", 0, 0, 0, false, "NaN"},
		{"Inf 1 1 1/1 1", 0, 0, 0, false, "Inf"},
		{"-1 1 1 1/1 1", 0, 0, 0, false, "negative"},
		{"a b c", 0, 0, 0, false, "words"},
	}
	for _, tt := range tests {
		l1, l5, l15, ok := parseLoadavg(tt.in)
		assert.Equal(t, tt.ok, ok, tt.why)
		assert.Equal(t, []float64{tt.l1, tt.l5, tt.l15}, []float64{l1, l5, l15}, tt.why)
	}
}

func TestParseStatCPU(t *testing.T) {
	tests := []struct {
		in    string
		steal uint64
		total uint64
		ok    bool
		why   string
	}{
		{"cpu  29182 0 4612 52914 121 0 66 83 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n", 83, 29182 + 4612 + 52914 + 121 + 66 + 83, true, "real, 10 fields"},
		{"intr 1\ncpu  1 1 1 1 1 1 1 7\n", 7, 14, true, "exactly 8 fields, not first line"},
		{"cpu  1 1 1 1 1 1 1\n", 0, 0, false, "7 fields: kernel before 2.6.11"},
		{"cpu0 1 1 1 1 1 1 1 7\n", 0, 0, false, "only per-CPU lines"},
		{"cpu  1 1 1 1 1 1 1 x 0 0\n", 0, 0, false, "non-number steal"},
		{"cpu  1 1 1 -1 1 1 1 1\n", 0, 0, false, "negative"},
		{"cpu  18446744073709551615 1 0 0 0 0 0 0\n", 0, 0, false, "sum overflows uint64"},
		{"", 0, 0, false, "empty"},
		{"cpu", 0, 0, false, "bare label"},
	}
	for _, tt := range tests {
		c, ok := parseStatCPU(tt.in)
		assert.Equal(t, tt.ok, ok, tt.why)
		assert.Equal(t, statCPU{steal: tt.steal, total: tt.total}, c, tt.why)
	}
	c := statCPU{steal: 250, total: 10000}
	assert.Equal(t, 2500*time.Millisecond, c.stealTime(), "USER_HZ ticks are 10 ms")
	assert.Equal(t, 2.5, c.stealPercent())
	assert.Equal(t, 0.0, statCPU{}.stealPercent(), "no NaN on an all-zero line")
}

func TestParseSchedstat(t *testing.T) {
	tests := []struct {
		in        string
		run, wait time.Duration
		ok        bool
	}{
		{"9618724977 2426912293 1298\n", 9618724977, 2426912293, true},
		{"0 0 1", 0, 0, true},
		{"1 2", 1, 2, true},
		{"123\n", 0, 0, false},
		{"a b c", 0, 0, false},
		{"1 -5 2", 0, 0, false},
		{"-1 5 2", 0, 0, false},
		{"1 99999999999999999999 2", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		got, ok := parseSchedstat(tt.in)
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
		assert.Equal(t, ThreadTimes{Run: tt.run, Wait: tt.wait}, got, "%q", tt.in)
	}
	// The captured files parse to what TestFixtureRunQueueWait sums.
	for _, f := range []string{"testdata/vm-hogs/proc/self/task/25503/schedstat", "testdata/vm/proc/self/task/25473/schedstat"} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		_, ok := parseSchedstat(string(b))
		assert.True(t, ok, f)
	}
}

func TestParseCPUModel(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\n", "Intel(R) Xeon(R) Processor", true},
		{"model name\t:\nmodel name\t: second\n", "second", true},
		{"Processor\t: ARMv7 Processor rev 4 (v7l)\nHardware\t: BCM2835\n", "ARMv7 Processor rev 4 (v7l)", true},
		{"processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\n", "POWER9 (architected), altivec supported", true},
		{"processor\t: 0\nuarch\t\t: sifive,u74-mc\n", "sifive,u74-mc", true},
		{"cpu model\t\t: MIPS 24Kc V7.4\n", "MIPS 24Kc V7.4", true},
		{"CPU implementer\t: 0x41\nCPU part\t: 0xd4f\n", "ARM Neoverse-V2", true},
		{"CPU implementer\t: 0x61\nCPU part\t: 0x22\n", "Apple part 0x22", true},
		{"CPU implementer\t: 0x99\nCPU part\t: 0x1\n", "implementer 0x99 part 0x1", true},
		{"CPU implementer\t: zz\nCPU part\t: 0x1\nHardware\t: Raspberry Pi\n", "Raspberry Pi", true},
		{"processor\t: 0\n", "", false},
		{"model name\t: \x1b[31mred\x1b[0m\n", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := parseCPUModel(tt.in)
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

func TestReadGovernorsAndTurbo(t *testing.T) {
	fsys := fstest.MapFS{
		cpuDir + "/cpu0/cpufreq/scaling_governor":    {Data: []byte("ondemand\n")},
		cpuDir + "/cpu1/cpufreq/scaling_governor":    {Data: []byte("performance\n")},
		cpuDir + "/cpu10/cpufreq/scaling_governor":   {Data: []byte("ondemand")},
		cpuDir + "/cpufreq/policy0/scaling_governor": {Data: []byte("ondemand")}, // not a cpuN dir
		cpuDir + "/cpuidle/x":                        {Data: []byte("x")},
		cpuDir + "/cpu2x/cpufreq/scaling_governor":   {Data: []byte("ondemand")}, // not a cpuN dir
		cpuDir + "/cpu3/cpufreq/scaling_governor":    {Data: []byte(strings.Repeat("a", 33))},
		cpuDir + "/intel_pstate/no_turbo":            {Data: []byte("garbage")},
		cpuDir + "/cpufreq/boost":                    {Data: []byte("0\n")},
	}
	govs, cpus, notPerf, ok := readGovernors(fsys)
	assert.True(t, ok)
	assert.Equal(t, []string{"ondemand", "performance"}, govs)
	assert.Equal(t, 3, cpus)
	assert.Equal(t, 2, notPerf)

	on, src, ok := readTurbo(fsys)
	assert.Equal(t, []any{false, "cpufreq/boost = 0", true}, []any{on, src, ok}, "unparsable no_turbo falls through to boost")

	on, src, ok = readTurbo(fstest.MapFS{})
	assert.Equal(t, []any{false, "", false}, []any{on, src, ok})
}

func TestReadVirtualisation(t *testing.T) {
	dmi := func(vendor, product string) fstest.MapFS {
		return fstest.MapFS{
			"sys/class/dmi/id/sys_vendor":   {Data: []byte(vendor + "\n")},
			"sys/class/dmi/id/product_name": {Data: []byte(product + "\n")},
		}
	}
	tests := []struct {
		fsys     fstest.MapFS
		cpuinfo  string
		virt     bool
		evidence string
		known    bool
		why      string
	}{
		{dmi("QEMU", "Standard PC (Q35 + ICH9, 2009)"), "", true, "QEMU (dmi)", true, "qemu"},
		{dmi("Microsoft Corporation", "Virtual Machine"), "", true, "Hyper-V (dmi)", true, "hyper-v"},
		{dmi("Amazon EC2", "m6g.large"), "", true, "Amazon EC2 (dmi)", true, "ec2 nitro"},
		{dmi("Amazon EC2", "m6g.metal"), "", false, "", true, "ec2 metal"},
		{dmi("Google", "Google Compute Engine"), "", true, "Google Compute Engine (dmi)", true, "gce"},
		{dmi("Supermicro", "SYS-1029P"), "", false, "", true, "bare metal"},
		{fstest.MapFS{}, "flags\t\t: fpu vme hypervisor\n", true, "cpuinfo hypervisor flag", true, "flag only"},
		{fstest.MapFS{}, "flags\t\t: fpu vme\n", false, "", true, "x86 without flag"},
		{fstest.MapFS{}, "Features\t: fp asimd\n", false, "", false, "arm64, no DMI"},
		{fstest.MapFS{"sys/hypervisor/type": {Data: []byte("xen\n")}}, "", true, "xen (/sys/hypervisor/type)", true, "xen"},
	}
	for _, tt := range tests {
		virt, evidence, known := readVirtualisation(tt.fsys, tt.cpuinfo, tt.cpuinfo != "")
		assert.Equal(t, []any{tt.virt, tt.evidence, tt.known}, []any{virt, evidence, known}, tt.why)
	}
}

func TestReadSmallLimit(t *testing.T) {
	big := strings.Repeat("x", maxRead+100)
	got, ok := readSmall(fstest.MapFS{"f": {Data: []byte(big)}}, "f")
	assert.True(t, ok)
	assert.Len(t, got, maxRead)
	_, ok = readSmall(fstest.MapFS{}, "missing")
	assert.False(t, ok)
}

func TestBuildSettings(t *testing.T) {
	tests := []struct {
		settings  []debug.BuildSetting
		coverMode string
		infoOK    bool
		want      func(s *Snapshot)
		warnings  []string
		build     string
	}{
		{nil, "", true, func(*Snapshot) {}, nil, "optimised, no race, no cover"},
		{
			[]debug.BuildSetting{{Key: "-race", Value: "true"}}, "", true,
			func(s *Snapshot) { s.Race = true }, []string{"race"}, "race on",
		},
		{
			[]debug.BuildSetting{{Key: "-cover", Value: "true"}}, "", true,
			func(s *Snapshot) { s.Cover = true }, []string{"cover"}, "cover on",
		},
		{
			nil, "atomic", true,
			func(s *Snapshot) { s.Cover, s.CoverMode = true, "atomic" }, []string{"cover"}, "cover atomic",
		},
		{
			[]debug.BuildSetting{{Key: "-gcflags", Value: "all=-N -l"}, {Key: "-race", Value: "true"}}, "", true,
			func(s *Snapshot) { s.Race, s.OptimisationsOff, s.GCFlags = true, true, "all=-N -l" },
			[]string{"race", "optimisations"}, "race on, optimisations off (-gcflags=all=-N -l)",
		},
		{
			[]debug.BuildSetting{{Key: "-gcflags", Value: "-l"}}, "", true,
			func(s *Snapshot) { s.OptimisationsOff, s.GCFlags = true, "-l" },
			[]string{"optimisations"}, "optimisations off (-gcflags=-l)",
		},
		{
			[]debug.BuildSetting{{Key: "-gcflags", Value: "-m -d=ssa/check_bce"}}, "", true,
			func(s *Snapshot) { s.GCFlags = "-m -d=ssa/check_bce" }, nil, "optimised, no race, no cover",
		},
		{
			[]debug.BuildSetting{{Key: "-race", Value: "true"}}, "", false,
			func(s *Snapshot) { s.BuildKnown = false }, nil, "unknown",
		},
	}
	for i, tt := range tests {
		rt := fixedRuntime(2, "amd64")
		rt.Settings, rt.CoverMode, rt.BuildInfoOK = tt.settings, tt.coverMode, tt.infoOK
		got := probeFS(fstest.MapFS{}, rt)
		want := base(2, "amd64")
		tt.want(&want)
		assert.Equal(t, want, got, "case %d", i)
		assert.Equal(t, tt.warnings, warningKeys(got.Warnings()), "case %d", i)
		assert.Equal(t, Fact{"build", tt.build}, got.Facts()[9], "case %d", i)
	}
}

func TestGcflagsDisableOpt(t *testing.T) {
	for v, want := range map[string]bool{
		"all=-N -l": true, "-N": true, "-l": true, "example.com/p=-l": true,
		"": false, "-m": false, "-m=2": false, "-lang=go1.22": false, "all=-B": false, "-N2": false,
	} {
		assert.Equal(t, want, gcflagsDisableOpt(v), "%q", v)
	}
}

func TestGOMAXPROCSWarnings(t *testing.T) {
	tests := []struct {
		numCPU, procs int
		env           string
		want          string
	}{
		{4, 4, "", ""},
		{4, 2, "", "GOMAXPROCS is 2 but 4 CPUs are usable (likely a cgroup CPU limit)"},
		{4, 1, "1", "GOMAXPROCS is 1 but 4 CPUs are usable (set by the GOMAXPROCS variable)"},
		{2, 8, "8", "GOMAXPROCS is 8 but only 2 CPUs are usable (set by the GOMAXPROCS variable): goroutines time-share the CPUs; set GOMAXPROCS to at most 2"},
		{0, 0, "", ""}, // clamped to 1 and 1
	}
	for _, tt := range tests {
		rt := fixedRuntime(tt.numCPU, "amd64")
		rt.GOMAXPROCS, rt.GOMAXPROCSEnv = tt.procs, tt.env
		var got string
		for _, w := range probeFS(fstest.MapFS{}, rt).Warnings() {
			if w.Key == "gomaxprocs" {
				got = w.Message
			}
		}
		if tt.want == "" {
			assert.Empty(t, got)
		} else {
			assert.True(t, strings.HasPrefix(got, tt.want), "got %q\nwant prefix %q", got, tt.want)
		}
	}
}

func TestWarningThresholds(t *testing.T) {
	s := base(2, "amd64")
	s.LoadKnown, s.Load1 = true, 2.0 // equal to the CPU count: not above
	s.StealKnown, s.StealPercent = true, StealWarnPercent-0.01
	s.GovernorKnown, s.Governors, s.GovernorCPUs = true, []string{"performance"}, 2
	s.TurboKnown, s.TurboSource = true, "intel_pstate/no_turbo = 1"
	s.VirtualisedKnown = true
	assert.Empty(t, s.Warnings())

	s.Load1 = 2.01
	s.StealPercent = StealWarnPercent
	assert.Equal(t, []string{"load", "steal"}, warningKeys(s.Warnings()))
}

func TestFactValuesOneLine(t *testing.T) {
	s := base(1, "amd64")
	s.CPUModel, s.CPUModelKnown = "evil\nname\r\twith\x00controls", true
	f := s.Facts()
	assert.Equal(t, Fact{"cpu", "evil name  with controls"}, f[1])
}

func TestContentionSub(t *testing.T) {
	before := Contention{
		RunQueueWait: 10 * time.Millisecond, WaitKnown: true,
		InvoluntarySwitches: 5, SwitchesKnown: true,
		StealTime: 100 * time.Millisecond, StealKnown: true,
	}
	after := Contention{
		RunQueueWait: 25 * time.Millisecond, WaitKnown: true,
		InvoluntarySwitches: 12, SwitchesKnown: true,
		StealTime: 130 * time.Millisecond, StealKnown: true,
	}
	assert.Equal(t, Contention{
		RunQueueWait: 15 * time.Millisecond, WaitKnown: true,
		InvoluntarySwitches: 7, SwitchesKnown: true,
		StealTime: 30 * time.Millisecond, StealKnown: true,
	}, after.Sub(before))

	// A thread that exited between the snapshots can make the wait sum fall:
	// the difference is clamped at zero, never negative.
	shrunk := after
	shrunk.RunQueueWait = 1 * time.Millisecond
	shrunk.InvoluntarySwitches = 1
	shrunk.StealTime = 0
	d := shrunk.Sub(before)
	assert.Equal(t, time.Duration(0), d.RunQueueWait)
	assert.Equal(t, int64(0), d.InvoluntarySwitches)
	assert.Equal(t, time.Duration(0), d.StealTime)

	// Known only when known on both sides; unknown counters stay zero.
	unknownBefore := Contention{RunQueueWait: 10 * time.Millisecond, InvoluntarySwitches: 5, StealTime: time.Second}
	assert.Equal(t, Contention{}, after.Sub(unknownBefore))
	assert.Equal(t, Contention{}, unknownBefore.Sub(Contention{}))
	mixed := after
	mixed.StealKnown = false
	assert.Equal(t, Contention{
		RunQueueWait: 15 * time.Millisecond, WaitKnown: true,
		InvoluntarySwitches: 7, SwitchesKnown: true,
	}, mixed.Sub(before))
}

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"0-1\n", 2, true},
		{"0", 1, true},
		{"0,2-5,8\n", 6, true},
		{"0-63", 64, true},
		{"", 0, false},
		{"0-x", 0, false},
		{"5-2", 0, false},
		{"0,,1", 0, false},
		{"0-4294967295", 0, false},
		// Ranges whose count does not fit a 32-bit int, or exceeds
		// maxCPUs: unknown on every GOARCH, never 0 or a wrapped count.
		{"0-2147483647", 0, false},
		{"1-2147483647", 0, false},
		{"2147483647", 1, true},
		{"4294967295", 1, true},
		{"4294967295-4294967295", 1, true},
		{"2147483647-4294967295", 0, false},
		{"4294967296", 0, false},
		{"0-4294967296", 0, false},
		{"0,0-4294967295", 0, false},
		{"0-65535", 65536, true},
		{"0-65536", 0, false},
		{"0-32767,32768-65535", 65536, true},
		{"0-65535,70000", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseCPUList(tt.in)
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

// TestLoadComparedWithOnlineCPUs: a process pinned to 2 of 64 CPUs compares
// the machine-wide load with the 64 online CPUs, and says both counts.
func TestLoadComparedWithOnlineCPUs(t *testing.T) {
	rt := fixedRuntime(2, "amd64")
	fsys := fstest.MapFS{
		cpuDir + "/online": {Data: []byte("0-63\n")},
		"proc/loadavg":     {Data: []byte("30.00 30.00 30.00 31/900 1\n")},
	}
	s := probeFS(fsys, rt)
	assert.Equal(t, []any{64, true}, []any{s.OnlineCPUs, s.OnlineCPUsKnown})
	assert.Empty(t, s.Warnings(), "load 30 on 64 CPUs is not overload")
	assert.Equal(t, Fact{"cpus", "2 usable of 64 online"}, s.Facts()[2])

	fsys["proc/loadavg"] = &fstest.MapFile{Data: []byte("70.00 30.00 30.00 31/900 1\n")}
	assert.Equal(t, []string{"load"}, warningKeys(probeFS(fsys, rt).Warnings()))
	assert.Contains(t, probeFS(fsys, rt).Warnings()[0].Message, "70.00 over the last minute is above the 64 CPUs")
}

func TestFactStable(t *testing.T) {
	var varying []string
	for _, f := range base(2, "amd64").Facts() {
		if !f.Stable() {
			varying = append(varying, f.Name)
		}
	}
	assert.Equal(t, []string{"load", "steal"}, varying)
}

// TestEmptyFS is the live root outside Linux: every file probe unknown, no
// warning from files, the runtime and build facts still known.
func TestEmptyFS(t *testing.T) {
	rt := fixedRuntime(8, "arm64")
	rt.GOOS = "darwin"
	got := probeFS(emptyFS{}, rt)
	want := base(8, "arm64")
	want.GOOS = "darwin"
	assert.Equal(t, want, got)
	assert.Empty(t, got.Warnings())
	_, err := emptyFS{}.Open("proc/loadavg")
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
