package sink_test

import (
	"reflect"
	"testing"

	"github.com/benchkit/go-benchkit/sink"
)

type point struct{ x, y float64 }

type record struct {
	id    uint64
	name  string
	tags  []string
	next  *record
	cells [16]uint64
}

// Package-level sinks, the alternatives Keep replaces. The tests below show
// what they cost in allocations.
var (
	globalBytes []byte
	globalAny   any
)

// allocCase builds a fresh local value of some type on each call and passes
// it to Keep or Opaque, so an escape caused by either would show as an
// allocation.
type allocCase struct {
	name string
	f    func(i int)
}

func keepCases() []allocCase {
	return []allocCase{
		{"int", func(i int) { sink.Keep(i * 7919) }},
		{"uint64", func(i int) { sink.Keep(uint64(i) << 40) }},
		{"float64", func(i int) { sink.Keep(float64(i) * 1.5) }},
		{"complex128", func(i int) { sink.Keep(complex(float64(i), 2)) }},
		{"bool", func(i int) { sink.Keep(i%2 == 0) }},
		{"string", func(i int) { sink.Keep("benchkit"[i%4:]) }},
		{"slice", func(i int) { sink.Keep(make([]byte, 64)[:i%64]) }},
		{"array", func(i int) { sink.Keep([32]uint64{uint64(i)}) }},
		{"struct", func(i int) { sink.Keep(point{float64(i), 2}) }},
		{"large struct", func(i int) { sink.Keep(record{id: uint64(i), name: "r"}) }},
		{"pointer to local", func(i int) { r := record{id: uint64(i)}; r.next = &r; sink.Keep(&r) }},
		{"map", func(i int) { sink.Keep(map[int]int(nil)) }},
		{"func", func(i int) { sink.Keep(keepCases) }},
		{"interface", func(i int) { var e error; sink.Keep(e) }},
		{"chan", func(i int) { sink.Keep((chan int)(nil)) }},
	}
}

func opaqueCases() []allocCase {
	return []allocCase{
		{"int", func(i int) { sink.Keep(sink.Opaque(i * 7919)) }},
		{"uint64", func(i int) { sink.Keep(sink.Opaque(uint64(i) << 40)) }},
		{"float64", func(i int) { sink.Keep(sink.Opaque(float64(i) * 1.5)) }},
		{"complex128", func(i int) { sink.Keep(sink.Opaque(complex(float64(i), 2))) }},
		{"bool", func(i int) { sink.Keep(sink.Opaque(i%2 == 0)) }},
		{"string", func(i int) { sink.Keep(sink.Opaque("benchkit"[i%4:])) }},
		{"slice", func(i int) { sink.Keep(sink.Opaque(make([]byte, 64)[:i%64])) }},
		{"array", func(i int) { sink.Keep(sink.Opaque([32]uint64{uint64(i)})) }},
		{"struct", func(i int) { sink.Keep(sink.Opaque(point{float64(i), 2})) }},
		{"large struct", func(i int) { sink.Keep(sink.Opaque(record{id: uint64(i), name: "r"})) }},
		{"pointer to local", func(i int) { r := record{id: uint64(i)}; sink.Keep(sink.Opaque(&r)) }},
		{"map", func(i int) { sink.Keep(sink.Opaque(map[int]int(nil))) }},
		{"func", func(i int) { sink.Keep(sink.Opaque(keepCases)) }},
		{"interface", func(i int) { var e error; sink.Keep(sink.Opaque(e)) }},
		{"chan", func(i int) { sink.Keep(sink.Opaque((chan int)(nil))) }},
	}
}

func testNoAllocs(t *testing.T, cases []allocCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			i := 0
			got := testing.AllocsPerRun(200, func() { i++; tc.f(i) })
			if got != 0 {
				t.Errorf("%s: %v allocs per call, want 0", tc.name, got)
			}
		})
	}
}

func TestKeepDoesNotAllocate(t *testing.T) { testNoAllocs(t, keepCases()) }

func TestOpaqueDoesNotAllocate(t *testing.T) { testNoAllocs(t, opaqueCases()) }

// TestSinkVariablesAllocate is the evidence behind the package's choice of
// Keep over sink variables: on the same values, a store to a package-level
// variable moves a buffer to the heap, and a store to an any boxes an
// integer, while Keep allocates nothing. If these stop allocating, the
// package doc's note on sink variables, and docs/compatibility.md's, are
// out of date.
func TestSinkVariablesAllocate(t *testing.T) {
	i := 0
	tests := []struct {
		name   string
		f      func()
		want   float64
		reason string
	}{
		{"Keep(make([]byte, 64))", func() { sink.Keep(make([]byte, 64)) }, 0,
			"Keep does not make the buffer escape: it stays on the stack"},
		{"global = make([]byte, 64)", func() { globalBytes = make([]byte, 64) }, 1,
			"a store to a package-level variable moves the buffer to the heap"},
		{"Keep(uint64)", func() { i++; sink.Keep(uint64(i) << 40) }, 0,
			"Keep of a scalar does not box it"},
		{"anySink = uint64", func() { i++; globalAny = uint64(i) << 40 }, 1,
			"a store to an any boxes the value on the heap"},
	}
	for _, tc := range tests {
		if got := testing.AllocsPerRun(200, tc.f); got != tc.want {
			t.Errorf("%s: %v allocs per call, want %v: %s", tc.name, got, tc.want, tc.reason)
		}
	}
}

func TestOpaqueReturnsItsArgument(t *testing.T) {
	r := &record{id: 1}
	m := map[string]int{"a": 1}
	ch := make(chan int)
	tests := []struct {
		name string
		in   any
		out  any
	}{
		{"int", -7, sink.Opaque(-7)},
		{"uint", uint(0b10110), sink.Opaque(uint(0b10110))},
		{"float64", 2.5, sink.Opaque(2.5)},
		{"string", "benchkit", sink.Opaque("benchkit")},
		{"slice", []int{1, 2, 3}, sink.Opaque([]int{1, 2, 3})},
		{"struct", record{id: 9, name: "n", tags: []string{"t"}, cells: [16]uint64{3: 4}},
			sink.Opaque(record{id: 9, name: "n", tags: []string{"t"}, cells: [16]uint64{3: 4}})},
		{"pointer", r, sink.Opaque(r)},
		{"map", m, sink.Opaque(m)},
		{"chan", ch, sink.Opaque(ch)},
		{"nil error", error(nil), sink.Opaque(error(nil))},
	}
	for _, tc := range tests {
		if !reflect.DeepEqual(tc.in, tc.out) {
			t.Errorf("%s: Opaque(%v) = %v, want its argument", tc.name, tc.in, tc.out)
		}
	}
	if sink.Opaque(r) != r {
		t.Errorf("Opaque(pointer) returned a different pointer")
	}
}
