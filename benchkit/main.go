package benchkit

import (
	"fmt"
	"os"
	"reflect"

	"github.com/benchkit/go-benchkit/internal/session"
)

// Main runs the tests and benchmarks of a package and, when benchmarks were
// requested, the hygiene around them. Call it from TestMain:
//
//	func TestMain(m *testing.M) { benchkit.Main(m) }
//
// When -test.bench (go test -bench) is non-empty after flag parsing, Main
//
//  1. records the environment (load, CPU governor, turbo, GOMAXPROCS,
//     virtualisation and steal time, race/coverage/-N -l builds);
//  2. runs the warm-up (package warmup) before the first test or benchmark;
//  3. runs m.Run();
//  4. prints the hygiene report to stdout (or stderr, a file, or nowhere:
//     -benchkit.report), every line starting with "benchkit │ " so that
//     the output stays readable by benchstat;
//  5. writes the JSON report and the samples file if asked;
//  6. exits with m.Run's code, or 1 when m passed but a gate the user
//     enabled failed (a control comparison gate, or any flag with
//     -benchkit.strict), a flag failed its benchmark (a stopped timer
//     always does, any flag under [FailOnFlags]), or a requested file
//     could not be written. The flag case matters under -count above 1:
//     go test loses a failure in a later repeat (it prints --- FAIL, then
//     PASS, and m.Run returns 0), and Main, which recorded it, exits 1
//     and lists it in the report's failures section.
//
// Without -bench, Main only runs m and exits with its code: it adds nothing
// to the output. With -bench but no benchmark that called [Track], [Loop],
// [LoopWithSetup] or control.Compare, it prints nothing either (the files, if
// requested, are still written, with no benchmarks). The report's sections
// and the JSON schema are described in the repository's docs/report.md.
//
// Settings, each with a flag (registered by Main on flag.CommandLine when
// it is called, never at import time), an environment variable and a
// [MainOption]:
//
//	flag                        env var            option           default
//	-benchkit.json=path         BENCHKIT_JSON      MainJSON         "" (no file)
//	-benchkit.samples=path      BENCHKIT_SAMPLES   MainSamples      "" (no file)
//	-benchkit.report=dest       BENCHKIT_REPORT    MainReport       stdout (or stderr, off, a path)
//	-benchkit.warmup=d|off      BENCHKIT_WARMUP    MainWarmup       warmup.DefaultLimit
//	-benchkit.delta=pct         BENCHKIT_DELTA     MainRunsNeededFor 5 (Δ% for runs needed)
//	-benchkit.strict            BENCHKIT_STRICT    MainStrict       false
//	-benchkit.metrics=on|off    BENCHKIT_METRICS   -                on
//	-benchkit.forks=n           BENCHKIT_FORKS     control.Forks    control.DefaultForks
//	-benchkit.against=path      BENCHKIT_AGAINST   -                "" (off)
//	-benchkit.rounds=n          BENCHKIT_ROUNDS    -                DefaultAgainstRounds
//	-benchkit.gate=pct          BENCHKIT_GATE      -                0 (no gate)
//	-benchkit.gate.allocs       BENCHKIT_GATE_ALLOCS -              false
//
// -benchkit.against compares with another build of the package, and the
// other three apply to it: see the package doc, "Comparing with another
// build".
//
// -benchkit.forks is read by package control (see its "Forks" section);
// Main registers it so that go test accepts it, and checks its value.
// -benchkit.metrics=off leaves benchkit's and control's extra metrics off
// the benchmark lines (see the package doc's Track section); it is read
// where the metrics are reported, so BENCHKIT_METRICS=off works without
// Main too.
//
// In a child process started by control.Compare's forks, Main only runs
// m and exits with its code: no environment probe, no warm-up, no report,
// no files (the parent process reports). A TestMain's own setup before
// Main still runs in every fork.
// A file path is relative to the package directory (go test runs the test
// binary there). A path that ends with a separator or names an existing
// directory gets one file per package in it, named after the import path
// with '/' replaced by '_' (".json" or ".txt"): use that with
// `go test ./...`, where every package's binary would otherwise overwrite
// the same file (a file that holds another package's output is replaced
// with a warning on stderr naming it). Across several packages prefer the
// environment variables:
// the test binary of a package whose TestMain does not call Main rejects an
// unknown -benchkit.* flag.
//
// Precedence, lowest first: the default, the options passed to Main, the
// environment variable, the flag. The person running the command (flag or
// variable) overrides the code (option). An invalid environment variable
// or flag value stops Main before anything runs, with a message naming the
// fix, and exit code 2; so does, when benchmarks are requested, a file
// path that cannot be written (a missing or unwritable directory).
//
// Main calls flag.Parse if the flags are not parsed yet. A TestMain that
// calls flag.Parse itself before Main must call [RegisterFlags] first, or
// flag.Parse rejects a -benchkit.* flag ("flag provided but not defined")
// and exits 2; the environment variables work either way. Main calls
// os.Exit and does not return: a TestMain with teardown after the tests
// calls [Run] instead. It panics if m is nil.
func Main(m M, opts ...MainOption) {
	os.Exit(Run(m, opts...))
}

// M is what [Main] and [Run] need of the package's tests: a *testing.M,
// or a stand-in for it in a test of your own TestMain. Run runs the tests
// and benchmarks and returns the exit code, as testing.M.Run does.
type M interface{ Run() int }

// Run does everything [Main] does (the settings, the environment probe,
// the warm-up, m.Run, the report, the files, the exit code) and returns
// the exit code instead of calling os.Exit, for a TestMain that has
// teardown to do after the tests:
//
//	func TestMain(m *testing.M) {
//		db := startDB()
//		code := benchkit.Run(m)
//		db.Stop() // os.Exit skips deferred calls: tear down first
//		os.Exit(code)
//	}
//
// The code is m.Run's, or 1 or 2 as Main's doc lists. Run panics if m is
// nil.
func Run(m M, opts ...MainOption) int {
	mainCheck(m)
	return session.Run(m, options(opts), session.Live())
}

func mainCheck(m M) {
	if m == nil {
		panic("benchkit: Main called with a nil m; pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }")
	}
	if isNilValue(m) {
		panic(fmt.Sprintf("benchkit: Main called with a nil %T (a typed nil, which m.Run would dereference); "+
			"pass TestMain's own: func TestMain(m *testing.M) { benchkit.Main(m) }", m))
	}
}

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
