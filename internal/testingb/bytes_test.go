package testingb

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSetBytesDegrades: reading b.SetBytes's value never panics when a
// Go release moves the field: absent, retyped, or behind a nil embedded
// pointer, it is unavailable.
func TestSetBytesDegrades(t *testing.T) {
	type inner struct{ bytes int64 }
	type retyped struct {
		bytes int32 //lint:ignore U1000 read by reflection only
	}
	type viaPtr struct{ *inner }
	type direct struct{ bytes int64 }

	read := func(v any) (int64, bool) { return fieldsOf(reflect.TypeOf(v).Elem()).setBytesOf(v) }
	n, ok := read(&direct{bytes: 7})
	assert.True(t, ok)
	assert.Equal(t, int64(7), n)
	_, ok = read(&retyped{})
	assert.False(t, ok, "another kind")
	_, ok = read(&struct{ other int64 }{})
	assert.False(t, ok, "absent")
	assert.NotPanics(t, func() { _, ok = read(&viaPtr{}) })
	assert.False(t, ok, "behind a nil embedded pointer")
	n, ok = read(&viaPtr{&inner{bytes: 9}})
	assert.True(t, ok)
	assert.Equal(t, int64(9), n)
	_, ok = value(3, live.bytes)
	assert.False(t, ok, "not a pointer to a struct")

	b := new(testing.B)
	b.SetBytes(42)
	n, ok = SetBytes(b)
	assert.True(t, ok, "this Go release's testing.B has the field")
	assert.Equal(t, int64(42), n)
}
