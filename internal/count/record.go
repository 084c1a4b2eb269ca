package count

import (
	"errors"
	"flag"
	"slices"

	"github.com/benchkit/go-benchkit/internal/registry"
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

// Record is the registry's record of a count: res, or why err says it
// could not be counted (PerOp -1, the reason, the message with the fix
// and the failing process's output).
func Record(res Result, err error) registry.InstrCount {
	c := registry.InstrCount{
		PerOp: res.PerOp, N1: res.N1, N2: res.N2, Total1: res.Total1, Total2: res.Total2, ResolutionPct: res.ResolutionPct,
		PerOps: res.PerOps, HalfWidthPct: res.HalfWidthPct,
		Capped: res.Capped, Children: res.Children, Processes: len(res.Runs), Wall: res.Wall, Valgrind: res.Valgrind,
	}
	if err != nil {
		c.PerOp, c.Reason, c.Error = -1, string(ReasonFailed), err.Error()
		var ce *Error
		if errors.As(err, &ce) {
			c.Reason, c.Error, c.Output = string(ce.Reason), ce.Message, ce.Output
		}
	}
	return c
}
