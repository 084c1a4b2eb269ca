package benchkit

import (
	"fmt"
	"os"
	"reflect"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/session"
)

// Main runs the tests and benchmarks of a package and, when benchmarks were
// requested, the hygiene around them. Call it from TestMain:
//
//	func TestMain(m *testing.M) { benchkit.Main(m) }
//
// When -test.bench is non-empty after flag parsing, Main records the
// environment (load, governor, turbo, GOMAXPROCS, virtualisation and
// steal, race/cover/-N -l builds), runs the warm-up (package warmup), runs
// m.Run, prints the hygiene report (every line starting with
// "benchkit │ ", so that benchstat still reads the output), writes the
// files asked for (the JSON report, the samples file, the HTML report,
// the Bencher and github-action-benchmark exports), and exits. Without
// -bench it only runs m; with -bench but nothing recorded it prints
// nothing (the files, if asked, are still written).
//
// The exit code is m.Run's when it is not 0. Otherwise it is 1 when a gate
// failed (control's Gate, -benchkit.gate or -benchkit.gate.allocs), a flag
// failed its benchmark (a stopped timer always does, any flag under
// [FailOnFlags] or strict mode) even in a later -count repeat that go test
// itself lost, a process of this binary failed under -benchkit.against, or
// a requested file could not be written; it is 2, before anything runs,
// for an invalid setting or a -benchkit.against that cannot run, with a
// message naming the fix; else 0.
//
// Settings, each with a flag (registered when Main is called, never at
// import time), an environment variable and, for some, a [MainOption]:
//
//	flag                             env var                     option             default
//	-benchkit.json=path              BENCHKIT_JSON               MainJSON           "" (no file)
//	-benchkit.samples=path           BENCHKIT_SAMPLES            MainSamples        "" (no file)
//	-benchkit.html=path              BENCHKIT_HTML               -                  "" (no file)
//	-benchkit.bmf=path               BENCHKIT_BMF                -                  "" (no file)
//	-benchkit.gab=path               BENCHKIT_GAB                -                  "" (no file)
//	-benchkit.report=dest            BENCHKIT_REPORT             MainReport         stdout (or stderr, off, a path)
//	-benchkit.warmup=d|off           BENCHKIT_WARMUP             MainWarmup         warmup.DefaultLimit
//	-benchkit.delta=pct              BENCHKIT_DELTA              MainRunsNeededFor  5 (the Δ% runs-needed sizes for)
//	-benchkit.strict                 BENCHKIT_STRICT             MainStrict         false
//	-benchkit.metrics=on|off         BENCHKIT_METRICS            -                  on
//	-benchkit.forks=n                BENCHKIT_FORKS              control.Forks      control.DefaultForks
//	-benchkit.against=path           BENCHKIT_AGAINST            -                  "" (off)
//	-benchkit.rounds=n               BENCHKIT_ROUNDS             -                  10
//	-benchkit.pairing=mode           BENCHKIT_PAIRING            -                  lockstep (or rounds)
//	-benchkit.gate=pct               BENCHKIT_GATE               -                  0 (no gate)
//	-benchkit.gate.allocs            BENCHKIT_GATE_ALLOCS        -                  false
//	-benchkit.gate.instructions=pct  BENCHKIT_GATE_INSTRUCTIONS  -                  0 (no gate)
//	-benchkit.progress=on|off        BENCHKIT_PROGRESS           -                  on
//	-benchkit.count=kind             BENCHKIT_COUNT              -                  off (or instructions)
//
// Precedence, lowest first: the default, the options, the environment
// variable, the flag: the person running the command overrides the code.
// -benchkit.forks is read by package control; -benchkit.metrics where the
// metrics are reported, so that BENCHKIT_METRICS works without Main.
// -benchkit.against and the five after it compare with another build
// (docs/ci.md): in lockstep, a benchmark that calls [Track] or [Loop] in
// both builds runs in short runs interleaved across live processes of
// each; any other in rounds of whole processes. -benchkit.progress=off
// silences the progress lines -benchkit.against prints on stderr between
// its triples and rounds, at most one every 5 seconds. -benchkit.html
// writes one self-contained page with the report's plots; -benchkit.bmf
// (Bencher Metric Format) and -benchkit.gab (github-action-benchmark's
// customSmallerIsBetter) export the results for those dashboards
// (docs/report.md, docs/ci.md). -benchkit.count=instructions,
// after the benchmarks, counts the instructions per op of every benchmark
// that called Track, Loop or LoopWithSetup under valgrind, in processes
// of this test binary (seconds each), and shows them in the report's
// instr/op column, the JSON report and the samples file; a benchmark that
// cannot be counted (no valgrind, or it fails under it) is named with the
// reason and the fix, and fails nothing (docs/counts.md).
//
// A file path is relative to the package directory. A path that ends with
// a separator or names a directory gets one file per package, named after
// the import path with '/' replaced by '_': use that with go test ./...,
// preferably through the environment variables (a package whose TestMain
// does not call Main rejects an unknown -benchkit.* flag).
//
// In a child process benchkit started (a fork of control.Compare, a
// process of -benchkit.against), Main only runs m and exits with its
// code: the parent reports. Main calls flag.Parse if nobody has; a
// TestMain that parses flags itself calls [RegisterFlags] first. Main
// calls os.Exit: a TestMain with teardown calls [Run]. It panics if m is
// nil.
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

// IsChild reports whether this process is a child benchkit started: a
// fork of control.Compare or a process of -benchkit.against. Main reports
// nothing in a child, and a fork ends as soon as its measurement is
// handed over, so the code after Compare and TestMain's teardown run only
// in the parent. TestMain's setup runs in every child, while the
// parent's setup is still in place: use IsChild to keep setup that must
// happen once out of the children, such as a server on a fixed port
// (the children can reach the parent's) or a fixture the parent's
// teardown removes:
//
//	func TestMain(m *testing.M) {
//		if !benchkit.IsChild() {
//			stop := startServer(":8080")
//			defer stop()
//		}
//		code := benchkit.Run(m)
//		... // teardown: the parent only
//	}
func IsChild() bool { return child.Is() }
