package benchkit

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/benchkit/go-benchkit/internal/registry"
)

// inParallelBody reports whether the function that called Track, Loop or
// Setup runs inside a body given to b.RunParallel: the nearest frame of a
// testing.B method above it is RunParallel's worker, not runN. It looks at
// most 16 frames up (a body that reaches Track through deeper helpers is
// not recognised) and costs about a µs, before Track pauses the timer;
// it must come first because in a RunParallel body every goroutine would
// touch b's timer at once.
//
// The answer is cached by the return addresses of the three frames above
// the entry point, so that a benchmark's later ramp steps and repeats pay
// for a short runtime.Callers alone (about 0.2 µs) rather than for symbolising
// the frames.
func inParallelBody() bool {
	// Skip runtime.Callers, inParallelBody and the benchkit entry point.
	var key [3]uintptr
	runtime.Callers(3, key[:])
	parallelMu.RLock()
	in, ok := parallelSites[key]
	parallelMu.RUnlock()
	if ok {
		return in
	}
	var pcs [16]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "testing.(*B).") {
			in = strings.HasPrefix(f.Function, "testing.(*B).RunParallel")
			break
		}
		if !more {
			break
		}
	}
	parallelMu.Lock()
	if parallelSites == nil {
		parallelSites = map[[3]uintptr]bool{}
	}
	parallelSites[key] = in
	parallelMu.Unlock()
	return in
}

// parallelSites caches inParallelBody's answer per call site. It holds
// one entry per distinct call stack of Track, Loop and Setup, a few per
// benchmark.
var (
	parallelMu    sync.RWMutex
	parallelSites map[[3]uintptr]bool
)

// parallelWarned holds the *testing.B whose RunParallel body called Track,
// Loop or Setup, so that the message is given once per *testing.B (one
// -count repeat), not once per goroutine and ramp step. Only misused Bs
// are kept.
var parallelWarned sync.Map // *testing.B → struct{}

// parallelMisuse handles a call of Track (fail false) or Loop/Setup (fail
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
	fail = fail || strictFlags.Load()
	n := registry.Default().AddFlag(registry.KeyProcs(nameOf(b), procsOf(b)),
		registry.Flag{Kind: registry.FlagMisuse, Message: msg, Failed: fail})
	switch {
	case fail:
		b.Error(msg)
	case n <= 1: // once per benchmark, not per -count repeat
		b.Log(msg)
	}
}

// loopCheck reports whether Loop or Setup (by) may run b.Loop for b: not
// from a RunParallel body (parallelMisuse fails b once), and not after
// b.Loop already ran in this call of the benchmark function (a second
// Loop, Setup, or a plain `for b.Loop()` before them), which testing
// would fail with "B.Loop called with timer stopped": loopCheck fails b
// with benchkit's message instead (b.Fatal).
func loopCheck(b *testing.B, by string) bool {
	b.Helper()
	if inParallelBody() {
		parallelMisuse(b, by, true)
		return false
	}
	if ran, ok := bFields().LoopRan(b); ok && ran {
		b.Fatal(loopAgainMessage(nameOf(b), by))
	}
	return true
}

// parallelMessage is the headline for Track (fail false) or Loop/Setup
// (by, fail true) called in a RunParallel body.
func parallelMessage(name, by string, fail bool) string {
	if fail {
		return fmt.Sprintf("benchkit: %s: %s called inside a RunParallel body, where b.Loop cannot run. "+
			"Fix: loop on pb.Next() there; call Track before b.RunParallel", name, by)
	}
	return fmt.Sprintf("benchkit: %s: Track called inside a RunParallel body (on every goroutine) is ignored. "+
		"Fix: call Track once, before b.RunParallel", name)
}

// loopAgainMessage is the headline for Loop or Setup (by) called after
// b.Loop ran in the same call of the benchmark function.
func loopAgainMessage(name, by string) string {
	return fmt.Sprintf("benchkit: %s: %s called after b.Loop already ran in this function; b.Loop runs once per call. "+
		"Fix: one Loop or Setup per benchmark", name, by)
}
