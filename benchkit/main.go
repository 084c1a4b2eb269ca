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
// With a non-empty -test.bench, Main records the environment, runs the
// warm-up (package warmup) and m.Run, prints the report (each line starting
// "benchkit │ ", which benchstat skips), writes the files asked for, and
// exits; with nothing recorded it prints nothing (the files are still
// written). Without -bench, or in a child process ([IsChild]), it only
// runs m.
//
// The exit code is m.Run's when it is not 0; else 1 when a gate failed (or,
// under -benchkit.against, compared nothing), a flag failed its benchmark
// (even in a later -count repeat that go test itself lost), a process of
// this binary failed under -benchkit.against, a binary changed on disk
// mid-run, or a requested file could not be written; 2, before anything
// runs, for an invalid setting or a -benchkit.against that cannot run,
// with a message naming the fix; an interrupted -benchkit.against ends by
// the signal (or with 128 plus its number), reporting nothing; else 0.
//
// Settings: a flag (registered when Main is called, never at import time),
// an environment variable and, for some, a [MainOption]; the flag
// overrides the variable, the variable the option:
//
//	flag                             env var                     option             default
//	-benchkit.json=path              BENCHKIT_JSON               MainJSON           "" (no file)
//	-benchkit.samples=path           BENCHKIT_SAMPLES            MainSamples        "" (no file)
//	-benchkit.html=path              BENCHKIT_HTML               -                  "" (no file)
//	-benchkit.bmf=path               BENCHKIT_BMF                -                  "" (no file)
//	-benchkit.gab=path               BENCHKIT_GAB                -                  "" (no file)
//	-benchkit.report=dest            BENCHKIT_REPORT             MainReport         stdout (or stderr, off, a path; full[:dest])
//	-benchkit.warmup=d|off           BENCHKIT_WARMUP             MainWarmup         warmup.DefaultLimit
//	-benchkit.delta=pct              BENCHKIT_DELTA              MainRunsNeededFor  5 (the Δ% runs-needed sizes for)
//	-benchkit.strict                 BENCHKIT_STRICT             MainStrict         false
//	-benchkit.metrics=on|off         BENCHKIT_METRICS            -                  on
//	-benchkit.forks=n                BENCHKIT_FORKS              control.Forks      control.DefaultForks
//	-benchkit.against=rev|path       BENCHKIT_AGAINST            -                  "" (off)
//	-benchkit.rounds=n               BENCHKIT_ROUNDS             -                  lockstep: adaptive; rounds: 10
//	-benchkit.pairing=mode           BENCHKIT_PAIRING            -                  lockstep (or rounds)
//	-benchkit.gate=pct               BENCHKIT_GATE               -                  0 (no gate)
//	-benchkit.gate.allocs            BENCHKIT_GATE_ALLOCS        -                  false
//	-benchkit.gate.instructions=pct  BENCHKIT_GATE_INSTRUCTIONS  -                  0 (no gate)
//	-benchkit.progress=on|off        BENCHKIT_PROGRESS           -                  on
//	-benchkit.count=kind             BENCHKIT_COUNT              -                  off (or instructions)
//	-benchkit.shard=K/N              BENCHKIT_SHARD              -                  "" (every selected benchmark)
//	-benchkit.summary=path|off       BENCHKIT_SUMMARY            -                  "" (under -benchkit.against in GitHub Actions: $GITHUB_STEP_SUMMARY)
//
// The text report is compact by default: one header line (package, Go,
// CPU, load, the worst warning), a row per benchmark, and a line per
// finding that needs action. -benchkit.report=full, or full: before a
// destination (full:stderr, full:report.txt), prints the full report:
// the environment, the column legends, each benchmark's samples in
// order, and every finding explained.
//
// -benchkit.against names the base to compare with: a git revision
// (origin/main, a branch, a tag, a commit), whose merge base with HEAD
// Main checks out and builds the package at, with this binary's build
// settings and toolchain, in a cache ($BENCHKIT_CACHE, else
// benchkit/against under os.UserCacheDir; remove it to clear it); or the
// path of the same package's test binary built elsewhere. A value that
// names an existing file, looks like a path (absolute, ./, ../, ~, a
// backslash) or ends in .test or .exe is a path; anything else is a
// revision; "path:" and "rev:" force either.
//
// -benchkit.forks and -benchkit.metrics work without Main too. The files
// are described in docs/report.md, -benchkit.against and the five settings
// after it in docs/ci.md, -benchkit.count in docs/counts.md,
// -benchkit.shard and -benchkit.summary (each package adds its part to one
// Markdown file for the run) in docs/ci.md and docs/report.md. A file path
// is relative to the package directory; one that ends with a separator or
// names a directory gets a file per package, named after the import path
// with '/' replaced by '_', for go test ./... (through the environment
// variables: a TestMain without Main rejects -benchkit.* flags). Under go
// test -artifacts (with -outputdir), every file no setting names is
// written, one set per package, to <outputdir>/_artifacts/<package>/benchkit/
// (report.json, samples.txt, report.html, report.bmf.json,
// report.gab.json), and the run's summary and HTML index to
// benchkit-summary.md and benchkit-index.html in _artifacts.
//
// Main calls flag.Parse if nobody has (see [RegisterFlags]) and os.Exit
// (see [Run]). It panics if m is nil.
func Main(m M, opts ...MainOption) {
	os.Exit(Run(m, opts...))
}

// M is what [Main] and [Run] need of the package's tests: a *testing.M,
// or a stand-in for it in a test of your own TestMain.
type M interface{ Run() int }

// Run does everything [Main] does and returns the exit code instead of
// calling os.Exit, for a TestMain that has teardown to do after the tests:
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
// nothing in a child, and a fork ends once its measurement is handed over,
// so the code after Compare and TestMain's teardown run in the parent only.
// TestMain's setup runs in every child: use IsChild to keep out of the
// children setup that must happen once, such as a server on a fixed port:
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
