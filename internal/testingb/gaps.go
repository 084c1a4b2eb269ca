package testingb

import (
	"runtime"
	"strings"
	"sync"
)

// Gap is one of testing.B's unexported fields this Go release lacks, with
// what benchkit does without it.
type Gap struct {
	Field, Without string
}

// gaps lists the fields fs lacks. On Windows the timer's start is not a
// time.Time, so its absence there is expected and not listed.
func (fs fields) gaps(goos string) []Gap {
	var out []Gap
	add := func(missing bool, field, without string) {
		if missing {
			out = append(out, Gap{field, without})
		}
	}
	add(fs.timerOn == nil, "timerOn", "Track assumes the timer runs when it is called")
	add(fs.netAllocs == nil || fs.netBytes == nil, "netAllocs/netBytes",
		"allocs/op and B/op in the report come from runtime.ReadMemStats (the whole process, untimed work included)")
	add(fs.hasSub == nil, "hasSub",
		"a benchmark that calls b.Run is recorded as if it were measured: call Track only in leaf benchmarks")
	add(fs.loopN == nil, "loop.n",
		"a second Loop or LoopWithSetup in one call is left to testing, which fails it with \"B.Loop called with timer stopped\"")
	add(goos != "windows" && (fs.startWall == nil || fs.startExt == nil), "start",
		"the timer audit loses its untimed-tail check and decides a ramp step later")
	add(fs.parent == nil, "parent",
		"under a -cpu list, a benchmark's first run is filed under GOMAXPROCS now rather than the first -cpu value")
	add(fs.benchFunc == nil, "benchFunc", "a benchmark run by testing.Benchmark is recorded as \"testing.Benchmark\"")
	add(fs.bytes == nil, "bytes", "control.Compare reports no MB/s for a benchmark that calls b.SetBytes")
	add(fs.output == nil, "output", "an implementation that skips in a fork of control.Compare is skipped without its reason")
	return out
}

// note returns the message for gaps, or "" when there are none: which
// fields this Go release (version) lacks, what benchkit does without
// each, and the fix.
func note(gaps []Gap, version string) string {
	if len(gaps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("benchkit: testing.B in " + version + " lacks fields benchkit reads (it was tested with go1.26 and go1.27): ")
	for i, g := range gaps {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(g.Field + ": " + g.Without)
	}
	b.WriteString(". ns/op, the report and every other check are unaffected; update benchkit for this Go release")
	return b.String()
}

// Note returns the message for this process's testing.B, "" when every
// field was found.
var Note = sync.OnceValue(func() string { return note(live.gaps(runtime.GOOS), runtime.Version()) })
