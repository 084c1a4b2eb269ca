//go:build amd64 || 386

package env

// xgetbv executes XGETBV with ECX = 0 (cpuid_amd64.s, cpuid_386.s); it
// faults unless CPUID leaf 1 has OSXSAVE.
func xgetbv() (eax, edx uint32)

// readCPUID returns this CPU's answers to the CPUID leaves the Go
// runtime reads, and XCR0; ok is true on amd64 and 386.
func readCPUID() (c cpuidRegs, ok bool) {
	c.MaxID, _, _, _ = cpuid(0, 0)
	if c.MaxID >= 1 {
		_, _, c.ECX1, _ = cpuid(1, 0)
		if bit(c.ECX1, 27) {
			c.XCR0, _ = xgetbv()
		}
	}
	if c.MaxID >= 7 {
		_, c.EBX7, c.ECX7, c.EDX7 = cpuid(7, 0)
	}
	c.MaxExt, _, _, _ = cpuid(0x80000000, 0)
	if c.MaxExt >= 0x80000001 {
		_, _, _, c.EDXExt1 = cpuid(0x80000001, 0)
	}
	return c, true
}
