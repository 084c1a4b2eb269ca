package control

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unicode"
)

// ControlName is the name of the automatic control: a second copy of the
// baseline, measured as if it were a candidate. It is reserved: an
// implementation may not be called "control".
const ControlName = "control"

// Impl is one implementation in a comparison: a name and a function whose
// result is kept alive. Make it with [Func]; the zero Impl is rejected by
// [Compare] and [Benchstat] with a message.
type Impl struct {
	name  string
	isNil bool
	// run calls the function n times, keeping the last result alive.
	run func(n int)
	// empty calls a function of the same result type that returns the
	// zero value, n times, through the same code path as run: its time is
	// the closure-call overhead.
	empty func(n int)
	// bench is the body of a Rounds leaf: for b.Loop() { f() }.
	bench func(b *testing.B)
}

// Name returns the implementation's name.
func (i Impl) Name() string { return i.name }

// Func returns an implementation named name that calls f. f's result is
// kept alive (the compiler cannot drop the work that produced it), so f
// should return what it computes, as in
//
//	control.Func("itoa", func() string { return strconv.Itoa(n) })
//
// Each call of f costs an indirect call (a nanosecond or two) on top of
// f's work, which pulls every difference toward 0% for nanosecond-scale
// work: Compare reports it (closure-ns/op) and warns when it exceeds a
// tenth of the baseline's time. For work of a few nanoseconds, compare a
// larger unit (a loop of 100 calls inside f).
//
// A name must be non-empty, unique in the comparison, hold no whitespace,
// control character (NUL, ESC, …), '/', '#' or ',', not end in
// "-<digits>" (go test would read that as a GOMAXPROCS suffix), and not be
// [ControlName]. [Compare] also
// rejects a name whose metric unit is one of its own ("closure") or
// another implementation's. Func does not check; [Compare] and
// [Benchstat] do, and fail the benchmark with a message naming the fix.
func Func[T any](name string, f func() T) Impl {
	if f == nil {
		return Impl{name: name, isNil: true}
	}
	return Impl{
		name:  name,
		run:   batch(f),
		empty: batch(zero[T]),
		bench: leaf(name, f),
	}
}

// zero returns T's zero value; its batch time is the call overhead.
//
//go:noinline
func zero[T any]() T {
	var z T
	return z
}

// batch returns a function that calls f n times. It is not inlined, so f
// stays an opaque function value inside the loop for user functions and for
// zero alike, and both pay the same indirect call.
//
//go:noinline
func batch[T any](f func() T) func(n int) {
	return func(n int) {
		var v T
		for range n {
			v = f()
		}
		runtime.KeepAlive(v)
	}
}

// leaf returns the body of one Rounds sub-benchmark.
func leaf[T any](name string, f func() T) func(b *testing.B) {
	return func(b *testing.B) {
		defer failOnPanic(b)
		defer rethrow(name)
		for b.Loop() {
			f()
		}
	}
}

// implPanic is a panic from an implementation, as rethrow raises it: the
// message names the implementation and holds the panic value and the
// original stack.
type implPanic struct{ msg string }

func (p implPanic) Error() string { return p.msg }

// rethrow re-panics a panic from an implementation with its name and the
// original stack, so the failure says which implementation broke.
func rethrow(name string) {
	if r := recover(); r != nil {
		panic(implPanic{fmt.Sprintf("control: implementation %q panicked: %v\n\noriginal stack:\n%s", name, r, debug.Stack())})
	}
}

// failOnPanic, deferred on the benchmark's goroutine, turns an
// implementation's panic (from rethrow) into b.Fatal with the same
// message, and re-panics anything else. A panic left to crash the
// process can be lost: testing signals the benchmark's end from a
// deferred call, so its main goroutine can print PASS and exit 0 while
// the panicking goroutine is still printing its stack.
func failOnPanic(b *testing.B) {
	r := recover()
	if r == nil {
		return
	}
	p, ok := r.(implPanic)
	if !ok {
		panic(r)
	}
	b.Helper()
	b.Fatal(p.msg)
}

// checkName returns why name cannot name an implementation, or "".
func checkName(name string) string {
	switch {
	case name == "":
		return "the name is empty: give every implementation a short name, like \"old\" or \"new\""
	case strings.IndexFunc(name, unicode.IsSpace) >= 0:
		return "the name contains whitespace, which cannot appear in a benchmark name or a metric unit: use '_' or '.'"
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Sprintf("the name contains the control character %q, which a terminal or a reader of go test output mangles: use letters, digits, '_', '-' or '.'", firstControl(name))
	case strings.ContainsAny(name, "/#,"):
		return "the name contains '/', '#' or ',', which go test and benchstat read as name structure: use '_' or '.'"
	case name == ControlName:
		return "the name \"control\" is reserved for the automatic copy of the baseline: rename the implementation"
	case endsInDigitsSuffix(name):
		return "the name ends in \"-<digits>\", which go test output readers take for a GOMAXPROCS suffix: end it in a letter"
	}
	return ""
}

// firstControl returns the first control character in s, or 0.
func firstControl(s string) rune {
	for _, r := range s {
		if unicode.IsControl(r) {
			return r
		}
	}
	return 0
}

func endsInDigitsSuffix(s string) bool {
	i := strings.LastIndexByte(s, '-')
	if i < 0 || i == len(s)-1 {
		return false
	}
	for _, r := range s[i+1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// validate checks the implementations of one comparison and returns the
// list measured: baseline, control (the baseline again), candidates.
func validate(base Impl, cands []Impl) ([]Impl, error) {
	all := append([]Impl{base}, cands...)
	seen := make(map[string]int, len(all))
	for i, im := range all {
		role := "the baseline"
		if i > 0 {
			role = fmt.Sprintf("candidate %d", i)
		}
		if im.isNil || (im.run == nil && im.name != "") {
			return nil, fmt.Errorf("control: %s (%q) has a nil function: pass a func() T that does the work and returns its result", role, im.name)
		}
		if im.run == nil {
			return nil, fmt.Errorf("control: %s is the zero Impl: build implementations with control.Func(name, f)", role)
		}
		if why := checkName(im.name); why != "" {
			return nil, fmt.Errorf("control: %s has the invalid name %q: %s", role, im.name, why)
		}
		if j, dup := seen[im.name]; dup {
			return nil, fmt.Errorf("control: implementations %d and %d are both named %q: names must be unique (the control copy of the baseline is added for you)", j, i, im.name)
		}
		seen[im.name] = i
	}
	ctl := base
	ctl.name = ControlName
	out := make([]Impl, 0, len(all)+1)
	out = append(out, base, ctl)
	return append(out, cands...), nil
}

// ownUnits are the metric units Compare reports for itself, with what each
// measures; docs/report.md lists them.
var ownUnits = map[string]string{
	"ns/op":         "the baseline's time per call",
	"closure-ns/op": "Compare's own closure-call overhead",
	"rounds":        "Compare's count of measured rounds",
	"allocs/op":     "the baseline's allocations per call",
	"B/op":          "the baseline's bytes per call",
	"MB/s":          "the baseline's throughput",
}

// checkUnits returns an error when a metric unit Compare would report for
// one of impls (as returned by [validate]: baseline, control, candidates)
// is also one of Compare's own units or another implementation's: the
// benchmark line would carry two values under one unit, and benchstat
// would show one as the other. Only Compare reports these metrics, so
// [Benchstat] does not call it.
func checkUnits(impls []Impl) error {
	owner := make(map[string]string, len(ownUnits)+2*len(impls))
	for u, what := range ownUnits {
		owner[u] = what
	}
	base := impls[0].name
	for i, im := range impls {
		role := implRole(i, im.name)
		type metric struct{ unit, what string }
		var units []metric
		if i != 1 { // the control reports its ratio only
			units = append(units, metric{im.name + "-ns/op", "its time"}, metric{im.name + "-MB/s", "its throughput"})
		}
		if i != 0 { // the baseline, its time only
			units = append(units, metric{ratioUnit(im.name, base), "its ratio to the baseline"})
		}
		for _, u := range units {
			if other, taken := owner[u.unit]; taken {
				return fmt.Errorf("control: %s reports %s as %q, the unit of %s: rename the implementation", role, u.what, u.unit, other)
			}
			owner[u.unit] = role + "'s " + u.what
		}
	}
	return nil
}

// implRole names the i-th of the implementations [validate] returns, for
// messages: the baseline ("old"), candidate 1 ("new").
func implRole(i int, name string) string {
	switch i {
	case 0:
		return fmt.Sprintf("the baseline (%q)", name)
	case 1:
		return fmt.Sprintf("the control (%q)", name)
	}
	return fmt.Sprintf("candidate %d (%q)", i-1, name)
}
