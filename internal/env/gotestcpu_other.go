//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package env

// osCPUName is "" where go test has no operating-system source for the
// name (windows, plan9, ...): it prints no cpu line there unless CPUID
// gave one.
func osCPUName() string { return "" }
