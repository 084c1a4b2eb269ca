package control

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	onceMu   sync.Mutex
	onceSeen = map[string]bool{}
)

// once reports whether key is seen for the first time in this process.
func once(key string) bool {
	onceMu.Lock()
	defer onceMu.Unlock()
	if onceSeen[key] {
		return false
	}
	onceSeen[key] = true
	return true
}

// inRunParallel reports whether the caller runs inside a RunParallel
// body, from the function names on its stack.
func inRunParallel() bool {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "testing.(*B).RunParallel") {
			return true
		}
		if !more {
			return false
		}
	}
}

var (
	activeMu sync.Mutex
	active   = map[*testing.B]string{}
)

// enter marks b as in use by fn. A second entry while b is in use (a
// RunParallel body, or goroutines sharing b) panics: b.Fatal may not be
// called off the benchmark goroutine. A second call on the same run after
// the first returned fails b.
func enter(b *testing.B, fn string) (release func()) {
	b.Helper()
	if inRunParallel() {
		panic(fmt.Sprintf("control: %s called on %s from inside a RunParallel body: it measures on the benchmark's own goroutine and cannot run in parallel workers; call it once, directly in the benchmark function, outside RunParallel", fn, b.Name()))
	}
	activeMu.Lock()
	state, busy := active[b]
	if !busy {
		active[b] = "running"
	}
	activeMu.Unlock()
	switch state {
	case "running":
		panic(fmt.Sprintf("control: %s called on %s while another control call is running on the same *testing.B: do not call it from a RunParallel body or from goroutines; call it once, directly in the benchmark function", fn, b.Name()))
	case "done":
		b.Fatalf("control: %s called twice in %s: call it once per benchmark function (for several comparisons, use one b.Run sub-benchmark each)", fn, b.Name())
	}
	b.Cleanup(func() {
		activeMu.Lock()
		delete(active, b)
		activeMu.Unlock()
	})
	return func() {
		activeMu.Lock()
		active[b] = "done"
		activeMu.Unlock()
	}
}
