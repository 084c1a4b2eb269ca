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
