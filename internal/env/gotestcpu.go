package env

import (
	"bufio"
	"bytes"
	"strings"
	"sync"
)

// GoTestCPU returns the processor name go test prints on its "cpu:" line
// before the first benchmark result, or "" when go test prints no such
// line. It follows the standard library's internal/sysinfo.CPUName, which
// testing uses and which a package outside the standard library cannot
// call:
//
//  1. on amd64 and 386, the CPUID brand string (leaves 0x80000002 to
//     0x80000004) with leading spaces and everything from the first NUL
//     removed, trailing spaces kept ("Oxide Virtual Turin-like Processor
//     " with 13 spaces on this project's VMs, where /proc/cpuinfo says
//     "AMD EPYC");
//  2. else, on Linux, "model name" (or "Model Name") from the first 512
//     bytes of /proc/cpuinfo, with " @ <cpu MHz>MHz" appended when the
//     name carries no GHz or MHz and a "cpu MHz" line is there;
//  3. else, on darwin, freebsd, netbsd and openbsd, the sysctl
//     machdep.cpu.brand_string;
//  4. else "".
//
// The string is kept exactly as go test prints it (benchfmt keeps
// trailing spaces in a configuration value), so that a samples file or a
// JSON report lines up with go test's own output; [Snapshot.CPUName],
// which the report's environment shows, is the same name with its spaces
// trimmed. The value is computed once per process.
func GoTestCPU() string { return goTestCPU() }

var goTestCPU = sync.OnceValue(func() string {
	if name := cpuidBrand(); name != "" {
		return name
	}
	return osCPUName()
})

// goTestName is [GoTestCPU]'s rule over given sources: brand, the CPUID
// brand string ("" without CPUID); on Linux (linux true) the name in
// cpuinfo, the text of /proc/cpuinfo, of which go test reads the first
// cpuinfoHead bytes; elsewhere osName (the sysctl on darwin and the BSDs,
// else "").
func goTestName(brand string, linux bool, cpuinfo, osName string) string {
	switch {
	case brand != "":
		return brand
	case linux:
		return linuxCPUName([]byte(cpuinfo[:min(len(cpuinfo), cpuinfoHead)]))
	}
	return osName
}

// cpuinfoHead is how much of /proc/cpuinfo go test reads: enough for the
// first CPU's block.
const cpuinfoHead = 512

// linuxCPUName is internal/sysinfo's Linux rule over buf, the first 512
// bytes of /proc/cpuinfo (the first CPU's block): "model name", plus
// " @ <cpu MHz>MHz" when the name has no frequency and the MHz is there.
func linuxCPUName(buf []byte) string {
	modelName, cpuMHz := "", ""
	sc := bufio.NewScanner(bytes.NewReader(buf))
	for sc.Scan() {
		key, value, found := strings.Cut(sc.Text(), ": ")
		if !found {
			continue
		}
		switch strings.TrimSpace(key) {
		case "Model Name", "model name":
			modelName = value
		case "CPU MHz", "cpu MHz":
			cpuMHz = value
		}
	}
	switch {
	case modelName == "":
		return ""
	case cpuMHz == "", strings.Contains(modelName, "GHz"), strings.Contains(modelName, "MHz"):
		return modelName
	}
	return modelName + " @ " + cpuMHz + "MHz"
}

// brandString decodes the CPUID brand registers as internal/cpu.Name
// does: the bytes of regs in little-endian order, leading spaces removed,
// cut at the first NUL.
func brandString(regs [12]uint32) string {
	data := make([]byte, 0, 48)
	for _, r := range regs {
		data = append(data, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	data = bytes.TrimLeft(data, " ")
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return string(data)
}
