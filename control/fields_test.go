package control

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInt64FieldDegrades: reading b.SetBytes's value never panics when a
// Go release moves the field: absent, retyped, or behind a nil embedded
// pointer, it is unavailable.
func TestInt64FieldDegrades(t *testing.T) {
	type inner struct{ bytes int64 }
	type retyped struct {
		bytes int32 //lint:ignore U1000 read by reflection only
	}
	type viaPtr struct{ *inner }
	type direct struct{ bytes int64 }

	n, ok := int64Field(reflect.ValueOf(direct{bytes: 7}), "bytes")
	assert.True(t, ok)
	assert.Equal(t, int64(7), n)
	_, ok = int64Field(reflect.ValueOf(retyped{}), "bytes")
	assert.False(t, ok, "another kind")
	_, ok = int64Field(reflect.ValueOf(struct{ other int64 }{}), "bytes")
	assert.False(t, ok, "absent")
	assert.NotPanics(t, func() {
		_, ok = int64Field(reflect.ValueOf(viaPtr{}), "bytes")
	})
	assert.False(t, ok, "behind a nil embedded pointer")
	n, ok = int64Field(reflect.ValueOf(viaPtr{&inner{bytes: 9}}), "bytes")
	assert.True(t, ok)
	assert.Equal(t, int64(9), n)
	_, ok = int64Field(reflect.ValueOf(3), "bytes")
	assert.False(t, ok, "not a struct")

	_, ok = setBytes(new(testing.B))
	assert.True(t, ok, "this Go release's testing.B has the field")
}

// TestImplementationPanicFails: an implementation's panic fails the
// benchmark through b.Fatal on its own goroutine (testing.Benchmark then
// returns a zero result) instead of a re-raised panic, which testing can
// lose; any other panic is re-raised as it was.
func TestImplementationPanicFails(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark")
	}
	setBenchtime(t, "20ms")
	var r testing.BenchmarkResult
	assert.NotPanics(t, func() {
		r = testing.Benchmark(func(b *testing.B) {
			With(Forks(1)).Compare(b, Func("a", func() int { return 1 }), Func("boom", func() int {
				panic("boom")
			}))
		})
	})
	assert.Zero(t, r.N, "the benchmark failed")

	assert.PanicsWithValue(t, "other", func() {
		func() {
			defer failOnPanic(nil) // b is not touched for a foreign panic
			panic("other")
		}()
	})
	p := implPanic{"control: implementation \"x\" panicked: y"}
	assert.Equal(t, p.msg, p.Error(), "an escaped implPanic prints its message")
}
