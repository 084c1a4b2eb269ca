package benchkit

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/session"
	"github.com/benchkit/go-benchkit/internal/testingb"
)

// inParallelBody reports whether the user's function that called Track,
// Loop or LoopWithSetup runs inside a body given to b.RunParallel: the nearest
// frame of a testing.B method above it is RunParallel's worker, not runN.
// depth is the number of benchkit frames between inParallelBody and the
// user's function (1 from Track, 2 from Loop and LoopWithSetup through
// loopCheck). It looks at most 16 frames up (a body that reaches Track
// through deeper helpers is not recognised). It must come before Track
// pauses the timer, because in a RunParallel body every goroutine would
// touch b's timer at once, so its cost is timed in a b.N-style benchmark:
// about 0.4 µs per ramp step, the same in every step (a runtime.Callers
// and a table lookup per frame, no symbolisation of files and lines,
// which would cost tens of µs).
func inParallelBody(depth int) bool {
	// Skip runtime.Callers, inParallelBody and the benchkit frames.
	var pcs [16]uintptr
	return underRunParallel(pcs[:runtime.Callers(2+depth, pcs[:])])
}

// underRunParallel reports whether the nearest testing.B method among the
// return addresses pcs (innermost first) is RunParallel's worker. It
// names each frame with runtime.FuncForPC, a table lookup, rather than
// runtime.CallersFrames, which also resolves files and lines.
func underRunParallel(pcs []uintptr) bool {
	for _, pc := range pcs {
		f := runtime.FuncForPC(pc - 1)
		if f == nil {
			continue
		}
		if name := f.Name(); strings.HasPrefix(name, "testing.(*B).") {
			return strings.HasPrefix(name, "testing.(*B).RunParallel")
		}
	}
	return false
}

// parallelWarned holds the *testing.B whose RunParallel body called Track,
// Loop or LoopWithSetup, so that the message is given once per *testing.B (one
// -count repeat), not once per goroutine and ramp step. Only misused Bs
// are kept.
var parallelWarned sync.Map // *testing.B → struct{}

// parallelMisuse handles a call of Track (fail false) or Loop/LoopWithSetup (fail
// true) from a RunParallel body, once per run of b: it records a misuse
// flag and logs the message, or fails b with it (b.Error, which is safe
// from any goroutine; b.Fatal is not). The calls do nothing else: no
// state, no timer, so the goroutines do not race on b.
func parallelMisuse(b *testing.B, by string, fail bool) {
	if _, dup := parallelWarned.LoadOrStore(b, struct{}{}); dup {
		return
	}
	b.Helper()
	msg := parallelMessage(nameOf(b), by, fail)
	fail = fail || session.Strict()
	n := registry.Default().AddFlag(benchname.Printed(nameOf(b), procsOf(b)),
		registry.Flag{Kind: registry.FlagMisuse, Message: msg, Failed: fail})
	switch {
	case fail:
		b.Error(msg)
	case n <= 1: // once per benchmark, not per -count repeat
		b.Log(msg)
	}
}

// loopCheck reports whether Loop or LoopWithSetup (by) may run b.Loop for b: not
// from a RunParallel body (parallelMisuse fails b once), and not after
// b.Loop already ran in this call of the benchmark function (a second
// Loop, LoopWithSetup, or a plain `for b.Loop()` before them), which testing
// would fail with "B.Loop called with timer stopped": loopCheck fails b
// with benchkit's message instead (b.Fatal).
func loopCheck(b *testing.B, by string) bool {
	b.Helper()
	if inParallelBody(2) {
		parallelMisuse(b, by, true)
		return false
	}
	if ran, ok := testingb.LoopRan(b); ok && ran {
		b.Fatal(loopAgainMessage(nameOf(b), by))
	}
	return true
}

// parallelMessage is the headline for Track (fail false) or Loop/LoopWithSetup
// (by, fail true) called in a RunParallel body.
func parallelMessage(name, by string, fail bool) string {
	if fail {
		return fmt.Sprintf("benchkit: %s: %s called inside a RunParallel body, where b.Loop cannot run. "+
			"Fix: loop on pb.Next() there; call Track before b.RunParallel", name, by)
	}
	return fmt.Sprintf("benchkit: %s: Track called inside a RunParallel body (on every goroutine) is ignored. "+
		"Fix: call Track once, before b.RunParallel", name)
}

// loopAgainMessage is the headline for Loop or LoopWithSetup (by) called after
// b.Loop ran in the same call of the benchmark function.
func loopAgainMessage(name, by string) string {
	return fmt.Sprintf("benchkit: %s: %s called after b.Loop already ran in this function. "+
		"Fix: one Loop or LoopWithSetup per benchmark", name, by)
}
