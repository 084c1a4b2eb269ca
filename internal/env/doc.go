// Package env probes the machine a benchmark runs on: what it is (CPU,
// governor, turbo, virtualisation, build flags) and how contended it is
// while a benchmark runs (run-queue wait, involuntary context switches,
// steal time).
//
// Take a [Snapshot] once, before the benchmarks, and show its facts and
// warnings in the report header:
//
//	s := env.Probe()
//	for _, f := range s.Facts() {
//		fmt.Printf("%s %s\n", f.Name, f.Value) // "governor unknown"
//	}
//	for _, w := range s.Warnings() {
//		fmt.Println("benchkit: " + w.Message) // what, the numbers, the fix
//	}
//
// Sample [Contention] around each benchmark and subtract:
//
//	before := env.ReadContention()
//	// ... run the benchmark ...
//	d := env.ReadContention().Sub(before)
//	if d.WaitKnown {
//		share := d.RunQueueWait.Seconds() / elapsed.Seconds() // waited for a CPU
//	}
//
// # Unknown
//
// Nothing here returns an error for a file it cannot read: a probe that
// cannot read says "unknown" (a Known field set to false), on every
// operating system. Unknown is never a warning by itself. Outside Linux
// every file probe (load, governor, turbo, virtualisation, steal, CPU
// model) is unknown; the Go runtime and build probes work everywhere.
//
// # Sources
//
// On Linux the probes read /proc/loadavg, /proc/stat, /proc/cpuinfo,
// /sys/devices/system/cpu/cpuN/cpufreq/scaling_governor,
// /sys/devices/system/cpu/intel_pstate/no_turbo,
// /sys/devices/system/cpu/cpufreq/boost, /sys/hypervisor/type,
// /sys/class/dmi/id/{sys_vendor,product_name} and
// /proc/self/task/*/schedstat; the build probes read
// [runtime/debug.ReadBuildInfo] and [testing.CoverMode]. Importing this
// package registers no flags.
//
// # go test's cpu line
//
// [GoTestCPU] is the processor name exactly as go test prints it on its
// "cpu:" line (the CPUID brand string on x86, else /proc/cpuinfo or a
// sysctl), for the samples file and the JSON report, which must line up
// with go test's own output. The report's cpu fact is the same name,
// spaces trimmed ([Snapshot.CPUName]), so the two never disagree; only
// where go test prints none does it fall back to [Snapshot.CPUModel],
// the /proc/cpuinfo name (which on many VMs differs from CPUID's).
package env
