package against

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gcSide fills side s of tr with runs of tr.n ops whose time is
// mutatorNs a run plus cycleNs per collection held, the collections
// cycling through ks, bytes B/op each and gcCPU ns of collector CPU a run.
func gcSide(tr *triple, s int, ks []float64, mutatorNs, cycleNs, bytes, gcCPU float64) {
	for _, k := range ks {
		t := mutatorNs + cycleNs*k
		tr.ns[s] = append(tr.ns[s], t/float64(tr.n))
		tr.allocs[s] = append(tr.allocs[s], 10)
		tr.bytes[s] = append(tr.bytes[s], bytes)
		tr.gc[s].cycles = append(tr.gc[s].cycles, k)
		tr.gc[s].cpu = append(tr.gc[s].cpu, gcCPU)
		tr.gc[s].headroom = append(tr.gc[s].headroom, 4<<20)
	}
}

// gcTriples returns a sizing triple (not phased) and phased triples whose
// runs hold 4 collections three times in four and 5 once (a mean of
// 4.25), with base's and the control's mutator at 1 ms a run and new's
// at newMutator, every collection costing 200 µs, B/op 9600 for base and
// the control and newBytes for new.
func gcTriples(phasedTriples int, newMutator, newBytes float64) []triple {
	ks := []float64{4, 4, 5, 4, 4, 4, 5, 4, 4, 5, 4, 4}
	sizing := triple{n: 100}
	for s := range sides {
		gcSide(&sizing, s, []float64{0, 0, 0, 0}, 3e5, 0, 9600, 0)
	}
	ts := []triple{sizing}
	for range phasedTriples {
		tr := triple{n: 1700, gcPhase: true}
		gcSide(&tr, sideBase, ks, 1e6, 2e5, 9600, 3e5)
		gcSide(&tr, sideControl, ks, 1e6, 2e5, 9600, 3e5)
		gcSide(&tr, sideNew, ks, newMutator, 2e5, newBytes, 3e5)
		ts = append(ts, tr)
	}
	return ts
}

func TestWithCollectorCorrectsEachRunToTheMeanCollections(t *testing.T) {
	ts := gcTriples(3, 1e6, 9600)
	out, parts, why := withCollector(ts)
	assert.Empty(t, why)
	require.Len(t, out, 3, "the sizing triple, whose runs did not begin at a random phase, is left out")
	require.NotNil(t, parts)
	// Every run, 4 or 5 collections, is moved to the mean 4.25: the
	// spread of the phase is gone and the mean is untouched.
	want := (1e6 + 2e5*4.25) / 1700
	for _, tr := range out {
		for s := range sides {
			for _, ns := range tr.ns[s] {
				assert.InDelta(t, want, ns, 1e-9)
			}
		}
	}
	assert.InDelta(t, 4.25/(1700), parts.CyclesPerOpBase, 1e-12, "B/S: 9600 B/op over the 9600·1700/4.25 bytes between collections")
	assert.InDelta(t, 0, parts.MutatorDeltaPct, 1e-9)
	assert.InDelta(t, 3e5/1700, parts.GCCPUBaseNs, 1e-9)
	assert.Equal(t, 3, parts.Triples)
}

func TestWithCollectorBytesShowInCollectionsAndMutatorInEqualCollections(t *testing.T) {
	// new allocates more bytes for the same mutator work: its runs hold
	// 4.5 collections on average where base's hold 4.25, the bytes
	// between two collections staying the same
	ts := gcTriples(3, 1e6, 9600)
	more := 9600 * 4.5 / 4.25
	for i := 1; i < len(ts); i++ {
		ts[i].ns[sideNew], ts[i].bytes[sideNew], ts[i].gc[sideNew] = nil, nil, gcRuns{}
		gcSide(&ts[i], sideNew, []float64{4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5}, 1e6, 2e5, more, 3e5)
	}
	_, parts, _ := withCollector(ts)
	require.NotNil(t, parts)
	assert.InDelta(t, 100*(4.5/4.25-1), 100*(parts.CyclesPerOpNew/parts.CyclesPerOpBase-1), 1e-9)
	assert.InDelta(t, 0, parts.MutatorDeltaPct, 1e-9, "at equal collections the runs are the same")

	// new does 5% more mutator work and allocates the same.
	_, parts, _ = withCollector(gcTriples(3, 1.05e6, 9600))
	require.NotNil(t, parts)
	assert.InDelta(t, 0, 100*(parts.CyclesPerOpNew/parts.CyclesPerOpBase-1), 1e-9)
	// at 4 collections, the most common level: (1.05e6 + 8e5)/(1e6 + 8e5)
	assert.InDelta(t, 100*(1.85e6/1.8e6-1), parts.MutatorDeltaPct, 1e-9)
}

func TestWithCollectorFitsTheCostOfACollection(t *testing.T) {
	ts := gcTriples(2, 1e6, 9600)
	fit, ok := fitCollector(phased(ts))
	require.True(t, ok)
	require.True(t, fit.cOK)
	assert.InDelta(t, 2e5, fit.c, 1e-6)
	assert.InDelta(t, 9600*1700/4.25, fit.spacing[sideBase], 1e-6)
}

func TestWithCollectorSeveralAndNoCollections(t *testing.T) {
	// runs holding 0 or 1 collection (a large heap's headroom) are
	// corrected the same way
	tr := triple{n: 1000, gcPhase: true}
	for s := range sides {
		gcSide(&tr, s, []float64{0, 0, 1, 0, 0, 1, 0, 1}, 5e5, 3e5, 1000, 0)
	}
	sizing := triple{n: 1000}
	for s := range sides {
		gcSide(&sizing, s, []float64{0, 0, 0}, 5e5, 0, 1000, 0)
	}
	out, parts, why := withCollector([]triple{sizing, tr, tr})
	require.NotNil(t, parts)
	assert.Empty(t, why)
	assert.InDelta(t, (5e5+3e5*3.0/8)/1000, out[0].ns[sideNew][0], 1e-9)

	// a phased benchmark whose runs held no collection at all is measured
	// as it ran
	quiet := triple{n: 1000, gcPhase: true}
	for s := range sides {
		gcSide(&quiet, s, []float64{0, 0, 0, 0}, 5e5, 0, 16, 0)
	}
	out, parts, why = withCollector([]triple{sizing, quiet, quiet})
	assert.Nil(t, parts)
	assert.Empty(t, why)
	assert.Len(t, out, 2)
	assert.Equal(t, quiet.ns, out[0].ns)
}

func TestWithCollectorNonAllocatingUnchanged(t *testing.T) {
	var ts []triple
	for range 3 {
		tr := triple{n: 1000}
		for s := range sides {
			gcSide(&tr, s, []float64{0, 0, 0}, 5e5, 0, 0, 0)
		}
		ts = append(ts, tr)
	}
	out, parts, why := withCollector(ts)
	assert.Nil(t, parts)
	assert.Empty(t, why)
	assert.Equal(t, ts, out)
}

func TestWithCollectorCyclesUnknownIsSaid(t *testing.T) {
	ts := gcTriples(2, 1e6, 9600)
	ts[2].gc[sideBase].cycles[0] = -1 // an older child: no cycles in its report
	out, parts, why := withCollector(ts)
	assert.Nil(t, parts)
	assert.Contains(t, why, "did not say how many collections")
	assert.Len(t, out, 2)
	assert.Equal(t, ts[1].ns, out[0].ns, "uncorrected")
}

func TestWithCollectorCostUnknownLeavesRunsAndSaysParts(t *testing.T) {
	// every run holds 4 collections: one collection's cost cannot be
	// told, the runs stay as they are, the parts at equal collections
	// are still known
	tr := triple{n: 1700, gcPhase: true}
	for s := range sides {
		gcSide(&tr, s, []float64{4, 4, 4, 4}, 1e6, 2e5, 9600, -1)
	}
	out, parts, _ := withCollector([]triple{{n: 1}, tr, tr})
	require.NotNil(t, parts)
	assert.Equal(t, tr.ns, out[0].ns)
	assert.InDelta(t, 0, parts.MutatorDeltaPct, 1e-9)
	assert.True(t, math.IsNaN(parts.GCCPUBaseNs), "a run's collector CPU unknown: the side's is unknown")
	assert.NotContains(t, parts.Describe(Count{Base: 9600, New: 9600}), "collector CPU")
}

func TestGCPartsDescribe(t *testing.T) {
	p := GCParts{MutatorDeltaPct: 0.4, CyclesPerOpBase: 0.0026, CyclesPerOpNew: 0.00273, GCCPUBaseNs: 500, GCCPUNewNs: 525, Triples: 9}
	got := p.Describe(Count{Base: 9600, New: 10080})
	assert.Equal(t, "collector in, at a long run's rate (9 triples at a random phase of its cycle): at equal collections +0.40% (the mutator), collections per op 0.0026 → 0.00273 (+5.00%), collector CPU 500ns → 525ns/op, B/op +5.00%", got)
	p.MutatorDeltaPct = math.NaN()
	assert.NotContains(t, p.Describe(Count{Base: 9600, New: 10080}), "equal collections")
}

func TestSizeForCollector(t *testing.T) {
	sz := sizing{n: 300, run: 3 * time.Millisecond, nsPerOp: 10_000}
	tr := triple{n: 300}
	gcSide(&tr, sideBase, []float64{0, 0, 0}, 3e6, 0, 9600, 0)
	rs := sizeForCollector(tr, sz)
	assert.True(t, rs.gcPhase)
	assert.Equal(t, int(math.Ceil(gcCycles*float64(4<<20)/9600)), rs.n, "gcCycles headrooms of bytes")

	slow := sz
	slow.nsPerOp = 100_000 // 1748 ops would last 175 ms: capped at maxGCRun
	assert.Equal(t, int(maxGCRun/(100_000*time.Nanosecond)), sizeForCollector(tr, slow).n)

	none := triple{n: 300}
	gcSide(&none, sideBase, []float64{0, 0, 0}, 3e6, 0, 0, 0)
	assert.Equal(t, runSize{n: 300, run: 3 * time.Millisecond}, sizeForCollector(none, sz), "no bytes: as before, no phase")
}
