package benchkit

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/benchkit/go-benchkit/internal/testflag"
)

// TestSetupGuardProjection checks the projection of LoopWithSetup's wall time on
// synthetic iterations.
func TestSetupGuardProjection(t *testing.T) {
	g := newSetupGuard(testflag.Benchtime{D: time.Second})
	// The reproducer: 64 iterations of 210 µs wall, 100 ns timed each.
	p := g.projected(64, 64*210*us, 64*100*time.Nanosecond)
	assert.InDelta(t, 2100.0, p.Seconds(), 1, "1e7 iterations of 210 µs")
	assert.True(t, g.runaway(p))

	// seed 004's correct LoopWithSetup: 10 µs pairs against a 300 ns f, ×33.
	p = g.projected(1024, 1024*10300*time.Nanosecond, 1024*300*time.Nanosecond)
	assert.False(t, g.runaway(p), "a 34 s run is not a runaway: %v", p)

	// The limit is 100 × -benchtime, between 2 and 5 minutes: a run of
	// -benchtime=100ms headed for 2.8 minutes is stopped.
	short := newSetupGuard(testflag.Benchtime{D: 100 * time.Millisecond})
	assert.Equal(t, 2*time.Minute, short.limit(), "100ms: 10 s, raised to 2 minutes")
	assert.True(t, short.runaway(168*time.Second))
	assert.Equal(t, 2*time.Minute, g.limit(), "1s: 100 s, raised to 2 minutes")
	assert.Equal(t, 150*time.Second, newSetupGuard(testflag.Benchtime{D: 1500 * time.Millisecond}).limit())
	long := newSetupGuard(testflag.Benchtime{D: 10 * time.Second})
	assert.Equal(t, 5*time.Minute, long.limit(), "10s: 1000 s, capped at 5 minutes")
	assert.False(t, long.runaway(168*time.Second))
	assert.Zero(t, g.projected(8, time.Second, time.Nanosecond), "too few iterations to judge")
	assert.Zero(t, g.projected(64, 5*time.Millisecond, time.Nanosecond), "too little wall time to judge")
	assert.Zero(t, newSetupGuard(testflag.Benchtime{N: 1000}).projected(64, time.Second, time.Nanosecond),
		"-benchtime=Nx bounds the run itself")

	// A timed time of 0 (an f of nothing) caps at testing's 1e9 iterations.
	p = g.projected(64, 64*200*us, 0)
	assert.InDelta(t, float64(maxN)*float64(200*us), float64(p), float64(us), "capped at 1e9 iterations")

	assert.False(t, g.due(8))
	assert.True(t, g.due(16))
	assert.False(t, g.due(17))
	assert.True(t, g.due(1024))
	assert.False(t, newSetupGuard(testflag.Benchtime{N: 10}).due(16), "no checks under -benchtime=Nx")
}

func TestSetupRunawayMessage(t *testing.T) {
	head, detail := setupRunawayMessage("BenchmarkS", 64, 13*time.Millisecond, 6400*time.Nanosecond,
		12800*time.Microsecond, 35*time.Minute, time.Second)
	checkHeadline(t, head, "LoopWithSetup stopped at iteration 64: the run would take about 35m0s for -benchtime=1s", "-benchtime=Nx")
	assert.True(t, strings.HasPrefix(detail, head), "the detail starts with the headline")
	assert.Contains(t, detail, "200µs of setup")
}
