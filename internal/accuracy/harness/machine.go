package harness

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// MachineLine describes the machine in one line:
//
//	machine: go version go1.26.8 linux/amd64; CPU <model>; 2 CPUs (GOMAXPROCS 2); load average at start 0.52 0.61 0.70; 2026-01-02 15:04 UTC
//
// The Go version is go version's output (runtime.Version() if go cannot
// run), the CPU model and the 1-, 5- and 15-minute load averages come from
// /proc/cpuinfo and /proc/loadavg ("unknown" where those cannot be read,
// as on every system but Linux), and the date is the current UTC time to
// the minute. Call it at the start, before the load is the run's own.
func MachineLine() string {
	gover := runtime.Version()
	if out, err := exec.Command("go", "version").Output(); err == nil {
		gover = strings.TrimSpace(string(out))
	}
	cpuinfo, _ := os.ReadFile("/proc/cpuinfo")
	loadavg, _ := os.ReadFile("/proc/loadavg")
	return fmt.Sprintf(machinePrefix+"%s; CPU %s; %d CPUs (GOMAXPROCS %d)"+loadMark+" at start %s; %s",
		gover, cpuModel(string(cpuinfo)), runtime.NumCPU(), runtime.GOMAXPROCS(0), loadAverage(string(loadavg)),
		time.Now().UTC().Format("2006-01-02 15:04 MST"))
}

// The fixed parts of a machine line that MachineHardware cuts at.
const (
	machinePrefix = "machine: "
	loadMark      = "; load average"
)

// MachineHardware returns what stays the same in MachineLine's lines from
// one run to the next on one machine: line without its "machine: "
// prefix and from "; load average" on ("go version go1.26.8
// linux/amd64; CPU <model>; 2 CPUs (GOMAXPROCS 2)"), or "unknown" for
// an empty line.
func MachineHardware(line string) string {
	line = strings.TrimPrefix(line, machinePrefix)
	if i := strings.Index(line, loadMark); i >= 0 {
		line = line[:i]
	}
	if line == "" {
		return "unknown"
	}
	return line
}

// cpuModel returns the first "model name" of /proc/cpuinfo's text, or
// "unknown".
func cpuModel(cpuinfo string) string {
	for l := range strings.Lines(cpuinfo) {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// loadAverage returns the first three fields of /proc/loadavg's text (the
// 1-, 5- and 15-minute load averages), or "unknown" if it has fewer.
func loadAverage(loadavg string) string {
	if f := strings.Fields(loadavg); len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
