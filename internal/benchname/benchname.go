package benchname

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/internal/registry"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

// fields index testing.B's common.parent (*common) and benchFunc
// (func(*B)); nil when absent or of another kind.
var parentField, funcField = fieldsOf(reflect.TypeFor[testing.B]())

func fieldsOf(t reflect.Type) (parent, fn []int) {
	if f, ok := t.FieldByName("parent"); ok && f.Type.Kind() == reflect.Pointer {
		parent = f.Index
	}
	if f, ok := t.FieldByName("benchFunc"); ok && f.Type.Kind() == reflect.Func {
		fn = f.Index
	}
	return parent, fn
}

// Readable reports whether this Go release's testing.B has the fields
// the package reads (tests check it).
func Readable() bool { return parentField != nil && funcField != nil }

// FirstRun reports whether b is the *testing.B that b.Run (or testing's
// top level) created, rather than one testing built for a later -count
// repeat or -cpu value: only the first has a parent. testing.Benchmark's B
// has none either. ok is false when the field cannot be read.
func FirstRun(b *testing.B) (first, ok bool) {
	if parentField == nil {
		return false, false
	}
	f, err := reflect.ValueOf(b).Elem().FieldByIndexErr(parentField)
	if err != nil {
		return false, false
	}
	return !f.IsNil(), true
}

// Procs returns the GOMAXPROCS value testing prints in b's name (the "-P"
// suffix): GOMAXPROCS now, except in the B that b.Run created, whose
// first call testing makes before it sets the first -cpu value
// (golang/go#49980) and prints under that value.
func Procs(b *testing.B) int {
	if first, ok := FirstRun(b); ok && first {
		if cpus := testflag.CPUs(); len(cpus) > 0 {
			return cpus[0]
		}
	}
	return runtime.GOMAXPROCS(0)
}

// Stale returns GOMAXPROCS now when it is not procs, the value testing
// prints for the run (from Procs), else 0: the run is being measured at
// the previous benchmark's -cpu value.
func Stale(procs int) int {
	if now := runtime.GOMAXPROCS(0); now != procs {
		return now
	}
	return 0
}

// Name returns b.Name(), or, for the unnamed B of testing.Benchmark,
// "testing.Benchmark(p.TestX.func1)": the function it runs, with its
// package's last path element.
func Name(b *testing.B) string {
	if name := b.Name(); name != "" {
		return name
	}
	fn := funcName(b)
	if fn == "" {
		return "testing.Benchmark"
	}
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	return "testing.Benchmark(" + fn + ")"
}

func funcName(b *testing.B) string {
	if funcField == nil {
		return ""
	}
	f, err := reflect.ValueOf(b).Elem().FieldByIndexErr(funcField)
	if err != nil || f.IsNil() {
		return ""
	}
	if fn := runtime.FuncForPC(f.Pointer()); fn != nil {
		return fn.Name()
	}
	return ""
}

// Key returns b's registry key: Name(b) with the "-P" suffix of the
// GOMAXPROCS value testing prints for it (registry.KeyProcs).
func Key(b *testing.B) string { return registry.KeyProcs(Name(b), Procs(b)) }
