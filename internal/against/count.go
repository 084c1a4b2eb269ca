package against

import (
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/benchkit/go-benchkit/internal/count"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// countAll counts, with the plan's counter, the instructions per op of
// every benchmark of a in both binaries (once per name whatever the -cpu
// values: the counts run at one P), compares them (count.Compare) and
// applies the instruction gate. It says on stderr what it is doing,
// since each count takes seconds. The processes get the user's go test
// flags but none of benchkit's, which the base need not define.
func (st *state) countAll(a *registry.Against, fs *flag.FlagSet, stderr io.Writer) {
	if st.p.counter == nil || len(a.Benches) == 0 {
		return
	}
	fmt.Fprintf(stderr, "benchkit: counting the instructions per op of %d benchmarks in both binaries under valgrind, one at a time (seconds each; docs/counts.md)\n", len(a.Benches))
	args := withoutBenchkitFlags(count.Args(fs))
	byName := map[string]registry.InstrChange{}
	for i := range a.Benches {
		b := &a.Benches[i]
		name := "Benchmark" + trimProcs(b.Name, cpus())
		ch, ok := byName[name]
		if !ok {
			baseNs, _ := stats.Median(b.Base.NsPerOp)
			ch = instrChange(
				st.countOne(st.p.base.Path, name, args, baseNs),
				st.countOne(st.p.newExe, name, args, b.NewEst.NsPerOp))
			byName[name] = ch
		}
		b.Instr = &ch
		gateInstr(b, *a)
	}
}

// countOne counts one benchmark of one binary.
func (st *state) countOne(bin, name string, args []string, nsPerOp float64) registry.InstrCount {
	res, err := st.p.counter(count.Target{Binary: bin, Benchmark: name, Args: args}, count.Limits{NsPerOp: max(nsPerOp, 0)})
	return count.Record(res, err)
}

// instrChange compares two counts; without both, DeltaPct is NaN and
// nothing changed.
func instrChange(base, cand registry.InstrCount) registry.InstrChange {
	ch := registry.InstrChange{Base: base, New: cand, DeltaPct: math.NaN()}
	if !ch.Counted() {
		return ch
	}
	c := count.Compare(count.Result{PerOp: base.PerOp, ResolutionPct: base.ResolutionPct, SpreadPct: -1},
		count.Result{PerOp: cand.PerOp, ResolutionPct: cand.ResolutionPct, SpreadPct: -1})
	ch.DeltaPct, ch.TolerancePct, ch.Changed = c.DeltaPct, c.TolerancePct, c.Changed
	return ch
}

// gateInstr fails b when its instructions per op rose beyond a's
// instruction gate; a count that could not be made fails nothing and
// says so in b's gate note.
func gateInstr(b *registry.AgainstBench, a registry.Against) {
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
		b.GateFailed = true
	}
}

// firstReason is why a count is missing: the base's reason, else the
// new binary's.
func firstReason(c registry.InstrChange) string {
	if !c.Base.Counted() {
		return c.Base.Reason
	}
	return c.New.Reason
}
