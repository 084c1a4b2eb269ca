package benchkit

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInternalsThisRelease: on the Go release running the tests, every
// field is found and nothing is said.
func TestInternalsThisRelease(t *testing.T) {
	assert.Empty(t, bFields().gaps(runtime.GOOS))
	assert.Empty(t, liveInternalsNote(), "no message when testing.B is as expected")
}

// fakeB stands in for a testing.B from a Go release that renamed or
// retyped its fields: timerOn is an int, the rest are gone.
type fakeB struct {
	timerOn   int    //lint:ignore U1000 read by reflection only
	netAllocs uint64 //lint:ignore U1000 read by reflection only
	renamed   uint64 //lint:ignore U1000 read by reflection only
}

// TestInternalsDegrade: with testing.B's fields missing or retyped, every
// accessor reports "unknown" instead of panicking, and the note names
// each missing field with what Track does without it.
func TestInternalsDegrade(t *testing.T) {
	v := newFields(reflect.TypeFor[fakeB]())
	assert.Nil(t, v.timerOn, "a field of another kind is unavailable")
	assert.NotNil(t, v.netAllocs)
	assert.Nil(t, v.netBytes)
	assert.Nil(t, v.hasSub)
	assert.Nil(t, v.startWall)

	none := bfields{} // nothing found: what Track sees on such a release
	b := new(testing.B)
	assert.NotPanics(t, func() {
		_, ok := none.TimerOn(b)
		assert.False(t, ok)
		_, _, ok = none.Allocs(b)
		assert.False(t, ok)
		_, ok = none.HasSub(b)
		assert.False(t, ok)
		_, ok = none.TimerStart(b)
		assert.False(t, ok)
	})

	gaps := v.gaps("linux")
	var fields []string
	for _, g := range gaps {
		fields = append(fields, g.field)
	}
	assert.Equal(t, []string{"timerOn", "netAllocs/netBytes", "hasSub", "start"}, fields)
	assert.Len(t, v.gaps("windows"), 3, "on Windows the timer start is not a time.Time: not a gap")
	note := internalsNote(gaps, "go1.99")
	assert.Contains(t, note, "benchkit: testing.B in go1.99 lacks fields benchkit reads")
	assert.Contains(t, note, "timerOn: Track assumes the timer runs")
	assert.Contains(t, note, "netAllocs/netBytes: allocs/op and B/op in the report come from runtime.ReadMemStats")
	assert.Contains(t, note, "hasSub: a benchmark that calls b.Run is recorded as if it were measured")
	assert.Contains(t, note, "update benchkit for this Go release")
	assert.Empty(t, internalsNote(nil, "go1.26.8"))
}
