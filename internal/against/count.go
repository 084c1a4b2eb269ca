package against

import (
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// countAll counts, with the plan's counter, the instructions per op of
// every benchmark of a in both binaries (once per name whatever the -cpu
// values: the counts run at one P), compares them (count.Pair, which runs
// more processes where a benchmark's count differs from process to
// process) and applies the instruction gate. It says on stderr what it
// is doing, since each count takes seconds. The processes get the user's
// go test flags but none of benchkit's, which the base need not define.
func (st *state) countAll(a *Result, fs *flag.FlagSet, stderr io.Writer) {
	if st.p.counter == nil || len(a.Benches) == 0 {
		return
	}
	fmt.Fprintf(stderr, "benchkit: counting the instructions per op of %d benchmarks in both binaries under valgrind, one at a time (seconds each; docs/counts.md)\n", len(a.Benches))
	args := withoutBenchkitFlags(count.Args(fs))
	byName := map[string]InstrChange{}
	for i := range a.Benches {
		b := &a.Benches[i]
		name := "Benchmark" + benchname.Trim(b.Name, cpus()...)
		ch, ok := byName[name]
		if !ok {
			basePath, newPath := st.exe(sideBase), st.exe(sideNew)
			if basePath == "" || newPath == "" || child.Interrupted() != nil {
				st.interrupted(child.Result{})
				return
			}
			baseNs, _ := stats.Median(b.Base.NsPerOp)
			p := count.Pair(st.p.counter,
				count.Target{Binary: basePath, Benchmark: name, Args: args, Dir: st.dir(sideBase)},
				count.Target{Binary: newPath, Benchmark: name, Args: args},
				count.Limits{NsPerOp: max(baseNs, 0)}, count.Limits{NsPerOp: max(b.NewEst.NsPerOp, 0)})
			ch = instrChange(p)
			byName[name] = ch
		}
		b.Instr = &ch
		gateInstr(b, *a)
	}
}

// instrChange is the registry's record of a pair of counts; without both
// counts, DeltaPct is NaN and nothing changed.
func instrChange(p count.Paired) InstrChange {
	ch := InstrChange{Base: count.Outcome(p.Base, p.BaseErr), New: count.Outcome(p.New, p.NewErr), DeltaPct: math.NaN()}
	if ch.Counted() {
		ch.DeltaPct, ch.TolerancePct, ch.Changed = p.Change.DeltaPct, p.Change.TolerancePct, p.Change.Changed
	}
	return ch
}

// gateInstr fails b when its instructions per op rose beyond a's
// instruction gate; a count that could not be made fails nothing and
// says so in b's gate note.
func gateInstr(b *Bench, a Result) {
	if a.GateInstr <= 0 || b.Instr == nil {
		return
	}
	c := b.Instr
	switch {
	case !c.Counted():
		note := fmt.Sprintf("instruction gate not applied: not counted (%s)", firstReason(*c))
		if b.GateNote != "" {
			note = b.GateNote + "; " + note
		}
		b.GateNote = note
	case c.Changed && c.DeltaPct > a.GateInstr:
		b.GatesFailed = append(b.GatesFailed, GateInstr)
	}
}

// firstReason is why a count is missing: the base's reason, else the
// new binary's.
func firstReason(c InstrChange) string {
	if !c.Base.Counted() {
		return string(c.Base.Reason)
	}
	return string(c.New.Reason)
}
