package count

import (
	"errors"
	"flag"
	"slices"
	"strings"
)

// dropArgs are the flags a count's processes do not get: the go test
// flags this package sets, the output format and the test timeout (each
// process has its deadline), the file-writing ones, whose files the
// processes would overwrite, and -benchkit.count itself.
var dropArgs = []string{
	"benchkit.count",
	"test.run", "test.bench", "test.list", "test.skip", "test.count", "test.benchtime", "test.cpu", "test.benchmem",
	"test.v", "test.testlogfile", "test.outputdir", "test.timeout",
	"test.cpuprofile", "test.memprofile", "test.blockprofile", "test.mutexprofile", "test.trace", "test.coverprofile",
}

// Args returns every flag set on fs but those a count sets or must not
// pass, as "-name=value" (Target.Args): the user's -test.short and the
// package's own flags reach the counted benchmark as they reached the
// measured one. A caller counting another build drops benchkit's own.
func Args(fs *flag.FlagSet) []string {
	var args []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(dropArgs, f.Name) {
			args = append(args, "-"+f.Name+"="+f.Value.String())
		}
	})
	return args
}

// MaxOutput bounds the bytes of Result.Output (the end is kept, cut to
// whole lines).
const MaxOutput = 4096

// Outcome is a count as the report shows it: res, or, when err says why
// the benchmark could not be counted, a Result with PerOp -1, the reason,
// the message with the fix and the end of the failing process's output.
func Outcome(res Result, err error) Result {
	if err == nil {
		return res
	}
	res.PerOp, res.Reason, res.Error = -1, ReasonFailed, err.Error()
	var ce *Error
	if errors.As(err, &ce) {
		res.Reason, res.Error, res.Output = ce.Reason, ce.Message, tail(ce.Output, MaxOutput)
	}
	return res
}

// tail returns the whole lines within the last max bytes of s.
func tail(s string, max int) string {
	if len(s) <= max {
		return s
	}
	t := s[len(s)-max:]
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[i+1:]
	}
	return t
}
