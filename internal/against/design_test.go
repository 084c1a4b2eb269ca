package against

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	vd "github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

// synthTriple makes a triple of runs rounds around 100 ns, its processes'
// level offset by between (a fraction, drawn per process) and each run's
// by within, with warm discarded rounds (the first two 30% slow) and the
// given costs.
func synthTriple(r *rand.Rand, warm, runs int, between, within float64, fixed, perRound time.Duration) triple {
	tr := triple{warm: warm, n: 3000, roundsWall: time.Duration(warm+runs) * perRound}
	tr.wall = tr.roundsWall + fixed
	for s := range sides {
		level := 100 * (1 + between*r.NormFloat64())
		for i := range warm {
			slow := 1.0
			if i < 2 {
				slow = 1.3
			}
			tr.warmNs[s] = append(tr.warmNs[s], slow*level)
		}
		for range runs {
			tr.ns[s] = append(tr.ns[s], level*(1+within*r.NormFloat64()))
		}
	}
	return tr
}

// TestDesignFixed: -benchkit.rounds (or -benchtime=Nx) fixes the
// triples and their runs, and nothing stops them early.
func TestDesignFixed(t *testing.T) {
	p := Plan{bt: testflag.Benchtime{D: time.Second}, roundsSet: true}
	p.Rounds = 4
	d := p.newDesign(sizing{n: 3000, rounds: 166, run: 3 * time.Millisecond})
	warm, runs, _ := d.shape()
	assert.Equal(t, warmRounds, warm)
	assert.Equal(t, 166, runs)
	r := rand.New(rand.NewPCG(1, 2))
	var ts []triple
	for i := range 4 {
		ts = append(ts, synthTriple(r, warm, runs, 0.001, 0.01, 100*time.Millisecond, 9*time.Millisecond))
		stop := d.next(ts, 0, func(float64) vd.Verdict { return vd.Slower })
		assert.Equal(t, i == 3, stop, "stops after the 4 triples asked for, whatever a look would say")
	}
	assert.Equal(t, "the 4 triples asked for", d.stop)
	assert.Equal(t, StopRounds, d.stopCode)
	assert.Equal(t, 4, d.total(), "progress says triple k of 4")
}

// TestDesignFixedAllocating: a fixed design of an allocating benchmark
// runs one triple more, since the first, which sized its runs, is left
// out of the estimate; the others begin at a random phase of the
// collector's cycle.
func TestDesignFixedAllocating(t *testing.T) {
	p := Plan{bt: testflag.Benchtime{D: time.Second}, roundsSet: true}
	p.Rounds = 2
	d := p.newDesign(sizing{n: 300, rounds: 100, run: 3 * time.Millisecond, nsPerOp: 10_000})
	first := triple{n: 300}
	for s := range sides {
		gcSide(&first, s, []float64{0, 1, 0}, 3e6, 0, 9600, 0)
	}
	assert.Equal(t, 2, d.total(), "before the first triple shows it allocates")
	assert.False(t, d.next([]triple{first}, 0, nil))
	_, _, rs := d.shape()
	assert.True(t, rs.gcPhase)
	assert.Equal(t, 3, d.total(), "progress counts the sizing triple it runs")
	ts := []triple{first, {}}
	assert.False(t, d.next(ts, 0, nil), "1 phased triple of the 2 asked for")
	assert.True(t, d.next(append(ts, triple{}), 0, nil))
	assert.Equal(t, "the 2 triples asked for", d.stop)
}

// TestDesignAdaptive: processes that differ more than runs get fewer
// runs per triple after the pilot, runs that are the noise more; a look
// that decides stops the benchmark at that look's rate; an undecided one
// goes on until the budget cannot buy another triple, at the final rate.
func TestDesignAdaptive(t *testing.T) {
	p := Plan{bt: testflag.Benchtime{D: time.Second}}
	sz := sizing{n: 3000, rounds: 166, run: 3 * time.Millisecond}
	undecided := func(float64) vd.Verdict { return vd.Undecided }
	r := rand.New(rand.NewPCG(3, 4))
	run := func(between, within float64, analyse func(float64) vd.Verdict) (*design, []triple) {
		d := p.newDesign(sz)
		var ts []triple
		spent := time.Duration(0)
		for {
			warm, runs, _ := d.shape()
			tr := synthTriple(r, warm, runs, between, within, 150*time.Millisecond, 9*time.Millisecond)
			ts = append(ts, tr)
			spent += tr.wall
			if d.next(ts, spent, analyse) {
				return d, ts
			}
		}
	}
	assert.Zero(t, p.newDesign(sz).total(), "no number of triples is known ahead")
	assert.Equal(t, budgetFactor*time.Second, p.newDesign(sz).budget, "progress names the budget")
	maps, ts := run(0.06, 0.02, undecided)
	assert.Equal(t, 2, maps.warm, "the first triple's first two discarded rounds were slow")
	assert.Equal(t, minRuns, len(ts[len(ts)-1].ns[sideBase]), "processes 6%% apart, runs 2%%: as few runs as allowed, as many triples")
	assert.Greater(t, len(ts), 20)
	assert.Contains(t, maps.stop, "budget")
	assert.Equal(t, StopBudget, maps.stopCode)
	assert.Equal(t, maps.spend.Final(), maps.rate)
	assert.Regexp(t, `^processes differ by [5-7](\.\d)?%, runs by [12]\.?\d*%: \d+ triples of 5–83 runs; stopped: the budget`, maps.describe(ts),
		"one process's components, not a ratio's")

	compute, ts := run(0.0005, 0.01, undecided)
	assert.Greater(t, len(ts[len(ts)-1].ns[sideBase]), 40, "processes alike: many runs per triple, few triples")
	assert.Less(t, len(ts), 20)
	assert.GreaterOrEqual(t, len(ts), minTriples)
	assert.Contains(t, compute.stop, "budget")

	decided, ts := run(0.001, 0.01, func(float64) vd.Verdict { return vd.Slower })
	assert.Len(t, ts, lookAt[0], "a clear change stops at the first look")
	assert.Equal(t, "decided at look 1, after 3 triples", decided.stop)
	assert.Equal(t, StopDecided, decided.stopCode)
	assert.Equal(t, decided.spend.Look(1), decided.rate)
	assert.True(t, strings.HasPrefix(decided.describe(ts), "processes differ by"))
}

// TestDesignAdaptiveAllocating: when the first triple shows that runs
// must hold several collections, the pilot's later triples get longer
// runs and as many fewer of them, so that a triple costs what the pilot
// planned, not ten times as much.
func TestDesignAdaptiveAllocating(t *testing.T) {
	p := Plan{bt: testflag.Benchtime{D: time.Second}}
	sz := sizing{n: 300, rounds: 166, run: 3 * time.Millisecond, nsPerOp: 10_000}
	d := p.newDesign(sz)
	_, pilotRuns, _ := d.shape()
	first := triple{n: 300}
	for s := range sides {
		gcSide(&first, s, []float64{0, 1, 0}, 3e6, 0, 9600, 0)
	}
	assert.False(t, d.next([]triple{first}, 0, nil))
	_, runs, rs := d.shape()
	require.True(t, rs.gcPhase)
	require.Greater(t, rs.n, 5*sz.n, "runs long enough for several collections")
	assert.Equal(t, max(minRuns, pilotRuns*sz.n/rs.n), runs)
	assert.InDelta(t, pilotRuns*sz.n, runs*rs.n, float64(rs.n), "the pilot triple's ops, in fewer, longer runs")
}

// TestWarmNeeded: the rounds before a process's runs are steady: its
// first discarded rounds, each slower than the steady median by more than
// the runs' spread allows (a slow round after a steady one is noise), the
// most over the processes, at least one.
func TestWarmNeeded(t *testing.T) {
	tr := triple{}
	for s := range sides {
		tr.ns[s] = []float64{100, 101, 99, 100, 100.5, 99.5, 100}
		tr.warmNs[s] = []float64{180, 104, 100.5, 100, 99, 101}
	}
	assert.Equal(t, 2, warmNeeded(tr), "180 and 104 are slow; 100.5 is within 2%")
	tr.warmNs[sideControl] = []float64{150, 130, 120, 110, 105, 101}
	assert.Equal(t, 5, warmNeeded(tr), "the slowest process to settle decides")
	for s := range sides {
		tr.warmNs[s] = []float64{100, 100, 100, 100, 100, 100}
	}
	assert.Equal(t, 1, warmNeeded(tr))
	tr.warmNs[sideNew] = []float64{100, 100, 140, 100, 130, 100}
	assert.Equal(t, 1, warmNeeded(tr), "slow rounds after steady ones are noise")
	tr.warmNs[sideBase] = []float64{160, 120, 100, 100, 135, 100}
	assert.Equal(t, 2, warmNeeded(tr), "only the first slow rounds are the warm-up")
}
