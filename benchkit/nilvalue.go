package benchkit

import "reflect"

// isNilValue reports whether v, a non-nil interface, holds a nil pointer,
// map, slice, channel or function: a typed nil such as (*testing.M)(nil),
// whose methods would crash with a nil dereference instead of a message.
func isNilValue(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.Interface:
		return rv.IsNil()
	}
	return false
}
