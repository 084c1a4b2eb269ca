//go:build amd64 || 386

package env

// cpuid executes the CPUID instruction (cpuid_amd64.s, cpuid_386.s).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// cpuidBrand returns the processor brand string, or "" when the CPU does
// not report one (extended leaf 0x80000004 unsupported).
func cpuidBrand() string {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt < 0x80000004 {
		return ""
	}
	var regs [12]uint32
	for i, leaf := range []uint32{0x80000002, 0x80000003, 0x80000004} {
		regs[4*i], regs[4*i+1], regs[4*i+2], regs[4*i+3] = cpuid(leaf, 0)
	}
	return brandString(regs)
}
