//go:build darwin || freebsd || netbsd || openbsd

package env

import "golang.org/x/sys/unix"

// osCPUName is go test's fallback on darwin and the BSDs: the sysctl
// machdep.cpu.brand_string, "" when it is absent.
func osCPUName() string {
	name, err := unix.Sysctl("machdep.cpu.brand_string")
	if err != nil {
		return ""
	}
	return name
}
