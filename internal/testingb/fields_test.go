package testingb

import (
	"flag"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFieldsThisRelease: on the Go release running the tests, every
// field is found and nothing is said.
func TestFieldsThisRelease(t *testing.T) {
	assert.Empty(t, live.gaps(runtime.GOOS))
	assert.Empty(t, Note(), "no message when testing.B is as expected")
}

// fakeB stands in for a testing.B from a Go release that renamed or
// retyped its fields: timerOn is an int, the rest but netAllocs are gone.
type fakeB struct {
	timerOn   int    //lint:ignore U1000 read by reflection only
	netAllocs uint64 //lint:ignore U1000 read by reflection only
	renamed   uint64 //lint:ignore U1000 read by reflection only
}

// TestFieldsDegrade: with testing.B's fields missing or retyped, every
// accessor reports "unknown" instead of panicking, and the note names
// each missing field with what benchkit does without it.
func TestFieldsDegrade(t *testing.T) {
	fs := fieldsOf(reflect.TypeFor[fakeB]())
	assert.Nil(t, fs.timerOn, "a field of another kind is unavailable")
	assert.NotNil(t, fs.netAllocs)
	assert.Nil(t, fs.netBytes)
	assert.Nil(t, fs.hasSub)
	assert.Nil(t, fs.startWall)

	b := &fakeB{}
	assert.NotPanics(t, func() {
		_, ok := fs.timerOnOf(b)
		assert.False(t, ok)
		_, _, ok = fs.allocsOf(b)
		assert.False(t, ok, "netBytes is missing")
		_, ok = fs.hasSubOf(b)
		assert.False(t, ok)
		_, ok = fs.timerStartOf(b)
		assert.False(t, ok)
		_, ok = fs.setBytesOf(b)
		assert.False(t, ok)
	})

	var names []string
	for _, g := range fs.gaps("linux") {
		names = append(names, g.Field)
	}
	assert.Equal(t, []string{"timerOn", "netAllocs/netBytes", "hasSub", "loop.n", "start", "parent", "benchFunc", "bytes", "output"}, names)
	assert.Len(t, fs.gaps("windows"), len(names)-1, "on Windows the timer start is not a time.Time: not a gap")
	msg := note(fs.gaps("linux"), "go1.99")
	assert.Contains(t, msg, "benchkit: testing.B in go1.99 lacks fields benchkit reads")
	assert.Contains(t, msg, "timerOn: Track assumes the timer runs")
	assert.Contains(t, msg, "netAllocs/netBytes: allocs/op and B/op in the report come from runtime.ReadMemStats")
	assert.Contains(t, msg, "hasSub: a benchmark that calls b.Run is recorded as if it were measured")
	assert.Contains(t, msg, "bytes: control.Compare reports no MB/s")
	assert.Contains(t, msg, "update benchkit for this Go release")
	assert.Empty(t, note(nil, "go1.26.8"))
}

func TestReadsThisGoVersion(t *testing.T) {
	v := live
	found := v.timerOn != nil && v.netAllocs != nil && v.netBytes != nil && v.hasSub != nil && v.loopN != nil &&
		v.parent != nil && v.benchFunc != nil && v.bytes != nil && v.output != nil
	require.True(t, found, "testing.B fields not found (%+v): Track falls back to ReadMemStats and cannot see parents; update fields.go", v)
	if runtime.GOOS != "windows" {
		readable := v.startWall != nil && v.startExt != nil && timeWall != nil && timeExt != nil
		require.True(t, readable, "timer start not readable (%+v): the timer audit loses its tail check; update fields.go", v)
	}
	setBenchtime(t, "100x")
	var allocs uint64
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkBytes = make([]byte, 64)
		}
		b.StopTimer()
		allocs, _, _ = Allocs(b)
	})
	if runtime.GOOS != "windows" {
		// The timer start must be a monotonic reading taken by ResetTimer:
		// after one taken before the call, and before one taken after it.
		var before, start, after int64
		ok := false
		testing.Benchmark(func(b *testing.B) {
			b0, ok0 := Monotonic(time.Now())
			b.ResetTimer()
			s, ok1 := TimerStart(b)
			a, ok2 := Monotonic(time.Now())
			before, start, after, ok = b0, s, a, ok0 && ok1 && ok2
		})
		within := ok && start >= before && start <= after
		assert.True(t, within, "timer start %d not within [%d, %d] around ResetTimer (readable: %v)", start, before, after, ok)
	}
	const allocsWant = "view counted %d allocations, testing %d; want equal and ≥ 100"
	assert.Equal(t, r.MemAllocs, allocs, allocsWant, allocs, r.MemAllocs)
	assert.GreaterOrEqual(t, r.MemAllocs, uint64(100), allocsWant, allocs, r.MemAllocs)
}

var sinkBytes []byte

func setBenchtime(t *testing.T, v string) {
	t.Helper()
	f := flag.Lookup("test.benchtime")
	if f == nil {
		t.Skip("no -test.benchtime flag")
	}
	old := f.Value.String()
	require.NoError(t, flag.Set("test.benchtime", v))
	t.Cleanup(func() { _ = flag.Set("test.benchtime", old) })
}

// TestOutput: a skip's reason is in the log Output reads.
func TestOutput(t *testing.T) {
	var got string
	testing.Benchmark(func(b *testing.B) {
		defer func() { got = Output(b) }()
		b.Skip("no fixture here")
	})
	assert.Contains(t, got, "no fixture here")
}
