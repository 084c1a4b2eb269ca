package benchkit

import (
	"reflect"
	"testing"
	"time"
)

// bfields reads a few unexported fields of testing.B through reflection
// (read-only, no unsafe): whether the timer runs, the allocation counters
// testing prints as allocs/op and B/op, and whether the benchmark has
// sub-benchmarks. Go 1.26 and 1.27 have the same fields. If a field is
// missing or has another type in some Go release, that field is reported
// as unavailable and Track falls back (see the ok results), so a change in
// testing degrades benchkit's output and never breaks a benchmark.
type bfields struct {
	timerOn   []int // bool
	netAllocs []int // uint64
	netBytes  []int // uint64
	hasSub    []int // atomic.Bool's uint32 v
	loopN     []int // uint64 loop.n: b.Loop's iteration target, 0 before b.Loop runs
	// startWall and startExt are the time.Time in the timer's last start
	// (common.start.now, a time.Time except on Windows).
	startWall []int // uint64
	startExt  []int // int64
}

// fields is computed when the package is initialised (pure reflection on a
// type, no I/O), so that the first Track call, whose timer may be running,
// does not pay for it.
var fields = newFields(reflect.TypeFor[testing.B]())

func bFields() *bfields { return &fields }

// newFields finds the fields in t, leaving a field's index nil when it is
// absent or of an unexpected kind.
func newFields(t reflect.Type) bfields {
	field := func(kind reflect.Kind, path ...string) []int {
		var idx []int
		cur := t
		for _, name := range path {
			if cur.Kind() != reflect.Struct {
				return nil
			}
			f, ok := cur.FieldByName(name)
			if !ok {
				return nil
			}
			idx = append(idx, f.Index...)
			cur = f.Type
		}
		if cur.Kind() != kind {
			return nil
		}
		return idx
	}
	return bfields{
		timerOn:   field(reflect.Bool, "timerOn"),
		netAllocs: field(reflect.Uint64, "netAllocs"),
		netBytes:  field(reflect.Uint64, "netBytes"),
		hasSub:    field(reflect.Uint32, "hasSub", "v"),
		loopN:     field(reflect.Uint64, "loop", "n"),
		startWall: field(reflect.Uint64, "start", "now", "wall"),
		startExt:  field(reflect.Int64, "start", "now", "ext"),
	}
}

func (v *bfields) value(b *testing.B, idx []int) (reflect.Value, bool) {
	if idx == nil {
		return reflect.Value{}, false
	}
	f, err := reflect.ValueOf(b).Elem().FieldByIndexErr(idx)
	if err != nil {
		return reflect.Value{}, false
	}
	return f, true
}

// TimerOn reports whether b's timer is running; ok is false when unknown.
func (v *bfields) TimerOn(b *testing.B) (on, ok bool) {
	f, ok := v.value(b, v.timerOn)
	if !ok {
		return false, false
	}
	return f.Bool(), true
}

// Allocs returns the heap allocations and bytes testing counted while the
// timer ran, the numerators of allocs/op and B/op.
func (v *bfields) Allocs(b *testing.B) (allocs, bytes uint64, ok bool) {
	a, ok1 := v.value(b, v.netAllocs)
	by, ok2 := v.value(b, v.netBytes)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	return a.Uint(), by.Uint(), true
}

// HasSub reports whether b called b.Run (it is then not measured itself).
func (v *bfields) HasSub(b *testing.B) (has, ok bool) {
	f, ok := v.value(b, v.hasSub)
	if !ok {
		return false, false
	}
	return f.Uint() != 0, true
}

// LoopRan reports whether b.Loop has run in this call of the benchmark
// function (testing zeroes loop.n before each call; b.Loop's first call
// sets it).
func (v *bfields) LoopRan(b *testing.B) (ran, ok bool) {
	f, ok := v.value(b, v.loopN)
	if !ok {
		return false, false
	}
	return f.Uint() != 0, true
}

// TimerStart returns the monotonic clock reading, in ns since the process
// started, at which b's timer was last started (or reset while running).
func (v *bfields) TimerStart(b *testing.B) (mono int64, ok bool) {
	w, ok1 := v.value(b, v.startWall)
	e, ok2 := v.value(b, v.startExt)
	if !ok1 || !ok2 || w.Uint()&hasMonotonic == 0 {
		return 0, false
	}
	return e.Int(), true
}

// hasMonotonic is time.Time's flag bit in wall for a monotonic reading,
// which ext then holds.
const hasMonotonic = 1 << 63

// timeWall and timeExt index time.Time's wall and ext; nil if the layout
// changed.
var timeWall, timeExt = timeFields()

func timeFields() (wall, ext []int) {
	tt := reflect.TypeFor[time.Time]()
	if f, ok := tt.FieldByName("wall"); ok && f.Type.Kind() == reflect.Uint64 {
		wall = f.Index
	}
	if f, ok := tt.FieldByName("ext"); ok && f.Type.Kind() == reflect.Int64 {
		ext = f.Index
	}
	return wall, ext
}

// monotonic returns t's monotonic clock reading, in ns since the process
// started, as TimerStart does.
func monotonic(t time.Time) (int64, bool) {
	if timeWall == nil || timeExt == nil {
		return 0, false
	}
	v := reflect.ValueOf(&t).Elem()
	if v.FieldByIndex(timeWall).Uint()&hasMonotonic == 0 {
		return 0, false
	}
	return v.FieldByIndex(timeExt).Int(), true
}
