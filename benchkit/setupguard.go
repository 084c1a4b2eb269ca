package benchkit

import (
	"fmt"
	"time"

	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/testflag"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

// The longest wall time [LoopWithSetup] lets a run head for: setupWallRatio
// × -benchtime, but at least setupMinWall and at most setupMaxWall. A run
// projected to take longer is failed at once. Nothing else bounds it:
// testing's -timeout alarm covers the tests, not the benchmarks, and go test
// sets no kill timer when -bench is given, so a runaway run lasts until
// something outside (a CI job's time limit) kills the binary, losing every
// result. A correct LoopWithSetup whose StopTimer/StartTimer pairs (about
// 10 µs each, tens of µs under load) dwarf a 300 ns f runs for 30–150×
// -benchtime, which the setup-cost flag already reports.
const (
	setupWallRatio = 100
	setupMinWall   = 2 * time.Minute
	setupMaxWall   = 5 * time.Minute
)

// setupGuardFrom is the least number of iterations, and setupGuardWall the
// least wall time, before the projection is trusted: the first iterations
// are cold and their clock reads coarse.
const (
	setupGuardFrom = 16
	setupGuardWall = 10 * time.Millisecond
)

// setupGuard projects the wall time of a LoopWithSetup run from its first
// iterations. testing grows b.N until the timed time (f's alone) reaches
// -benchtime d, capped at 1e9 iterations; each iteration costs wall/iters
// of wall time (setup, the timer pair and f). The projected wall time is
//
//	min(1e9, d / (timed/iters)) · wall/iters
//
// and is 0 (no verdict) under -benchtime=Nx, whose count the user chose and
// which bounds the run, before setupGuardFrom iterations or
// setupGuardWall of wall time.
type setupGuard struct {
	d time.Duration // -benchtime as a duration; 0 under -benchtime=Nx
}

func newSetupGuard(bt testflag.Benchtime) setupGuard {
	if bt.N > 0 {
		return setupGuard{}
	}
	return setupGuard{d: bt.D}
}

// due reports whether iteration iters is one the guard looks at: powers of
// two from setupGuardFrom, so the check costs nothing measurable.
func (g setupGuard) due(iters int) bool {
	return g.d > 0 && iters >= setupGuardFrom && iters&(iters-1) == 0
}

// projected returns the projected wall time of the run after iters
// iterations that took wall of wall time and timed of timed time, or 0
// when there is not enough evidence yet.
func (g setupGuard) projected(iters int, wall, timed time.Duration) time.Duration {
	if g.d <= 0 || iters < setupGuardFrom || wall < setupGuardWall {
		return 0
	}
	perTimed := float64(max(timed, 1)) / float64(iters)
	total := min(float64(maxN), float64(g.d)/perTimed)
	total = max(total, float64(iters))
	return time.Duration(min(total*float64(wall)/float64(iters), float64(1<<62)))
}

// limit is the longest wall time the run may head for (see setupWallRatio).
func (g setupGuard) limit() time.Duration {
	return min(setupMaxWall, max(setupMinWall, setupWallRatio*g.d))
}

// runaway reports whether a projected wall time is beyond the limit.
func (g setupGuard) runaway(projected time.Duration) bool { return projected > g.limit() }

// setupRunawayMessage is the headline (one line, for b.Fatal) and the
// detail (for the report) of a LoopWithSetup run stopped by the guard.
func setupRunawayMessage(name string, iters int, wall, timed, setup, projected, d time.Duration) (headline, detail string) {
	headline = fmt.Sprintf("benchkit: %s: LoopWithSetup stopped at iteration %d: the run would take about %s for -benchtime=%s. "+
		"Fix: -benchtime=Nx, or a pool of inputs",
		name, iters, textfmt.Dur(projected), d)
	n := time.Duration(max(iters, 1))
	detail = fmt.Sprintf("%s; per iteration: %s of setup and %s of StopTimer/StartTimer pairs (untimed) against %s timed: "+
		"testing grows b.N until the timed time reaches -benchtime (b.N capped at 1e9), so the wall time is %.0f× the timed time",
		headline, textfmt.Dur(setup/n), textfmt.Dur(max(0, wall-setup-timed)/n), textfmt.Dur(timed/n),
		float64(wall)/float64(max(timed, 1)))
	return headline, detail
}

// checkSetupRunaway fails b at once (b.Fatal, on the benchmark's
// goroutine, from inside LoopWithSetup's loop) when the guard projects the run
// beyond its limit, after recording the failure for the report.
// wall is the wall time since LoopWithSetup's first iteration; b's timer is
// stopped, so reading b.Elapsed costs the measurement nothing.
func (st *state) checkSetupRunaway(g setupGuard, su *setupStats, wall time.Duration) {
	b := st.b
	timed := b.Elapsed()
	p := g.projected(su.iters, wall, timed)
	if !g.runaway(p) {
		return
	}
	b.Helper()
	head, detail := setupRunawayMessage(nameOf(b), su.iters, wall, timed, su.setup, p, g.d)
	registry.Default().AddFlag(st.key, registry.Flag{Kind: registry.FlagSetupCost, Message: head, Detail: detail, Failed: true})
	b.Fatal(head)
}
