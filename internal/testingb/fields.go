package testingb

import (
	"reflect"
	"testing"
	"time"
)

// fields holds the index paths of the unexported testing.B fields benchkit
// reads, each nil when this Go release lacks it or gives it another kind.
// Go 1.26 and 1.27 have all of them.
type fields struct {
	timerOn   []int // bool: the timer runs
	netAllocs []int // uint64: heap allocations while timed (allocs/op's numerator)
	netBytes  []int // uint64: heap bytes while timed (B/op's numerator)
	hasSub    []int // uint32 (atomic.Bool's v): b.Run was called
	loopN     []int // uint64 loop.n: b.Loop's target, 0 before b.Loop runs
	// startWall and startExt are the time.Time of the timer's last start
	// (common.start.now; not a time.Time on Windows).
	startWall []int // uint64
	startExt  []int // int64
	parent    []int // *common: nil for a -count repeat's or testing.Benchmark's B
	benchFunc []int // func(*B): the benchmark function
	bytes     []int // int64: the value b.SetBytes set
	output    []int // []byte: the log written so far (b.Log, b.Skip's reason)
}

// live is this process's testing.B layout: pure reflection on a type, no
// I/O, so that the first Track call, whose timer may be running, does not
// pay for it.
var live = fieldsOf(reflect.TypeFor[testing.B]())

// fieldsOf finds the fields in t.
func fieldsOf(t reflect.Type) fields {
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
	return fields{
		timerOn:   field(reflect.Bool, "timerOn"),
		netAllocs: field(reflect.Uint64, "netAllocs"),
		netBytes:  field(reflect.Uint64, "netBytes"),
		hasSub:    field(reflect.Uint32, "hasSub", "v"),
		loopN:     field(reflect.Uint64, "loop", "n"),
		startWall: field(reflect.Uint64, "start", "now", "wall"),
		startExt:  field(reflect.Int64, "start", "now", "ext"),
		parent:    field(reflect.Pointer, "parent"),
		benchFunc: field(reflect.Func, "benchFunc"),
		bytes:     field(reflect.Int64, "bytes"),
		output:    field(reflect.Slice, "output"),
	}
}

// value returns the field at idx of the struct *b points to (b a pointer
// to a struct), ok false when idx is nil or the path crosses a nil
// embedded pointer.
func value(b any, idx []int) (reflect.Value, bool) {
	if idx == nil {
		return reflect.Value{}, false
	}
	v := reflect.ValueOf(b)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	f, err := v.Elem().FieldByIndexErr(idx)
	if err != nil {
		return reflect.Value{}, false
	}
	return f, true
}

// TimerOn reports whether b's timer is running; ok is false when unknown.
func TimerOn(b *testing.B) (on, ok bool) { return live.timerOnOf(b) }

func (fs fields) timerOnOf(b any) (on, ok bool) {
	f, ok := value(b, fs.timerOn)
	if !ok {
		return false, false
	}
	return f.Bool(), true
}

// Allocs returns the heap allocations and bytes testing counted while b's
// timer ran: the numerators of allocs/op and B/op.
func Allocs(b *testing.B) (allocs, bytes uint64, ok bool) { return live.allocsOf(b) }

func (fs fields) allocsOf(b any) (allocs, bytes uint64, ok bool) {
	a, ok1 := value(b, fs.netAllocs)
	by, ok2 := value(b, fs.netBytes)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	return a.Uint(), by.Uint(), true
}

// HasSub reports whether b called b.Run (it is then not measured itself).
func HasSub(b *testing.B) (has, ok bool) { return live.hasSubOf(b) }

func (fs fields) hasSubOf(b any) (has, ok bool) {
	f, ok := value(b, fs.hasSub)
	if !ok {
		return false, false
	}
	return f.Uint() != 0, true
}

// LoopRan reports whether b.Loop has run in this call of the benchmark
// function (testing zeroes loop.n before each call; b.Loop's first call
// sets it).
func LoopRan(b *testing.B) (ran, ok bool) {
	f, ok := value(b, live.loopN)
	if !ok {
		return false, false
	}
	return f.Uint() != 0, true
}

// TimerStart returns the monotonic clock reading, in ns since the process
// started, at which b's timer was last started (or reset while running).
func TimerStart(b *testing.B) (mono int64, ok bool) { return live.timerStartOf(b) }

func (fs fields) timerStartOf(b any) (mono int64, ok bool) {
	w, ok1 := value(b, fs.startWall)
	e, ok2 := value(b, fs.startExt)
	if !ok1 || !ok2 || w.Uint()&hasMonotonic == 0 {
		return 0, false
	}
	return e.Int(), true
}

// FirstRun reports whether b is the *testing.B that b.Run (or testing's
// top level) created, rather than one testing built for a later -count
// repeat or -cpu value: only the first has a parent. testing.Benchmark's B
// has none either. ok is false when the field cannot be read.
func FirstRun(b *testing.B) (first, ok bool) {
	f, ok := value(b, live.parent)
	if !ok {
		return false, false
	}
	return !f.IsNil(), true
}

// funcPC returns the entry of b's benchmark function, 0 when unknown.
func funcPC(b *testing.B) uintptr {
	f, ok := value(b, live.benchFunc)
	if !ok || f.IsNil() {
		return 0
	}
	return f.Pointer()
}

// SetBytes returns the value b.SetBytes set (0 when it was not called);
// ok is false when this Go release's testing.B has no such int64 field.
func SetBytes(b *testing.B) (n int64, ok bool) { return live.setBytesOf(b) }

func (fs fields) setBytesOf(b any) (n int64, ok bool) {
	f, ok := value(b, fs.bytes)
	if !ok {
		return 0, false
	}
	return f.Int(), true
}

// Output returns a copy of what b has logged so far (b.Log, b.Error, the
// reason given to b.Skip), "" when this Go release's testing.B has no such
// []byte field. testing guards the log with a lock this cannot take: call
// it only from b's own goroutine, with no other goroutine logging to b.
func Output(b *testing.B) string {
	f, ok := value(b, live.output)
	if !ok || f.Type().Elem().Kind() != reflect.Uint8 {
		return ""
	}
	return string(f.Bytes())
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

// Monotonic returns t's monotonic clock reading, in ns since the process
// started, as [TimerStart] does.
func Monotonic(t time.Time) (int64, bool) {
	if timeWall == nil || timeExt == nil {
		return 0, false
	}
	v := reflect.ValueOf(&t).Elem()
	if v.FieldByIndex(timeWall).Uint()&hasMonotonic == 0 {
		return 0, false
	}
	return v.FieldByIndex(timeExt).Int(), true
}
