package env

import (
	"os"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixedRuntime is a clean optimised build with n CPUs and GOMAXPROCS n.
func fixedRuntime(n int, arch string) runtimeInfo {
	return runtimeInfo{
		GoVersion: "go1.26.8", GOOS: "linux", GOARCH: arch,
		NumCPU: n, GOMAXPROCS: n,
		BuildInfoOK: true,
		Settings: []debug.BuildSetting{
			{Key: "-buildmode", Value: "exe"}, {Key: "-compiler", Value: "gc"},
			{Key: "GOARCH", Value: arch}, {Key: "GOOS", Value: "linux"},
		},
	}
}

// base is the Snapshot of a clean build with every file probe unknown.
func base(n int, arch string) Snapshot {
	return Snapshot{
		GoVersion: "go1.26.8", GOOS: "linux", GOARCH: arch,
		NumCPU: n, GOMAXPROCS: n, BuildKnown: true,
	}
}

func probeFixture(t *testing.T, root string, rt runtimeInfo) Snapshot {
	t.Helper()
	dir := "testdata/" + root
	_, err := os.Stat(dir)
	require.NoError(t, err, "fixture root %s", dir)
	return probeFS(os.DirFS(dir), rt)
}

func warningKeys(ws []Warning) []string {
	var keys []string
	for _, w := range ws {
		keys = append(keys, w.Key)
	}
	return keys
}

// TestFixtures probes every fixture root and checks every Snapshot field,
// the warnings it raises and the shape of its facts.
func TestFixtures(t *testing.T) {
	tests := []struct {
		root     string
		rt       runtimeInfo
		want     func(s *Snapshot)
		warnings []string
	}{
		{
			// Captured on this machine (capture.sh): a 2-vCPU KVM guest
			// with no cpufreq and no DMI, loaded by other users.
			root: "vm", rt: fixedRuntime(2, "amd64"),
			want: func(s *Snapshot) {
				s.OnlineCPUs, s.OnlineCPUsKnown = 2, true
				s.CPUModel, s.CPUModelKnown = "Intel(R) Xeon(R) Processor", true
				s.CPUName, s.CPUNameKnown = "Intel(R) Xeon(R) Processor @ 2100.000MHz", true
				s.Load1, s.Load5, s.Load15, s.LoadKnown = 3.86, 2.01, 0.93, true
				s.Virtualised, s.Hypervisor, s.VirtualisedKnown = true, "cpuinfo hypervisor flag", true
				s.StealTime, s.StealPercent, s.StealKnown = 1030*time.Millisecond, 100*103.0/125288, true
			},
			warnings: []string{"load", "virtualisation"},
		},
		{
			// Captured on this machine with two busy loops running: only
			// /proc/loadavg and /proc/stat, so cpu and virtualisation are
			// unknown.
			root: "vm-hogs", rt: fixedRuntime(2, "amd64"),
			want: func(s *Snapshot) {
				s.Load1, s.Load5, s.Load15, s.LoadKnown = 3.88, 2.08, 0.96, true
				s.StealTime, s.StealPercent, s.StealKnown = 1050*time.Millisecond, 100*105.0/127704, true
			},
			warnings: []string{"load"},
		},
		{
			root: "baremetal-powersave", rt: fixedRuntime(4, "amd64"),
			want: func(s *Snapshot) {
				s.OnlineCPUs, s.OnlineCPUsKnown = 4, true
				s.CPUModel, s.CPUModelKnown = "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", true
				s.CPUName, s.CPUNameKnown = "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", true
				s.Load1, s.Load5, s.Load15, s.LoadKnown = 0.12, 0.30, 0.25, true
				s.Governors, s.GovernorCPUs, s.NotPerformanceCPUs, s.GovernorKnown = []string{"powersave"}, 4, 4, true
				s.Turbo, s.TurboSource, s.TurboKnown = true, "intel_pstate/no_turbo = 0", true
				s.VirtualisedKnown = true
				s.StealKnown = true
			},
			warnings: []string{"governor", "turbo"},
		},
		{
			root: "amd-boost", rt: fixedRuntime(4, "amd64"),
			want: func(s *Snapshot) {
				s.OnlineCPUs, s.OnlineCPUsKnown = 4, true
				s.CPUModel, s.CPUModelKnown = "AMD EPYC 7763 64-Core Processor", true
				s.CPUName, s.CPUNameKnown = "AMD EPYC 7763 64-Core Processor @ 2100.000MHz", true
				s.Load1, s.Load5, s.Load15, s.LoadKnown = 6.5, 5, 4, true
				s.Governors, s.GovernorCPUs, s.NotPerformanceCPUs, s.GovernorKnown = []string{"performance", "schedutil"}, 4, 2, true
				s.Turbo, s.TurboSource, s.TurboKnown = true, "cpufreq/boost = 1", true
				s.VirtualisedKnown = true
				s.StealKnown = true
			},
			warnings: []string{"load", "governor", "turbo"},
		},
		{
			root: "arm64", rt: fixedRuntime(2, "arm64"),
			want: func(s *Snapshot) {
				s.OnlineCPUs, s.OnlineCPUsKnown = 2, true
				s.CPUModel, s.CPUModelKnown = "ARM Neoverse-N1", true
				s.Load1, s.Load5, s.Load15, s.LoadKnown = 0, 0.01, 0.05, true
				s.Governors, s.GovernorCPUs, s.GovernorKnown = []string{"performance"}, 2, true
				s.StealKnown = true
			},
		},
		{
			root: "xen-steal", rt: fixedRuntime(2, "amd64"),
			want: func(s *Snapshot) {
				s.CPUModel, s.CPUModelKnown = "Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz", true
				s.CPUName, s.CPUNameKnown = "Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz", true
				s.Load1, s.Load5, s.Load15, s.LoadKnown = 1, 1, 1, true
				s.Turbo, s.TurboSource, s.TurboKnown = false, "intel_pstate/no_turbo = 1", true
				s.Virtualised, s.VirtualisedKnown = true, true
				s.Hypervisor = "cpuinfo hypervisor flag, xen (/sys/hypervisor/type), Xen (dmi)"
				s.StealTime, s.StealPercent, s.StealKnown = 50*time.Second, 5, true
			},
			warnings: []string{"virtualisation", "steal"},
		},
		{root: "empty", rt: fixedRuntime(2, "amd64"), want: func(*Snapshot) {}},
		{root: "garbage", rt: fixedRuntime(2, "amd64"), want: func(*Snapshot) {}},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			got := probeFixture(t, tt.root, tt.rt)
			for _, f := range got.Facts() {
				t.Logf("%-15s %s", f.Name, f.Value)
			}
			for _, w := range got.Warnings() {
				t.Logf("warning: %s", w.Message)
			}
			want := base(tt.rt.NumCPU, tt.rt.GOARCH)
			tt.want(&want)
			assert.Equal(t, want, got)
			assert.Equal(t, tt.warnings, warningKeys(got.Warnings()))
			checkFactsShape(t, got.Facts())
		})
	}
}

// TestFixtureFacts pins the exact header lines of three fixtures.
func TestFixtureFacts(t *testing.T) {
	vm := probeFixture(t, "vm", fixedRuntime(2, "amd64"))
	assert.Equal(t, []Fact{
		{"go", "go1.26.8 linux/amd64"},
		{"cpu", "Intel(R) Xeon(R) Processor @ 2100.000MHz"},
		{"cpus", "2"},
		{"gomaxprocs", "2"},
		{"load", "3.86 2.01 0.93 (1, 5, 15 min)"},
		{"governor", "unknown"},
		{"turbo", "unknown"},
		{"virtualisation", "yes: cpuinfo hypervisor flag"},
		{"steal", "1.03 s since boot (0.08% of CPU time)"},
		{"build", "optimised, no race, no cover"},
	}, vm.Facts())

	bm := probeFixture(t, "amd-boost", fixedRuntime(4, "amd64"))
	assert.Equal(t, []Fact{
		{"go", "go1.26.8 linux/amd64"},
		{"cpu", "AMD EPYC 7763 64-Core Processor @ 2100.000MHz"},
		{"cpus", "4"},
		{"gomaxprocs", "4"},
		{"load", "6.50 5.00 4.00 (1, 5, 15 min)"},
		{"governor", "performance,schedutil (4 CPUs read)"},
		{"turbo", "on (cpufreq/boost = 1)"},
		{"virtualisation", "none detected"},
		{"steal", "0.00 s since boot (0.00% of CPU time)"},
		{"build", "optimised, no race, no cover"},
	}, bm.Facts())

	empty := probeFixture(t, "empty", runtimeInfo{GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", NumCPU: 2, GOMAXPROCS: 2})
	assert.Equal(t, []Fact{
		{"go", "go1.26.8 linux/amd64"},
		{"cpu", "unknown"},
		{"cpus", "2"},
		{"gomaxprocs", "2"},
		{"load", "unknown"},
		{"governor", "unknown"},
		{"turbo", "unknown"},
		{"virtualisation", "unknown"},
		{"steal", "unknown"},
		{"build", "unknown"},
	}, empty.Facts())
	assert.Empty(t, empty.Warnings(), "unknown is never a warning")
}

// TestFixtureWarningMessages checks that each message carries its numbers
// and its fix.
func TestFixtureWarningMessages(t *testing.T) {
	msgs, shorts := map[string]string{}, map[string]string{}
	for _, root := range []string{"vm", "amd-boost", "baremetal-powersave", "xen-steal"} {
		n := 2
		if root == "amd-boost" || root == "baremetal-powersave" {
			n = 4
		}
		for _, w := range probeFixture(t, root, fixedRuntime(n, "amd64")).Warnings() {
			msgs[root+"/"+w.Key] = w.Message
			shorts[root+"/"+w.Key] = w.Headline()
		}
	}
	assert.Equal(t, map[string]string{
		"vm/load": "load 3.86 above 2 CPUs", "vm/virtualisation": "under a hypervisor",
		"amd-boost/load": "load 6.50 above 4 CPUs", "amd-boost/governor": "governor schedutil", "amd-boost/turbo": "turbo on",
		"baremetal-powersave/governor": "governor powersave", "baremetal-powersave/turbo": "turbo on",
		"xen-steal/virtualisation": "under a hypervisor", "xen-steal/steal": "steal 5.0%",
	}, shorts, "each warning's few words for a header line")
	assert.Equal(t, "built with the race detector (-race)", Warning{Key: "x", Message: "built with the race detector (-race): it slows"}.Headline(),
		"without Short, the message up to its first colon")
	assert.Equal(t, "load average 3.86 over the last minute is above the 2 CPUs: other processes are competing "+
		"for them; stop other work or benchmark on a quiet machine", msgs["vm/load"])
	assert.Equal(t, "CPU frequency governor is schedutil on 2 of 4 CPUs, not performance: the clock speed follows "+
		"the load; run `sudo cpupower frequency-set -g performance` (or `pyperf system tune`)", msgs["amd-boost/governor"])
	assert.Equal(t, "turbo boost is on (cpufreq/boost = 1): the clock speed depends on temperature and on how many "+
		"cores are busy; run `echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost`", msgs["amd-boost/turbo"])
	assert.Contains(t, msgs["baremetal-powersave/turbo"], "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo")
	assert.Contains(t, msgs["baremetal-powersave/governor"], "powersave on 4 of 4 CPUs")
	assert.Equal(t, "the hypervisor took 5.0% of CPU time since boot (50.00 s of steal): the host is "+
		"oversubscribed; use a dedicated instance, or compare only runs interleaved in one process", msgs["xen-steal/steal"])
	assert.Contains(t, msgs["xen-steal/virtualisation"], "(cpuinfo hypervisor flag, xen (/sys/hypervisor/type), Xen (dmi))")
}

// TestFixtureRunQueueWait sums schedstat wait over the fixture threads.
func TestFixtureRunQueueWait(t *testing.T) {
	tests := []struct {
		root string
		want time.Duration
		ok   bool
	}{
		{"vm", 1442821, true},                      // this shell, quiet
		{"vm-hogs", 5433777589 + 5781456715, true}, // two busy loops, 12 s in
		{"garbage", 0, false},                      // "123", "a b c", "1 -5 2"
		{"empty", 0, false},
	}
	for _, tt := range tests {
		got, ok := runQueueWaitFS(os.DirFS("testdata/" + tt.root))
		assert.Equal(t, tt.ok, ok, tt.root)
		assert.Equal(t, tt.want, got, tt.root)
	}
}

// TestProcStatCPU reads utime and stime from a process's stat line,
// whose command name may hold spaces and parentheses.
func TestProcStatCPU(t *testing.T) {
	line := "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 37 0 0 20 0 5 0 100 1000000 500 18446744073709551615\n"
	got, ok := parseProcStatCPU(line)
	assert.True(t, ok)
	assert.Equal(t, 2870*time.Millisecond, got, "(250 + 37) ticks of 10 ms")
	for _, bad := range []string{"", "4242 (x) S 1 2", "4242 (x) S 1 4242 4242 0 -1 4194560 1000 0 0 0 x 37", "no parens 1 2 3"} {
		_, ok := parseProcStatCPU(bad)
		assert.False(t, ok, "%q", bad)
	}
}
