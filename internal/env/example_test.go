package env_test

import (
	"fmt"
	"time"

	"github.com/benchkit/go-benchkit/internal/env"
)

// Probe once before the benchmarks and print the header and the warnings.
// The values depend on the machine, so this example has no Output.
func ExampleProbe() {
	s := env.Probe()
	for _, f := range s.Facts() {
		fmt.Printf("%s %s\n", f.Name, f.Value)
	}
	for _, w := range s.Warnings() {
		fmt.Printf("benchkit: %s\n", w.Message)
	}
}

// A snapshot of a bare-metal box with the powersave governor, read as facts.
// Probes that could not read say "unknown".
func ExampleSnapshot_Facts() {
	s := env.Snapshot{
		GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64",
		NumCPU: 4, GOMAXPROCS: 4,
		CPUModel: "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", CPUModelKnown: true,
		Load1: 0.12, Load5: 0.30, Load15: 0.25, LoadKnown: true,
		Governors: []string{"powersave"}, GovernorCPUs: 4, NotPerformanceCPUs: 4, GovernorKnown: true,
		BuildKnown: true,
	}
	for _, f := range s.Facts() {
		fmt.Printf("%-15s %s\n", f.Name, f.Value)
	}
	// Output:
	// go              go1.26.8 linux/amd64
	// cpu             Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz
	// cpus            4
	// gomaxprocs      4
	// load            0.12 0.30 0.25 (1, 5, 15 min)
	// governor        powersave
	// turbo           unknown
	// virtualisation  unknown
	// steal           unknown
	// build           optimised, no race, no cover
}

// Warnings name the problem, the numbers and the fix. Unknown probes
// (turbo here) never warn.
func ExampleSnapshot_Warnings() {
	s := env.Snapshot{
		GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64",
		NumCPU: 2, GOMAXPROCS: 2,
		Load1: 3.5, LoadKnown: true,
		Governors: []string{"powersave"}, GovernorCPUs: 2, NotPerformanceCPUs: 2, GovernorKnown: true,
		Race: true, BuildKnown: true,
	}
	for _, w := range s.Warnings() {
		fmt.Printf("%s: %s\n", w.Key, w.Message)
	}
	// Output:
	// race: built with the race detector (-race): it slows memory accesses 2-20x and synchronisation more; benchmark without -race
	// load: load average 3.50 over the last minute is above the 2 CPUs: other processes are competing for them; stop other work or benchmark on a quiet machine
	// governor: CPU frequency governor is powersave on 2 of 2 CPUs, not performance: the clock speed follows the load; run `sudo cpupower frequency-set -g performance` (or `pyperf system tune`)
}

// Sample the contention counters around a piece of work and subtract.
// The numbers depend on the machine, so this example has no Output.
func ExampleReadContention() {
	before := env.ReadContention()
	sum := 0
	for i := range 1_000_000 {
		sum += i
	}
	d := env.ReadContention().Sub(before)
	if d.WaitKnown {
		fmt.Printf("waited %v for a CPU (sum %d)\n", d.RunQueueWait, sum)
	}
}

// Sub subtracts two snapshots; a counter unknown on either side stays
// unknown, and a difference never goes below zero.
func ExampleContention_Sub() {
	before := env.Contention{RunQueueWait: 2 * time.Millisecond, WaitKnown: true, InvoluntarySwitches: 10, SwitchesKnown: true}
	after := env.Contention{RunQueueWait: 370 * time.Millisecond, WaitKnown: true, InvoluntarySwitches: 227, SwitchesKnown: true,
		StealTime: 40 * time.Millisecond, StealKnown: true}
	d := after.Sub(before)
	fmt.Println(d.RunQueueWait, d.WaitKnown)
	fmt.Println(d.InvoluntarySwitches, d.SwitchesKnown)
	fmt.Println(d.StealTime, d.StealKnown)
	// Output:
	// 368ms true
	// 217 true
	// 0s false
}

// Only stable facts belong in benchfmt configuration lines; load and steal
// change from run to run and would split benchstat's tables.
func ExampleFact_Stable() {
	s := env.Snapshot{GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", NumCPU: 2, GOMAXPROCS: 2, Load1: 0.5, LoadKnown: true}
	for _, f := range s.Facts() {
		if !f.Stable() {
			fmt.Printf("%s varies: %s\n", f.Name, f.Value)
		}
	}
	// Output:
	// load varies: 0.50 0.00 0.00 (1, 5, 15 min)
	// steal varies: unknown
}
