package benchkit

import (
	"runtime"
	"strings"
	"sync"
	"testing"
)

// internalsGap is one of testing.B's unexported fields that bfields could
// not find in this Go release, with what Track does without it.
type internalsGap struct {
	field, without string
}

// gaps lists the fields v lacks. On Windows the timer's start is not a
// time.Time, so its absence there is expected and not listed.
func (v *bfields) gaps(goos string) []internalsGap {
	var out []internalsGap
	if v.timerOn == nil {
		out = append(out, internalsGap{"timerOn", "Track assumes the timer runs when it is called"})
	}
	if v.netAllocs == nil || v.netBytes == nil {
		out = append(out, internalsGap{"netAllocs/netBytes",
			"allocs/op and B/op in the report come from runtime.ReadMemStats (the whole process, untimed work included)"})
	}
	if v.hasSub == nil {
		out = append(out, internalsGap{"hasSub",
			"a benchmark that calls b.Run is recorded as if it were measured: call Track only in leaf benchmarks"})
	}
	if goos != "windows" && (v.startWall == nil || v.startExt == nil) {
		out = append(out, internalsGap{"start", "the timer audit loses its untimed-tail check and decides a ramp step later"})
	}
	return out
}

// internalsNote returns the message for gaps, or "" when there are none:
// which fields this Go release (version) lacks, what Track does without
// each, and the fix.
func internalsNote(gaps []internalsGap, version string) string {
	if len(gaps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("benchkit: testing.B in " + version + " lacks fields benchkit reads (it was tested with go1.26 and go1.27): ")
	for i, g := range gaps {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(g.field + ": " + g.without)
	}
	b.WriteString(". ns/op, the report and every other check are unaffected; update benchkit for this Go release")
	return b.String()
}

// liveInternalsNote is internalsNote for this process's testing.B.
var liveInternalsNote = sync.OnceValue(func() string {
	return internalsNote(bFields().gaps(runtime.GOOS), runtime.Version())
})

var internalsLogged sync.Once

// logInternals logs liveInternalsNote on b once per process, when there
// is anything to say.
func logInternals(b *testing.B) {
	if msg := liveInternalsNote(); msg != "" {
		internalsLogged.Do(func() { b.Log(msg) })
	}
}
