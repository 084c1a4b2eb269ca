//go:build !(amd64 || 386)

package env

// readCPUID returns false where there is no CPUID instruction.
func readCPUID() (c cpuidRegs, ok bool) { return cpuidRegs{}, false }
