package env

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// full is a CPU with every feature the runtime's options name, and an
// operating system that saves the AVX and AVX-512 registers.
var full = cpuidRegs{MaxID: 0xd, MaxExt: 0x80000008, ECX1: ^uint32(0), EBX7: ^uint32(0), ECX7: ^uint32(0), EDX7: ^uint32(0), EDXExt1: ^uint32(0), XCR0: 0xe7}

// off returns the "cpu.<name>=off" settings of names.
func off(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "cpu." + n + "=off"
	}
	return out
}

func TestCPUOffFor(t *testing.T) {
	noRDTSCP := full
	noRDTSCP.EDXExt1 &^= 1 << 27
	noAVXState := full
	noAVXState.XCR0 = 0x3 // x87 and SSE only
	noLeaf7 := full
	noLeaf7.MaxID = 6
	noSHAnoPOPCNT := full
	noSHAnoPOPCNT.EBX7 &^= 1 << 29
	noSHAnoPOPCNT.ECX1 &^= 1 << 23
	all126 := off("adx", "aes", "erms", "fsrm", "pclmulqdq", "rdtscp", "sha", "vpclmulqdq",
		"popcnt", "sse3", "sse41", "sse42", "ssse3", "avx", "avx2", "bmi1", "bmi2", "fma",
		"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl")
	for _, tc := range []struct {
		name             string
		cpu              cpuidRegs
		goVersion, level string
		want             []string
	}{
		{"every feature present", full, "go1.26.8", "v1", nil},
		{"no RDTSCP (this project's AMD EPYC VMs)", noRDTSCP, "go1.26.8", "", off("rdtscp")},
		{"no RDTSCP at v3", noRDTSCP, "go1.26.8", "v3", off("rdtscp")},
		{"no CPUID leaves at all", cpuidRegs{}, "go1.26.8", "v1", all126},
		{"v2 registers no popcnt … ssse3", cpuidRegs{}, "go1.26.8", "v2", slices.Delete(slices.Clone(all126), 8, 13)},
		{"v3 registers no avx … fma either", cpuidRegs{}, "go1.26.8", "v3", slices.Delete(slices.Clone(all126), 8, 18)},
		{"v4 registers the first eight only", cpuidRegs{}, "go1.26.8", "v4", all126[:8]},
		{"go1.25 has no vpclmulqdq, avx512cd, avx512dq", cpuidRegs{}, "go1.25.0", "v4",
			off("adx", "aes", "erms", "fsrm", "pclmulqdq", "rdtscp", "sha")},
		{"go1.24", cpuidRegs{}, "go1.24.3", "v4", off("adx", "aes", "erms", "fsrm", "pclmulqdq", "rdtscp", "sha")},
		{"a release after go1.26 as go1.26", noRDTSCP, "go1.27rc1", "v1", off("rdtscp")},
		{"a devel build", noRDTSCP, "devel go1.27-0123abcd Mon Jan 1 00:00:00 2027 +0000", "v1", off("rdtscp")},
		{"before go1.24: none", cpuidRegs{}, "go1.23.4", "v1", nil},
		{"an unreadable version: none", cpuidRegs{}, "", "v1", nil},
		{"an unknown level is v1", noRDTSCP, "go1.26.8", "v9", off("rdtscp")},
		{"AVX bits without the OS saving YMM", noAVXState, "go1.26.8", "v1",
			off("vpclmulqdq", "avx", "avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl")},
		{"before go1.26 FMA needs OSXSAVE, not AVX", noAVXState, "go1.25.0", "v1",
			off("avx", "avx2", "avx512f", "avx512bw", "avx512vl")},
		{"no leaf 7: the runtime reads no RDTSCP either", noLeaf7, "go1.26.8", "v1",
			off("adx", "erms", "fsrm", "rdtscp", "sha", "vpclmulqdq", "avx2", "bmi1", "bmi2",
				"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl")},
		{"SHA and POPCNT absent", noSHAnoPOPCNT, "go1.26.8", "v1", off("sha", "popcnt")},
		{"POPCNT is required at v2", noSHAnoPOPCNT, "go1.26.8", "v2", off("sha")},
	} {
		assert.Equal(t, tc.want, cpuOffFor(tc.cpu, tc.goVersion, tc.level), tc.name)
	}
}

func TestGoMinor(t *testing.T) {
	for v, want := range map[string]int{"go1.26.8": 26, "go1.26": 26, "go1.27rc1": 27, "go1.26.8 X:nocoverageredesign": 26,
		"devel go1.27-0123abcd Mon Jan 1": 27, "go1.9": 9} {
		got, ok := goMinor(v)
		assert.True(t, ok, v)
		assert.Equal(t, want, got, v)
	}
	for _, v := range []string{"", "devel 0123abcd", "go2", "go1.x"} {
		_, ok := goMinor(v)
		assert.False(t, ok, v)
	}
}

// TestCPUOffHere checks CPUOff on this machine against /proc/cpuinfo's
// rdtscp flag, where both exist.
func TestCPUOffHere(t *testing.T) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if _, ok := readCPUID(); !ok || err != nil {
		t.Skip("needs CPUID (amd64, 386) and /proc/cpuinfo")
	}
	flags := ""
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "flags" {
			flags = " " + v + " "
			break
		}
	}
	if flags == "" {
		t.Skip("/proc/cpuinfo has no flags line")
	}
	got := CPUOff(runtime.Version(), "v1")
	t.Logf("%s here: GODEBUG %s", runtime.Version(), strings.Join(got, ","))
	assert.Equal(t, !strings.Contains(flags, " rdtscp "), slices.Contains(got, "cpu.rdtscp=off"), "rdtscp off exactly when /proc/cpuinfo lacks it")
}
