package harness

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCPUModel(t *testing.T) {
	info := "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nprocessor\t: 1\nmodel name\t: other\n"
	assert.Equal(t, "AMD EPYC 7B13", cpuModel(info), "the first model name")
	assert.Equal(t, "unknown", cpuModel("processor\t: 0\n"))
	assert.Equal(t, "unknown", cpuModel(""))
}

func TestLoadAverage(t *testing.T) {
	assert.Equal(t, "0.52 0.61 0.70", loadAverage("0.52 0.61 0.70 1/123 4567\n"))
	assert.Equal(t, "unknown", loadAverage("0.52 0.61"))
	assert.Equal(t, "unknown", loadAverage(""))
}

func TestMachineLine(t *testing.T) {
	re := `^machine: .+; CPU .+; \d+ CPUs \(GOMAXPROCS \d+\); load average at start .+; \d{4}-\d\d-\d\d \d\d:\d\d UTC$`
	assert.Regexp(t, regexp.MustCompile(re), MachineLine())
}

func TestMachineHardware(t *testing.T) {
	line := "machine: go version go1.26.8 linux/amd64; CPU AMD EPYC; 2 CPUs (GOMAXPROCS 2); load average at start 0.52 0.61 0.70; 2026-01-02 15:04 UTC"
	assert.Equal(t, "go version go1.26.8 linux/amd64; CPU AMD EPYC; 2 CPUs (GOMAXPROCS 2)", MachineHardware(line))
	assert.Equal(t, "unknown", MachineHardware(""), "a run logged without a machine line")
	assert.NotContains(t, MachineHardware(MachineLine()), "load average", "the inverse of MachineLine's own format")
}
