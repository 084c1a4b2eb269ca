package count

import (
	"errors"
	"fmt"
)

// Reason says why a benchmark could not be counted.
type Reason string

// The reasons of an [Error].
const (
	// ReasonMissing: no valgrind on PATH.
	ReasonMissing Reason = "valgrind-missing"
	// ReasonPlatform: valgrind does not run on this GOOS/GOARCH.
	ReasonPlatform Reason = "unsupported-platform"
	// ReasonBuild: the binary was built with -race, -msan or -asan, whose
	// shadow memory valgrind cannot host.
	ReasonBuild Reason = "unsupported-build"
	// ReasonFailed: a process exited non-zero or was killed (the
	// benchmark failed or panicked under valgrind, or valgrind could not
	// run it); Output holds what it printed.
	ReasonFailed Reason = "failed"
	// ReasonDeadline: a process passed its deadline, or the count would
	// pass Limits.Total.
	ReasonDeadline Reason = "deadline"
	// ReasonNotRun: the process printed no result line for the benchmark
	// at the N it was given: the benchmark skipped, or the name selects
	// nothing.
	ReasonNotRun Reason = "not-run"
	// ReasonNoCount: valgrind's summary had no instruction count.
	ReasonNoCount Reason = "no-count"
)

// Error is a benchmark that could not be counted, and why. Message says
// what happened and the fix; Output holds the end of what the failing
// process and valgrind printed ("" when none ran).
type Error struct {
	Reason    Reason
	Benchmark string
	Message   string
	Output    string
	// Err is the underlying error (a *child.Error for a process that
	// failed), or nil.
	Err error
}

func (e *Error) Error() string {
	s := "count: "
	if e.Benchmark != "" {
		s += e.Benchmark + ": "
	}
	s += e.Message
	if e.Output != "" {
		s += "; its output:\n" + e.Output
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// ReasonOf returns the Reason of err when it is or wraps an [*Error],
// else "".
func ReasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// errorf returns an *Error with reason r for benchmark name.
func errorf(r Reason, name, format string, args ...any) *Error {
	return &Error{Reason: r, Benchmark: name, Message: fmt.Sprintf(format, args...)}
}
