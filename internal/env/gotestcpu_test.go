package env

import (
	"testing"

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
