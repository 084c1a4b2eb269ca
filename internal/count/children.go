package count

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
)

// EnvChildren names the file to which a process of a count writes, at
// its end, the resource use of the processes it started ([WriteChildren]);
// the count sets it for each of its processes.
//
// valgrind without --trace-children counts the instructions of the
// process it starts only: a benchmark that runs other programs
// (exec.Command) is counted without them, and valgrind's log says
// nothing of it. Tracing the children would run each under a valgrind
// of its own, with its start-up, and count programs that are not the
// benchmark. Instead the counted process reads getrusage(RUSAGE_CHILDREN)
// when the benchmark is done, which costs one system call: it covers
// every process it started and waited for (os/exec's Run and Wait wait),
// not one still running at its end. Minor page faults tell whether
// children ran and how much: every process faults pages in (a fork's
// copy-on-write, an exec's mappings), while CPU time is sampled on clock
// ticks and can read 0 for a short process.
const EnvChildren = "BENCHKIT_COUNT_CHILDREN"

// Children is the resource use of the processes a counted process
// started and waited for.
type Children struct {
	// MinorFaults are their minor page faults (ru_minflt).
	MinorFaults int64 `json:"minor_faults"`
	// CPU is their user and system CPU time (ru_utime + ru_stime).
	CPU time.Duration `json:"cpu_ns"`
}

// WriteChildren writes, in a process of a count ([EnvChildren] set and
// a child of a benchkit parent), the resource use of the processes it
// started and waited for so far, as JSON; it does nothing elsewhere or
// where getrusage is not available. benchkit.Main calls it in such a
// process once the benchmarks ran.
func WriteChildren() error {
	path := os.Getenv(EnvChildren)
	if path == "" || !child.Is() {
		return nil
	}
	u, ok := childrenUsage()
	if !ok {
		return nil
	}
	b, err := json.Marshal(u)
	if err == nil {
		err = os.WriteFile(path, b, 0o600)
	}
	if err != nil {
		return fmt.Errorf("benchkit: count: cannot write the resource use of the processes this one started to %s (%s): %w", path, EnvChildren, err)
	}
	return nil
}

// readChildren reads the file a process wrote with [WriteChildren];
// ok is false when there is none (a binary whose benchkit predates it,
// or one without benchkit).
func readChildren(path string) (c Children, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &c) != nil || c.MinorFaults < 0 {
		return Children{}, false
	}
	return c, true
}

// childrenNote says, from the processes of a count (N1 = n1, N2 = n2),
// that the benchmark started processes whose instructions are not
// counted, and whether they grew with N: "" when no process started any,
// or when a process at N1 or N2 did not say. They grow with N, so run
// per op and are missing from the count, when the fewest faults at n2
// exceed those at n1 by more than half of what they would add if all of
// n1's were per op (c2 − c1 > c1·(n2 − n1)/(2·n1)); otherwise they ran
// about as much at both N, so likely once a process or a run of the
// benchmark function, which cancels.
func childrenNote(runs []Run, n1, n2 int) string {
	var at1, at2 []Run
	for _, r := range runs {
		switch {
		case r.ChildFaults < 0 && (r.N == n1 || r.N == n2):
			return ""
		case r.N == n1:
			at1 = append(at1, r)
		case r.N == n2:
			at2 = append(at2, r)
		}
	}
	if len(at1) == 0 || len(at2) == 0 {
		return ""
	}
	r1, lo := at1[0], at2[0]
	for _, r := range at2 {
		if r.ChildFaults < lo.ChildFaults {
			lo = r
		}
	}
	if r1.ChildFaults == 0 && lo.ChildFaults == 0 {
		return ""
	}
	seen := fmt.Sprintf("%d minor page faults and %v of CPU at N = %d, %d and %v at N = %d",
		r1.ChildFaults, r1.ChildCPU.Round(time.Millisecond), n1, lo.ChildFaults, lo.ChildCPU.Round(time.Millisecond), n2)
	if 2*(lo.ChildFaults-r1.ChildFaults)*int64(n1) > r1.ChildFaults*int64(n2-n1) {
		return "the benchmark starts processes as it runs (" + seen + "): their instructions are not in the count"
	}
	return "the benchmark started processes (" + seen + "; not growing with N, so likely once a run, which cancels)"
}
