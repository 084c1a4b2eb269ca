package env

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
)

func TestLinuxCPUName(t *testing.T) {
	for _, tc := range []struct{ name, cpuinfo, want string }{
		{"name without frequency gets cpu MHz", "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2096.029\n", "AMD EPYC @ 2096.029MHz"},
		{"name with GHz stays", "model name\t: Intel(R) Core(TM) i7-10700 CPU @ 2.90GHz\ncpu MHz\t\t: 2900.000\n", "Intel(R) Core(TM) i7-10700 CPU @ 2.90GHz"},
		{"no MHz line", "model name\t: Some CPU\n", "Some CPU"},
		{"capitalised keys", "Model Name\t: Other CPU\nCPU MHz\t: 1000\n", "Other CPU @ 1000MHz"},
		{"no model name (arm64)", "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n", ""},
		{"empty", "", ""},
		{"NUL padding of a short read", "model name\t: X\n\x00\x00\x00", "X"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, linuxCPUName([]byte(tc.cpuinfo)))
		})
	}
}

func TestBrandString(t *testing.T) {
	pack := func(s string) [12]uint32 {
		var b [48]byte
		copy(b[:], s)
		var regs [12]uint32
		for i := range regs {
			regs[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
		}
		return regs
	}
	assert.Equal(t, "Oxide Virtual Turin-like Processor             ",
		brandString(pack("Oxide Virtual Turin-like Processor             ")), "trailing spaces kept")
	assert.Equal(t, "Intel(R) Xeon(R) CPU", brandString(pack("      Intel(R) Xeon(R) CPU")), "leading spaces removed, cut at NUL")
	assert.Equal(t, "", brandString([12]uint32{}))
}

// TestProbeCPUName: the cpu fact is go test's name for the processor,
// spaces trimmed: the CPUID brand where there is one, else on Linux the
// first 512 bytes of a synthetic /proc/cpuinfo by go test's rule, else
// the operating system's name; where go test has none, the /proc/cpuinfo
// name benchkit decodes, else unknown.
func TestProbeCPUName(t *testing.T) {
	amdVM := "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2096.029\nflags\t\t: fpu hypervisor\n"
	arm := "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\n"
	late := "processor\t: 0\nflags\t\t: " + strings.Repeat("x", 600) + "\nmodel name\t: Late CPU\n"
	for _, tc := range []struct {
		name, goos, brand, osName, cpuinfo string
		want                               string
	}{
		{"CPUID brand over cpuinfo", "linux", "Oxide Virtual Turin-like Processor             ", "", amdVM, "Oxide Virtual Turin-like Processor"},
		{"cpuinfo by go test's rule", "linux", "", "", amdVM, "AMD EPYC @ 2096.029MHz"},
		{"beyond go test's 512 bytes: benchkit's own name", "linux", "", "", late, "Late CPU"},
		{"arm64: no go test name, the decoded part", "linux", "", "", arm, "ARM Neoverse-N1"},
		{"darwin: the sysctl", "darwin", "", "Apple M2", "", "Apple M2"},
		{"nothing readable", "windows", "", "", "", "unknown"},
		{"control characters", "linux", "", "", "model name\t: \x1b[31mred\x1b[0m\n", "unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := fstest.MapFS{}
			if tc.cpuinfo != "" {
				files["proc/cpuinfo"] = &fstest.MapFile{Data: []byte(tc.cpuinfo)}
			}
			rt := runtimeInfo{GoVersion: "go1.26.8", GOOS: tc.goos, GOARCH: "amd64", NumCPU: 2, GOMAXPROCS: 2,
				CPUIDBrand: tc.brand, OSCPUName: tc.osName}
			facts := probeFS(files, rt).Facts()
			assert.Equal(t, Fact{"cpu", tc.want}, facts[1])
		})
	}
}

// TestProbeCPUNameIsGoTests: on this machine the probe's name is the one
// go test prints, spaces trimmed.
func TestProbeCPUNameIsGoTests(t *testing.T) {
	s := Probe()
	want := strings.TrimSpace(GoTestCPU())
	assert.Equal(t, want != "", s.CPUNameKnown)
	assert.Equal(t, want, s.CPUName)
}
