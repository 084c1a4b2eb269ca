package env

import (
	"io"
	"os"
)

// osCPUName is go test's Linux fallback: see linuxCPUName.
func osCPUName() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, cpuinfoHead)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return ""
	}
	return linuxCPUName(buf[:n])
}
