package testingb

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/testflag"
)

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
	if fn := runtime.FuncForPC(funcPC(b)); fn != nil {
		return fn.Name()
	}
	return ""
}

// Key returns b's registry key, the name testing prints for the run:
// Name(b) with the "-P" suffix of the GOMAXPROCS value it prints it under
// (benchname.Printed). A run's printed value can differ from the one in
// effect while it ran (golang/go#49980: testing runs a benchmark's very
// first call before it sets the first -cpu value); benchkit files the run
// under the name testing prints.
func Key(b *testing.B) string { return benchname.Printed(Name(b), Procs(b)) }

// BenchmarkNames returns the names of the top-level benchmarks m, a
// *testing.M, will run when selected (its unexported benchmarks field),
// nil when m is something else or the field moved.
func BenchmarkNames(m any) []string {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Type() != reflect.TypeFor[testing.M]() {
		return nil
	}
	f := v.Elem().FieldByName("benchmarks")
	if !f.IsValid() || f.Kind() != reflect.Slice || f.Type().Elem() != reflect.TypeFor[testing.InternalBenchmark]() {
		return nil
	}
	names := make([]string, f.Len())
	for i := range names {
		names[i] = f.Index(i).FieldByName("Name").String()
	}
	return names
}
