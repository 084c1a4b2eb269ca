package report

import (
	"fmt"
	"strings"
)

// causeFindings returns the findings that name a cause of spread other
// than regimes (which findingsOf explains itself), each with its own fix:
// a cold first sample, contention for the CPUs, and a drift. unit is
// "runs" or "batches".
func causeFindings(r Row, unit string) []string {
	var out []string
	one := singular(unit)
	if r.ColdStart > 0 {
		rest := r.Samples[1:]
		med := r.Samples[0] / r.ColdStart
		out = append(out, fmt.Sprintf(
			"cold start: the first %s took %s per op, %.0f× the median of the other %d (%s): the first iteration paid for page faults, "+
				"lazy initialisation or cold caches, not the machine; the ±, grade, regimes and drift here leave it out, but testing's ns/op includes it. "+
				"Fix: run the work once before the loop (b.Loop does not time what comes before it) or build the lazily-initialised state in the benchmark's setup; "+
				"a longer -benchtime only dilutes it",
			one, fmtNs(r.Samples[0]), r.ColdStart, len(rest), fmtNs(med)))
	}
	if contended(r) {
		out = append(out, fmt.Sprintf(
			"contention: the process waited for a CPU %.1f%% of the run's wall time (other processes competed for the cores); "+
				"more runs average the noise but keep its bias. Fix: stop other work on the machine (other builds and tests; go test -p 1), "+
				"or give the benchmark its own cores (taskset, a pinned container)",
			r.WaitPct))
	}
	if d := r.Drift; d != nil {
		dir := "slower"
		if d.ChangePct < 0 {
			dir = "faster"
		}
		out = append(out, fmt.Sprintf(
			"drift: the level moved %+.1f%% (%s) through the %s, steadily (Mann–Kendall p %.2g over %d blocks, Sen's slope): "+
				"a clock ramping up or throttling, or state that grows across iterations (a cache, a map, the heap). "+
				"Fix: warm up before measuring (-benchkit.warmup=2s), check that every iteration starts from the same state, "+
				"and compare only runs taken after the level settles",
			d.ChangePct, dir, unit, d.P, d.Blocks))
	}
	return out
}

// contended reports whether r's wait% names contention as a cause.
func contended(r Row) bool { return r.WaitPct > ContentionPct }

// causes lists the causes of spread found in r, for the grade finding:
// regimes, contention and drift (a cold start is left out of the grade).
func causes(r Row) []string {
	var cs []string
	if r.Regimes != nil {
		cs = append(cs, "two regimes")
	}
	if contended(r) {
		cs = append(cs, fmt.Sprintf("contention (wait %.1f%%)", r.WaitPct))
	}
	if r.Drift != nil {
		cs = append(cs, "drift")
	}
	return cs
}

// gradeFinding explains a noisy or do-not-trust grade: what was graded,
// and either the causes found (each with its own finding and fix) or,
// when there is none, that the spread is the benchmark's own and how many
// runs resolve a change; under a hypervisor (virtualised), that the host
// may be slowing the guest unseen. "" for better grades.
func gradeFinding(r Row, unit string, virtualised bool) string {
	if r.Grade != GradeNoisy && r.Grade != GradeDoNotTrust {
		return ""
	}
	what := fmt.Sprintf("cv %.1f%% over %s", r.CVPct, unit)
	if r.GradeBasis == BasisBatchCI {
		what = fmt.Sprintf("the run's median is known to ±%.1f%% (95%%, 16 blocks of its batches; batch spread %.1f%%)", r.CIPct, r.CVPct)
	}
	if cs := causes(r); len(cs) > 0 {
		return fmt.Sprintf("%s: %s, caused by %s (see above); fix the cause rather than adding runs",
			what, r.Grade, strings.Join(cs, " and "))
	}
	more := fmt.Sprintf("resolving a small change needs %s runs per side (Lehr's rule on the run-to-run cv)", runsNeededCell(r))
	if r.RunsNeededBasis == BasisBatchCI {
		more = "a longer -benchtime narrows the interval, and -count=10 measures the run-to-run cv that sizes a comparison"
	}
	host := ""
	if virtualised {
		host = "; or, under this hypervisor, the host slowing this guest, which neither wait% nor steal shows (see the virtualisation warning)"
	}
	return fmt.Sprintf("%s: %s; %s. No contention, regimes or drift to blame: the spread is the benchmark's own (allocation and GC, "+
		"input-dependent work) or interference too short to see%s", what, r.Grade, more, host)
}

// singular returns "run" for "runs" and "batch" for "batches".
func singular(unit string) string {
	if unit == "batches" {
		return "batch"
	}
	return strings.TrimSuffix(unit, "s")
}
