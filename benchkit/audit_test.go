package benchkit

import (
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

const us = time.Microsecond

func TestStoppedTimer(t *testing.T) {
	tests := []struct {
		label     string
		prev, cur step
		want      timerVerdict
		reason    string
	}{{
		label:  "stopped, 5µs body, N 1→100",
		prev:   step{N: 1, Timed: 50 * us, Wall: 20 * us, Toggles: 2},
		cur:    step{N: 100, Timed: 8 * us, Wall: 550 * us, Wait: 10 * us, Toggles: 2},
		want:   timerStopped,
		reason: "timed did not grow with N while 500µs ran untimed",
	}, {
		label:  "stopped, later step",
		prev:   step{N: 100, Timed: 8 * us, Wall: 550 * us, Toggles: 2},
		cur:    step{N: 10000, Timed: 9 * us, Wall: 50 * time.Millisecond, Toggles: 2},
		want:   timerStopped,
		reason: "the same signature one step later",
	}, {
		label:  "stopped under load: the pause lasted while its thread waited",
		prev:   step{N: 1, Timed: 2320 * time.Nanosecond, Wall: 20 * us, Wait: 25 * us, Toggles: 2, Paused: 63 * us},
		cur:    step{N: 100, Timed: 3300 * time.Nanosecond, Wall: 3000 * us, Wait: 2450 * us, Toggles: 2, Paused: 2386 * us},
		want:   timerSuspect,
		reason: "546 µs untimed if wait and pause overlap, none if they do not: decided at the next step",
	}, {
		label:  "stopped, but the thread's wait was booked late",
		prev:   step{N: 1, Timed: 1500 * time.Nanosecond, Wall: 25 * us, Toggles: 2},
		cur:    step{N: 100, Timed: 3900 * time.Nanosecond, Wall: 620 * us, Toggles: 2, Paused: 25 * us, Uncertain: true},
		want:   timerSuspect,
		reason: "without a trustworthy wait, the load might explain the untimed time: decided at the next step",
	}, {
		label:  "stopped, timer start known: the loop ran after the last timed stretch",
		prev:   step{N: 1, Timed: 50 * us, Wall: 20 * us, Toggles: 2},
		cur:    step{N: 100, Timed: 8 * us, Wall: 550 * us, Wait: 10 * us, Toggles: 2, Tail: 530 * us, TailKnown: true},
		want:   timerStopped,
		reason: "the untimed time is all in the tail",
	}, {
		label:  "stopped on a heavily loaded machine: the wait explains the wall time, the CPU time does not",
		prev:   step{N: 1, Timed: 5 * us, Wall: 30 * us, Wait: 20 * us, Toggles: 2, CPU: 9 * us, CPUKnown: true},
		cur:    step{N: 10000, Timed: 15 * us, Wall: 130 * time.Millisecond, Wait: 130 * time.Millisecond, Toggles: 2, Tail: 129 * time.Millisecond, TailKnown: true, CPU: 51 * time.Millisecond, CPUKnown: true},
		want:   timerStopped,
		reason: "51 ms of the benchmark thread's CPU ran untimed, after the last timed stretch",
	}, {
		label:  "heavy untimed setup on a loaded machine, then b.ResetTimer: the CPU came before the timed loop",
		prev:   step{N: 1, Timed: 3 * us, Wall: 6 * us, Toggles: 3, Tail: 1 * us, TailKnown: true, CPU: 5 * us, CPUKnown: true},
		cur:    step{N: 100, Timed: 2 * us, Wall: 900 * us, Wait: 700 * us, Toggles: 3, Tail: 12 * us, TailKnown: true, CPU: 190 * us, CPUKnown: true},
		want:   timerOK,
		reason: "the timer ran until the end of the step",
	}, {
		label:  "b.N inputs prepared untimed, then b.ResetTimer and a fast loop",
		prev:   step{N: 1, Timed: 3 * us, Wall: 6 * us, Toggles: 3, Tail: 1 * us, TailKnown: true},
		cur:    step{N: 100, Timed: 2 * us, Wall: 250 * us, Toggles: 3, Paused: 10 * us, Tail: 12 * us, TailKnown: true},
		want:   timerOK,
		reason: "the timer ran until the end of the step: the untimed time came before the timed loop",
	}, {
		label:  "clean trivial body, cold first step",
		prev:   step{N: 1, Timed: 40 * us, Wall: 45 * us, Toggles: 2},
		cur:    step{N: 100, Timed: 300 * time.Nanosecond, Wall: 6 * us, Toggles: 2},
		want:   timerOK,
		reason: "a few µs of ramp bookkeeping is below the 50µs floor",
	}, {
		label:  "clean body preempted outside the timed window",
		prev:   step{N: 1, Timed: 40 * us, Wall: 45 * us, Toggles: 2},
		cur:    step{N: 100, Timed: 300 * time.Nanosecond, Wall: 3 * time.Millisecond, Wait: 2990 * us, Toggles: 2},
		want:   timerOK,
		reason: "the thread's run-queue wait explains the untimed time",
	}, {
		label:  "clean body, slow stop-the-world under load (seen on the 2-core box)",
		prev:   step{N: 1, Timed: 3280 * time.Nanosecond, Wall: 30 * us, Toggles: 2},
		cur:    step{N: 100, Timed: 2461 * time.Nanosecond, Wall: 441 * us, Wait: 382 * us, Toggles: 2, Paused: 50 * us},
		want:   timerOK,
		reason: "the untimed time is run-queue wait and the stop-the-world pause of testing's StopTimer",
	}, {
		label:  "56 µs untimed in a clean trivial run (seen once in 800 at -benchtime=100x)",
		prev:   step{N: 1, Timed: 1170 * time.Nanosecond, Wall: 25 * us, Toggles: 2, Paused: 20 * us},
		cur:    step{N: 100, Timed: 1530 * time.Nanosecond, Wall: 79 * us, Toggles: 2, Paused: 21 * us},
		want:   timerSuspect,
		reason: "under 100 µs: only suspect, and a clean next step (or none, at 100x) clears it",
	}, {
		label:  "clean b.N body, a slow stall under -race on a loaded CI machine (seen once)",
		prev:   step{N: 1, Timed: 4470 * time.Nanosecond, Wall: 40 * us, Toggles: 2, Paused: 20 * us},
		cur:    step{N: 100, Timed: 10380 * time.Nanosecond, Wall: 2659 * us, Wait: 1200 * us, Toggles: 2, Paused: 1163 * us, Tail: 2400 * us, TailKnown: true},
		want:   timerSuspect,
		reason: "276 µs unexplained of 2.66 ms wall: most of the wall time is wait and pauses, so only suspect; the next step decides",
	}, {
		label:  "untimed overhead that does not grow with N",
		prev:   step{N: 1, Timed: 3 * us, Wall: 60 * us, Toggles: 2},
		cur:    step{N: 100, Timed: 2 * us, Wall: 120 * us, Toggles: 2},
		want:   timerOK,
		reason: "58 µs then 118 µs untimed: the loop body would have made it about 100× larger",
	}, {
		label:  "per-iteration stop/start",
		prev:   step{N: 1, Timed: 2 * us, Wall: 20 * us, Toggles: 4},
		cur:    step{N: 100, Timed: 3 * us, Wall: 1500 * us, Toggles: 202},
		want:   timerOK,
		reason: "two stop-the-world pauses per iteration: the timer was toggled, not left stopped",
	}, {
		label:  "per-iteration stop/start, toggles unknown",
		prev:   step{N: 1, Timed: 2 * us, Wall: 20 * us, Toggles: -1},
		cur:    step{N: 100, Timed: 100 * us, Wall: 1500 * us, Toggles: -1},
		want:   timerOK,
		reason: "timed grew with N",
	}, {
		label:  "slow growth",
		prev:   step{N: 100, Timed: 8 * us, Wall: 550 * us, Toggles: 2},
		cur:    step{N: 500, Timed: 8 * us, Wall: 2500 * us, Toggles: 2},
		want:   timerOK,
		reason: "N grew less than 10×: no conclusion",
	}, {
		label:  "zero previous N",
		prev:   step{},
		cur:    step{N: 100, Timed: 8 * us, Wall: 550 * us},
		want:   timerOK,
		reason: "no previous step",
	}}
	for _, tt := range tests {
		if tt.reason == "" {
			panic("reason must be provided")
		}
		t.Run(tt.label, func(t *testing.T) {
			got := stoppedTimer(tt.prev, tt.cur)
			assert.Equal(t, tt.want, got, "stoppedTimer(%+v, %+v) = %v, want %v: %s", tt.prev, tt.cur, got, tt.want, tt.reason)
		})
	}
}

func TestStoppedMessage(t *testing.T) {
	head, msg := stoppedMessage("BenchmarkX", step{N: 1, Timed: 50 * us}, step{N: 100, Timed: 8 * us, Wall: 550 * us}, true)
	checkHeadline(t, head, "b.N grew from 1 to 100", "b.StartTimer()")
	for _, want := range []string{"benchkit: BenchmarkX:", "from 1 to 100 but the timed time by ×0.16 (50µs, then 8µs)", "b.StartTimer()", "b.N = 1 showed it too"} {
		assert.Contains(t, msg, want, "message %q lacks %q", msg, want)
	}
}

func TestHeavyToggling(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		label  string
		s      step
		want   bool
		reason string
	}{
		{"per-iteration pairs", step{N: 1e5, Timed: 200 * ms, Wall: 3000 * ms, Toggles: 2e5}, true, "93% untimed across 2e5 pauses"},
		{"b.Loop with long setup", step{N: 1, Timed: 1 * us, Wall: 500 * ms, Toggles: 3}, false, "one untimed setup is not toggling"},
		{"short run", step{N: 100, Timed: 10 * us, Wall: 2 * ms, Toggles: 200}, false, "under 10 ms untimed"},
		{"half timed", step{N: 1e5, Timed: 1000 * ms, Wall: 2000 * ms, Toggles: 2e5}, false, "timed fraction 50%"},
		{"toggles unknown", step{N: 1e5, Timed: 200 * ms, Wall: 3000 * ms, Toggles: -1}, false, "no evidence of toggling"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			got := heavyToggling(tt.s)
			assert.Equal(t, tt.want, got, "heavyToggling(%+v) = %v, want %v: %s", tt.s, got, tt.want, tt.reason)
		})
	}
	head, msg := togglingMessage("BenchmarkT", step{N: 1e5, Timed: 200 * ms, Wall: 3000 * ms, Toggles: 2e5})
	checkHeadline(t, head, "93% of 3s wall time", "200000 stop-the-world pauses", "benchkit.LoopWithSetup")
	for _, want := range []string{"benchkit: BenchmarkT:", "6.7%", "200000 stop-the-world", "Fix:"} {
		assert.Contains(t, msg, want, "message %q lacks %q", msg, want)
	}
}

func TestEliminatedAndAllocs(t *testing.T) {
	const elimWant = "eliminated: want true at and within 2.5× the floor, false above"
	assert.True(t, eliminated(0.4, 0.4, 0.35), elimWant)
	assert.True(t, eliminated(0.875, 0.875, 0.35), elimWant)
	assert.False(t, eliminated(0.876, 0.876, 0.35), elimWant)
	assert.False(t, eliminated(40, 40, 0.35), elimWant)
	assert.False(t, eliminated(0.1, 0.1, 0), "eliminated: an unknown floor (0) must never flag")
	// Under contention: the on-CPU time (wait taken out) must come within
	// 2× the floor, since the wait correction can over-subtract.
	const cpuWant = "eliminated: a run above 2.5× the floor only on its ns/op must have its on-CPU time within 2× the floor"
	assert.True(t, eliminated(0.78, 0.43, 0.27), cpuWant+" (an empty b.Loop at 45%% wait)")
	assert.True(t, eliminated(1.2, 0.54, 0.27), cpuWant)
	assert.False(t, eliminated(1.108, 0.614, 0.27), cpuWant+" (popcount at 45%% wait)")
	assert.False(t, eliminated(1.2, 0.55, 0.27), cpuWant)
	const shortWant = "allocsShort: want true when allocs/op rounds below the declared count"
	assert.True(t, allocsShort(0, 1), shortWant)
	assert.True(t, allocsShort(0.49, 1), shortWant)
	assert.False(t, allocsShort(0.5, 1), shortWant)
	assert.False(t, allocsShort(1, 1), shortWant)
	assert.True(t, allocsShort(1.2, 2), shortWant)
	assert.False(t, allocsShort(0, 0), "allocsShort: nothing declared must never flag")
	head, msg := allocsMessage("BenchmarkA", 4e-8, 100000000, 1)
	checkHeadline(t, head, "0.00 allocs/op, but ExpectAllocs(1) declared", "sink.Keep")
	assert.Contains(t, msg, "0.00 allocs/op (4 allocations in 100000000 iterations)", "allocsMessage = %q", msg)
	head, msg = eliminatedMessage("BenchmarkE", 0.8, 0.8, 0.35)
	checkHeadline(t, head, "0.8 ns/op is within 2.5× of an empty loop iteration (0.35 ns)", "sink.Keep")
	for _, want := range []string{"0.8 ns/op is within 2.5×", "sink.Keep", "-gcflags=-m"} {
		assert.Contains(t, msg, want, "eliminatedMessage = %q", msg)
	}
	head, msg = eliminatedMessage("BenchmarkE", 2.2, 0.5, 0.35)
	checkHeadline(t, head, "2.2 ns/op (0.5 on CPU) is within 2.0× of an empty loop iteration (0.35 ns)", "sink.Keep")
	for _, want := range []string{"2.2 ns/op (0.5 ns/op on CPU, without the time the thread waited for one) is within 2.0×", "sink.Keep", "-gcflags=-m"} {
		assert.Contains(t, msg, want, "eliminatedMessage = %q", msg)
	}
}

func TestSetupCostly(t *testing.T) {
	ms := time.Millisecond
	const costlyWant = "setupCostly: want true only when pairs ≥ 10 ms and > work"
	assert.True(t, setupCostly(100*ms, 50*ms), costlyWant)
	assert.False(t, setupCostly(5*ms, 1*ms), costlyWant)
	assert.False(t, setupCostly(100*ms, 200*ms), costlyWant)
	head, msg := setupMessage("BenchmarkS", 1000, 20*ms, 5*ms, 2*ms)
	checkHeadline(t, head, "1000 StopTimer/StartTimer pairs cost 20ms", "-benchtime=Nx")
	for _, want := range []string{"1000 StopTimer/StartTimer pairs cost 20ms", "20µs each", "13.5×", "-benchtime=Nx"} {
		assert.Contains(t, msg, want, "message %q lacks %q", msg, want)
	}
}

// TestFinal: the parsing of -benchtime is internal/testflag's and tested there.
func TestFinal(t *testing.T) {
	d := testflag.Benchtime{D: time.Second}
	const durWant = "final (duration): want final when timed ≥ d or N at the 1e9 cap, as testing's launch loop"
	assert.False(t, final(d, 1, time.Millisecond), durWant)
	assert.True(t, final(d, 100, time.Second), durWant)
	assert.True(t, final(d, maxN, 0), durWant)
	assert.False(t, final(d, 1e6, 999*time.Millisecond), durWant)
	n := testflag.Benchtime{N: 50}
	assert.False(t, final(n, 1, 0), "final (Nx): want final only at N = 50")
	assert.True(t, final(n, 50, 0), "final (Nx): want final only at N = 50")
	assert.True(t, final(testflag.Benchtime{N: 1}, 1, 0), "final (1x): the first run is the only one")
}

func TestThreadDelta(t *testing.T) {
	a := threadSample{tid: 7, cpu: 10 * us, wait: 5 * us, ok: true}
	b := threadSample{tid: 7, cpu: 60 * us, wait: 55 * us, ok: true}
	d := b.sub(a)
	require.True(t, d.ok, "sub = %+v", d)
	require.Equal(t, 50*us, d.cpu, "sub = %+v", d)
	require.Equal(t, 50*us, d.wait, "sub = %+v", d)
	got := d.onCPU(100 * us)
	assert.Equal(t, 0.5, got, "onCPU busy = %v, want 0.5", got)
	got = d.onCPU(1000 * us)
	assert.Equal(t, 1.0, got, "onCPU of a thread busy 10%% of the wall = %v, want 1 (blocked, e.g. RunParallel)", got)
	other := (threadSample{tid: 8, ok: true}).sub(a)
	assert.False(t, other.ok, "sub across threads without per-thread waits = %+v; want unknown", other)
	assert.False(t, other.waitOK, "sub across threads without per-thread waits = %+v; want unknown", other)
	// The goroutine moved from thread 7 to thread 8: both threads' waits.
	a.waits = map[int]env.ThreadTimes{7: {Run: 1 * us, Wait: 5 * us}, 8: {Run: 2 * us, Wait: 100 * us}, 9: {}}
	c := threadSample{tid: 8, cpu: 70 * us, wait: 130 * us, ok: true, waits: map[int]env.ThreadTimes{
		7: {Run: 31 * us, Wait: 25 * us}, 8: {Run: 22 * us, Wait: 130 * us}, 9: {Run: 500 * us, Wait: 900 * us}}}
	d = c.sub(a)
	const acrossWant = "sub across threads = %+v; want cpu 50µs (30 + 20) and wait 50µs (20 + 30), thread 9 ignored"
	assert.False(t, d.ok, acrossWant, d)
	assert.True(t, d.waitOK, acrossWant, d)
	assert.Equal(t, 50*us, d.wait, acrossWant, d)
	assert.Equal(t, 50*us, d.cpu, acrossWant, d)
	got = d.onCPU(100 * us)
	assert.Equal(t, 0.5, got, "onCPU across threads = %v, want 0.5", got)
}

func TestLastChance(t *testing.T) {
	stopped := step{N: 1000, Timed: 2 * us, Wall: 5000 * us, Wait: 3000 * us, Paused: 20 * us, Tail: 4990 * us, TailKnown: true}
	noise := step{N: 1000, Timed: 2 * us, Wall: 90 * us, Paused: 20 * us, Tail: 80 * us, TailKnown: true}
	unknown := stopped
	unknown.TailKnown = false
	const want = "lastChance: stopped %v, 60 µs of noise %v, unknown tail %v; want true, false, false"
	gotStopped, gotNoise, gotUnknown := stopped.lastChance(), noise.lastChance(), unknown.lastChance()
	assert.True(t, gotStopped, want, gotStopped, gotNoise, gotUnknown)
	assert.False(t, gotNoise, want, gotStopped, gotNoise, gotUnknown)
	assert.False(t, gotUnknown, want, gotStopped, gotNoise, gotUnknown)
}

// TestStoppedAlone: one step fails alone only when the timed time did not
// grow and the unexplained untimed time is at least 10 ms; the
// MakeBuffer_Correct false alarm (timed ×5.7, 160 µs untimed) and the
// xxhash one (370 µs untimed) need a second step.
func TestStoppedAlone(t *testing.T) {
	ms := time.Millisecond
	prev := step{N: 1, Timed: 2804 * time.Nanosecond, Wall: 10 * us}
	for _, tc := range []struct {
		name string
		cur  step
		want bool
	}{
		{"seed 004's stopped timer, 1 ms body", step{N: 100, Timed: 2 * us, Wall: 100 * ms}, true},
		{"timed time grew ×5.7 (MakeBuffer_Correct)", step{N: 100, Timed: 15970 * time.Nanosecond, Wall: 272 * us}, false},
		{"370 µs untimed (xxhash 4B)", step{N: 100, Timed: 1530 * time.Nanosecond, Wall: 431 * us}, false},
		{"grew ×3 with 20 ms untimed", step{N: 100, Timed: 9 * us, Wall: 20 * ms}, false},
		{"10 ms untimed but all of it waiting for a CPU", step{N: 100, Timed: 2 * us, Wall: 12 * ms, Wait: 11 * ms}, false},
	} {
		assert.Equal(t, tc.want, stoppedAlone(prev, tc.cur), tc.name)
	}
}

// checkHeadline: a flag's headline, the line logged under the benchmark,
// is one line of at most 160 characters (messages ran to 450),
// starts with "benchkit: " and the benchmark, and names the numbers and
// the fix (wants).
func checkHeadline(t *testing.T, head string, wants ...string) {
	t.Helper()
	assert.LessOrEqual(t, utf8.RuneCountInString(head), 160, "headline of %d characters: %s", utf8.RuneCountInString(head), head)
	assert.NotContains(t, head, "\n")
	assert.Regexp(t, `^benchkit: Benchmark[\w-]+[: ]`, head)
	for _, w := range append(wants, "Fix: ") {
		assert.Contains(t, head, w, "headline %q lacks %q", head, w)
	}
}

// TestMisuseHeadlines: every misuse message is a headline of at most 160
// characters, with the fix.
func TestMisuseHeadlines(t *testing.T) {
	const name = "BenchmarkParseJSONLarge"
	checkHeadline(t, parallelMessage(name, "Loop", true), "Loop called inside a RunParallel body", "pb.Next()")
	checkHeadline(t, parallelMessage(name, "", false), "Track called inside a RunParallel body", "before b.RunParallel")
	checkHeadline(t, loopAgainMessage(name, "LoopWithSetup"), "LoopWithSetup called after b.Loop already ran")
	checkHeadline(t, trackTwiceMessage(name), "Track called twice")
	checkHeadline(t, parentMessage(name), "calls b.Run", "Fix: Track in each b.Run function")
	checkHeadline(t, staleProcsMessage(name, 2, 1), "BenchmarkParseJSONLarge-2: ", "GOMAXPROCS=1, not 2", "golang/go#49980")
}

// TestTimedShare: a lockstep run's wait for a CPU is taken out of its
// timed time only as far as the untimed stretches cannot hold it: a wait
// lengthens whichever stretch it falls in.
func TestTimedShare(t *testing.T) {
	ms := time.Millisecond
	assert.Equal(t, 2*ms, timedShare(2*ms, 3*ms, 3*ms), "a fully timed step: all of it")
	assert.Equal(t, 1*ms, timedShare(2*ms, 3*ms, 4*ms), "1 ms untimed can hold 1 ms of the wait")
	assert.Equal(t, time.Duration(0), timedShare(2*ms, 1600*us, 3800*us), "the untimed stretches held it all")
	assert.Equal(t, 3*ms, timedShare(5*ms, 3*ms, 3*ms), "never more than the timed time")
	assert.Equal(t, time.Duration(0), timedShare(0, 3*ms, 3*ms))
	assert.Equal(t, time.Duration(0), timedShare(ms, 0, 3*ms))
}

// TestThreadWaitSince: a wait is known only between two samples of one
// thread.
func TestThreadWaitSince(t *testing.T) {
	before := threadWait{tid: 7, wait: 5 * us, ok: true}
	w, ok := threadWait{tid: 7, wait: 12 * us, ok: true}.since(before)
	assert.True(t, ok)
	assert.Equal(t, 7*us, w)
	_, ok = threadWait{tid: 8, wait: 12 * us, ok: true}.since(before)
	assert.False(t, ok, "the goroutine changed threads")
	_, ok = threadWait{}.since(before)
	assert.False(t, ok, "unreadable")
}
