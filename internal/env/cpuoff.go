package env

import (
	"strconv"
	"strings"
)

// cpuidRegs holds the CPUID answers (and the XCR0 register) from which
// the Go runtime's internal/cpu decides the x86 features it uses.
type cpuidRegs struct {
	// MaxID is EAX of leaf 0, MaxExt EAX of leaf 0x80000000.
	MaxID, MaxExt uint32
	// ECX1 is ECX of leaf 1; EBX7, ECX7 and EDX7 those of leaf 7
	// (subleaf 0); EDXExt1 is EDX of leaf 0x80000001.
	ECX1, EBX7, ECX7, EDX7, EDXExt1 uint32
	// XCR0 is EAX of XGETBV with ECX = 0 (the register state the operating
	// system saves), read only when ECX1 has OSXSAVE; 0 otherwise.
	XCR0 uint32
}

// cpuOption is one of the Go runtime's GODEBUG cpu options on amd64 and
// 386 ($GOROOT/src/internal/cpu/cpu_x86.go, doinit).
type cpuOption struct {
	name string
	// since is the first Go release (1.since) whose runtime registers it.
	since int
	// level is the GOAMD64 level from which the feature is required, and
	// the option is no longer registered (5: registered at every level).
	level int
	// has reports whether the runtime sets the feature on a CPU with
	// these answers; goMinor is the binary's Go release (1.goMinor).
	has func(c cpuidRegs, goMinor int) bool
}

// firstCPUOptions is the oldest Go release whose option list CPUOff
// knows (checked in the sources of go1.24.0, go1.25.0 and go1.26):
// older binaries get no options.
const firstCPUOptions = 24

// cpuOptions are the options in the order doinit registers them.
var cpuOptions = []cpuOption{
	{"adx", 24, 5, func(c cpuidRegs, _ int) bool { return c.leaf7() && bit(c.EBX7, 19) }},
	{"aes", 24, 5, func(c cpuidRegs, _ int) bool { return c.leaf1() && bit(c.ECX1, 25) }},
	{"erms", 24, 5, func(c cpuidRegs, _ int) bool { return c.leaf7() && bit(c.EBX7, 9) }},
	{"fsrm", 24, 5, func(c cpuidRegs, _ int) bool { return c.leaf7() && bit(c.EDX7, 4) }},
	{"pclmulqdq", 24, 5, func(c cpuidRegs, _ int) bool { return c.leaf1() && bit(c.ECX1, 1) }},
	// doinit returns before reading leaf 0x80000001 when leaf 7 is
	// missing.
	{"rdtscp", 24, 5, func(c cpuidRegs, _ int) bool { return c.leaf7() && c.MaxExt >= 0x80000001 && bit(c.EDXExt1, 27) }},
	{"sha", 24, 5, func(c cpuidRegs, _ int) bool { return c.leaf7() && bit(c.EBX7, 29) }},
	{"vpclmulqdq", 26, 5, func(c cpuidRegs, _ int) bool { return c.avx512f() && bit(c.ECX7, 10) }},
	{"popcnt", 24, 2, func(c cpuidRegs, _ int) bool { return c.leaf1() && bit(c.ECX1, 23) }},
	{"sse3", 24, 2, func(c cpuidRegs, _ int) bool { return c.leaf1() && bit(c.ECX1, 0) }},
	{"sse41", 24, 2, func(c cpuidRegs, _ int) bool { return c.leaf1() && bit(c.ECX1, 19) }},
	{"sse42", 24, 2, func(c cpuidRegs, _ int) bool { return c.leaf1() && bit(c.ECX1, 20) }},
	{"ssse3", 24, 2, func(c cpuidRegs, _ int) bool { return c.leaf1() && bit(c.ECX1, 9) }},
	{"avx", 24, 3, func(c cpuidRegs, _ int) bool { return c.avx() }},
	{"avx2", 24, 3, func(c cpuidRegs, _ int) bool { return c.leaf7() && bit(c.EBX7, 5) && c.osAVX() }},
	{"bmi1", 24, 3, func(c cpuidRegs, _ int) bool { return c.leaf7() && bit(c.EBX7, 3) }},
	{"bmi2", 24, 3, func(c cpuidRegs, _ int) bool { return c.leaf7() && bit(c.EBX7, 8) }},
	// Before go1.26 FMA needed OSXSAVE but not AVX.
	{"fma", 24, 3, func(c cpuidRegs, goMinor int) bool {
		return c.leaf1() && bit(c.ECX1, 12) && c.osxsave() && (c.avx() || goMinor < 26)
	}},
	{"avx512f", 24, 4, func(c cpuidRegs, _ int) bool { return c.avx512f() }},
	{"avx512cd", 26, 4, func(c cpuidRegs, _ int) bool { return c.avx512f() && bit(c.EBX7, 28) }},
	{"avx512bw", 24, 4, func(c cpuidRegs, _ int) bool { return c.avx512f() && bit(c.EBX7, 30) }},
	{"avx512dq", 26, 4, func(c cpuidRegs, _ int) bool { return c.avx512f() && bit(c.EBX7, 17) }},
	{"avx512vl", 24, 4, func(c cpuidRegs, _ int) bool { return c.avx512f() && bit(c.EBX7, 31) }},
}

func bit(reg uint32, n uint) bool { return reg&(1<<n) != 0 }

func (c cpuidRegs) leaf1() bool   { return c.MaxID >= 1 }
func (c cpuidRegs) leaf7() bool   { return c.MaxID >= 7 }
func (c cpuidRegs) osxsave() bool { return c.leaf1() && bit(c.ECX1, 27) }

// osAVX and osAVX512 report whether the operating system saves the YMM
// (XCR0 bits 1, 2) and the AVX-512 (also bits 5, 6, 7) registers.
func (c cpuidRegs) osAVX() bool { return c.osxsave() && bit(c.XCR0, 1) && bit(c.XCR0, 2) }
func (c cpuidRegs) osAVX512() bool {
	return c.osAVX() && bit(c.XCR0, 5) && bit(c.XCR0, 6) && bit(c.XCR0, 7)
}
func (c cpuidRegs) avx() bool     { return c.leaf1() && bit(c.ECX1, 28) && c.osAVX() }
func (c cpuidRegs) avx512f() bool { return c.leaf7() && bit(c.EBX7, 16) && c.osAVX512() }

// cpuOffFor is [CPUOff] on a CPU with the answers c.
func cpuOffFor(c cpuidRegs, goVersion, goamd64 string) []string {
	minor, ok := goMinor(goVersion)
	if !ok || minor < firstCPUOptions {
		return nil
	}
	level := 1
	if len(goamd64) == 2 && goamd64[0] == 'v' && goamd64[1] >= '1' && goamd64[1] <= '4' {
		level = int(goamd64[1] - '0')
	}
	var off []string
	for _, o := range cpuOptions {
		if minor >= o.since && level < o.level && !o.has(c, minor) {
			off = append(off, "cpu."+o.name+"=off")
		}
	}
	return off
}

// goMinor returns the minor release of a Go version as build information
// and runtime.Version print it: 26 for "go1.26.8", "go1.26rc1",
// "go1.26.8 X:nocoverageredesign" and "devel go1.26-abcdef Mon Jan 1".
func goMinor(v string) (int, bool) {
	for _, f := range strings.Fields(v) {
		rest, ok := strings.CutPrefix(f, "go1.")
		if !ok {
			continue
		}
		end := 0
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(rest[:end])
		return n, err == nil
	}
	return 0, false
}

// CPUOff returns "cpu.<name>=off" for each GODEBUG cpu option that a
// binary built by Go release goVersion ("go1.26.8", as its build
// information says) at GOAMD64 level goamd64 ("v1" … "v4"; "" is v1, as
// on 386) registers, and whose feature this CPU lacks as the Go runtime
// decides it (from CPUID, and from XCR0 for the registers the operating
// system saves): the features the binary does not use when it runs
// natively here, which a program presenting another CPU model, such as
// valgrind, may claim. It is nil off amd64 and 386, and for a Go release
// before go1.24 or one it cannot read. A release after go1.26 is taken to
// register go1.26's options; if one dropped an option, its runtime would
// print "GODEBUG: unknown cpu feature" on stderr and go on.
func CPUOff(goVersion, goamd64 string) []string {
	c, ok := readCPUID()
	if !ok {
		return nil
	}
	return cpuOffFor(c, goVersion, goamd64)
}
