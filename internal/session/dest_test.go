package session

import (
	"errors"
	"github.com/benchkit/go-benchkit/internal/settings"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// TestMainReportDestination: -benchkit.report, BENCHKIT_REPORT and
// MainReport send the text report to stdout (the default), stderr, a file
// or nowhere, with the usual precedence (flag over variable over option).
func TestMainReportDestination(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "report.txt")
	for _, tc := range []struct {
		name     string
		args     []string
		env      string
		opt      func(*settings.Config)
		stdout   bool   // the report is on stdout
		stderr   bool   // the report is on stderr
		fileName string // the report is in this file under dir
	}{
		{name: "default stdout", stdout: true},
		{name: "flag stdout", args: []string{"-benchkit.report=stdout"}, stdout: true},
		{name: "flag stderr", args: []string{"-benchkit.report=stderr"}, stderr: true},
		{name: "flag off", args: []string{"-benchkit.report=off"}},
		{name: "flag empty is stdout", args: []string{"-benchkit.report="}, stdout: true},
		{name: "flag file", args: []string{"-benchkit.report=" + file}, fileName: "report.txt"},
		{name: "directory: one file per package", args: []string{"-benchkit.report=" + dir + "/"}, fileName: "example.com_fake.report.txt"},
		{name: "env stderr", env: "stderr", stderr: true},
		{name: "env off over option stderr", env: "off", opt: optReport(settings.ReportStderr)},
		{name: "option off", opt: optReport(settings.ReportOff)},
		{name: "flag stdout over env off", args: []string{"-benchkit.report=stdout"}, env: "off", stdout: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(file)
			h := newHarness(append([]string{"-test.bench=."}, tc.args...)...)
			if tc.env != "" {
				h.env["BENCHKIT_REPORT"] = tc.env
			}
			var opts []func(*settings.Config)
			if tc.opt != nil {
				opts = append(opts, tc.opt)
			}
			require.Equal(t, 0, h.run(fakeM{run: h.record}, opts...))
			const title = "benchkit │ hygiene report · 2 benchmarks"
			assert.Equal(t, tc.stdout, strings.Contains(h.stdout.String(), title), "report on stdout:\n%s", h.stdout.String())
			assert.Equal(t, tc.stderr, strings.Contains(h.stderr.String(), title), "report on stderr:\n%s", h.stderr.String())
			if !tc.stderr {
				assert.Empty(t, h.stderr.String(), "a passing run writes nothing else to stderr")
			}
			if tc.fileName != "" {
				b, err := os.ReadFile(filepath.Join(dir, tc.fileName))
				require.NoError(t, err)
				assert.True(t, strings.HasPrefix(string(b), title), "the file holds the report:\n%s", b)
				_ = os.Remove(filepath.Join(dir, tc.fileName))
			}
		})
	}
}

// TestMainReportOffStillExplainsFailure: with the report off or in a file,
// a run that fails says why on stderr, one line per failure, and where the
// report is.
func TestMainReportOffStillExplainsFailure(t *testing.T) {
	gate := func(h *harness) func() {
		return func() {
			h.record()
			h.reg.AddComparison("BenchmarkCmp", registry.Comparison{Result: verdict.Result{Baseline: "old", Gate: 5, GateFailed: true, Candidates: []verdict.Estimate{{Name: "new", DeltaPct: 9, LoPct: 8, HiPct: 10, Verdict: verdict.Slower, GateFailed: true}}}})
		}
	}
	h := newHarness("-test.bench=.", "-benchkit.report=off")
	assert.Equal(t, 1, h.run(fakeM{run: gate(h)}))
	assert.Empty(t, h.stdout.String())
	assert.Equal(t, "benchkit: Cmp: gate 5% failed: new +9.0% [+8.0%, +10.0%] slower than old beyond the gate; fix the regression or raise the gate\n",
		h.stderr.String())

	path := filepath.Join(t.TempDir(), "r.txt")
	h = newHarness("-test.bench=.", "-benchkit.report="+path)
	assert.Equal(t, 1, h.run(fakeM{run: gate(h)}))
	assert.Empty(t, h.stdout.String())
	assert.Contains(t, h.stderr.String(), "benchkit: the run failed; the report is in "+path+"\n")
	assert.Contains(t, h.stderr.String(), "benchkit: Cmp: gate 5% failed")
}

// TestMainReportFileErrors: a report file that cannot be written fails the
// run with a message naming the setting; a run without records still
// writes the file, as the JSON report is.
func TestMainReportFileErrors(t *testing.T) {
	dir := t.TempDir()
	// A missing directory is found before anything runs (exit 2).
	h := newHarness("-test.bench=.", "-benchkit.report="+filepath.Join(dir, "missing", "r.txt"))
	assert.Equal(t, 2, h.run(fakeM{run: h.record}))
	assert.Empty(t, h.events, "nothing ran")
	assert.Contains(t, h.stderr.String(), "fix the path given by -benchkit.report or BENCHKIT_REPORT (checked before the run: nothing ran)")

	// A write that fails at the end still fails the run (exit 1).
	h = newHarness("-test.bench=.", "-benchkit.report="+filepath.Join(dir, "late.txt"))
	h.deps.create = func(string) (io.WriteCloser, error) { return nil, errors.New("disk full") }
	assert.Equal(t, 1, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stderr.String(), "benchkit: cannot write the report: disk full")
	assert.Contains(t, h.stderr.String(), "fix the path given by -benchkit.report or BENCHKIT_REPORT")

	path := filepath.Join(dir, "empty.txt")
	h = newHarness("-test.bench=.", "-benchkit.report="+path)
	assert.Equal(t, 0, h.run(fakeM{}))
	b, err := os.ReadFile(path)
	require.NoError(t, err, "the requested file is written with no benchmarks too")
	assert.Contains(t, string(b), "benchkit │ hygiene report · 0 benchmarks")
}

// TestMainSamePathTwice: two outputs given one path would lose one of
// them; Main refuses before anything runs.
func TestMainSamePathTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o")
	for _, args := range [][]string{
		{"-benchkit.json=" + path, "-benchkit.samples=" + path},
		{"-benchkit.report=" + path, "-benchkit.json=" + path},
		{"-benchkit.report=" + path, "-benchkit.samples=" + path},
		{"-benchkit.html=" + path, "-benchkit.json=" + path},
		{"-benchkit.bmf=" + path, "-benchkit.gab=" + path},
		{"-benchkit.gab=" + path, "-benchkit.report=" + path},
	} {
		h := newHarness(append([]string{"-test.bench=."}, args...)...)
		assert.Equal(t, 2, h.run(fakeM{run: h.record}), "%v", args)
		assert.Empty(t, h.events, "nothing ran")
		assert.Contains(t, h.stderr.String(), "both write "+path+", and one would lose its output: give each its own path")
	}
	dir := t.TempDir() + "/"
	h := newHarness("-test.bench=.", "-benchkit.json="+dir, "-benchkit.samples="+dir, "-benchkit.html="+dir, "-benchkit.bmf="+dir, "-benchkit.gab="+dir)
	assert.Equal(t, 0, h.run(fakeM{run: h.record}), "a directory gets a file of each kind: %s", h.stderr.String())

	// One file through a symbolic link to its directory: the same file.
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	h = newHarness("-test.bench=.", "-benchkit.json="+filepath.Join(real, "o.json"), "-benchkit.samples="+filepath.Join(link, "o.json"))
	assert.Equal(t, 2, h.run(fakeM{run: h.record}), "through a link: %s", h.stderr.String())
	assert.Contains(t, h.stderr.String(), "and one would lose its output")
}

// TestAgainstOnlySettingsNeedAgainst: a gate, rounds or pairing without
// -benchkit.against would apply to nothing; Main refuses before anything
// runs, naming each and the fix.
func TestAgainstOnlySettingsNeedAgainst(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"-benchkit.gate.instructions=2", "-benchkit.gate.instructions applies to a cross-build comparison"},
		{"-benchkit.gate=5", "-benchkit.gate applies"},
		{"-benchkit.gate.allocs", "-benchkit.gate.allocs applies"},
		{"-benchkit.rounds=20", "-benchkit.rounds applies"},
		{"-benchkit.pairing=rounds", "-benchkit.pairing applies"},
	} {
		h := newHarness("-test.bench=.", tc.arg)
		assert.Equal(t, 2, h.run(fakeM{run: h.record}), tc.arg)
		assert.Empty(t, h.events, "nothing ran")
		assert.Contains(t, h.stderr.String(), tc.want)
		assert.Contains(t, h.stderr.String(), "add -benchkit.against=origin/main")
	}
	h := newHarness("-test.run=.", "-benchkit.gate=5")
	assert.Equal(t, 0, h.run(fakeM{run: h.record}), "tests only: benchkit stays out of the way")
}

// TestMainHTMLAndExports: -benchkit.html, -benchkit.bmf and -benchkit.gab
// (or their variables) write the HTML report and the two exports; a
// directory gets one file of each per package.
func TestMainHTMLAndExports(t *testing.T) {
	dir := t.TempDir()
	page, bmf, gab := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.bmf.json"), filepath.Join(dir, "r.gab.json")
	h := newHarness("-test.bench=.", "-benchkit.html="+page, "-benchkit.gab="+gab)
	h.env["BENCHKIT_BMF"] = bmf
	require.Equal(t, 0, h.run(fakeM{run: h.record}), h.stderr.String())
	b, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), "<!DOCTYPE html>"))
	assert.Contains(t, string(b), `<meta name="benchkit-package" content="example.com/fake">`)
	assert.Contains(t, string(b), `<svg class="timeline"`)
	b, err = os.ReadFile(bmf)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"BenchmarkTwo-2": {`)
	b, err = os.ReadFile(gab)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"name": "BenchmarkTwo-2 - ns/op"`)

	out := filepath.Join(dir, "out") + "/"
	require.NoError(t, os.Mkdir(out, 0o755))
	h = newHarness("-test.bench=.", "-benchkit.html="+out, "-benchkit.bmf="+out, "-benchkit.gab="+out)
	require.Equal(t, 0, h.run(fakeM{run: h.record}), h.stderr.String())
	for _, name := range []string{"example.com_fake.html", "example.com_fake.bmf.json", "example.com_fake.gab.json"} {
		_, err := os.Stat(filepath.Join(out, name))
		assert.NoError(t, err, name)
	}

	h = newHarness("-test.bench=.", "-benchkit.html="+page)
	h.deps.pkg = "example.com/other"
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stderr.String(), "benchkit: "+page+" held the output of package example.com/fake (written ")

	h = newHarness("-test.bench=.", "-benchkit.gab="+filepath.Join(dir, "late.json"))
	h.deps.create = func(string) (io.WriteCloser, error) { return nil, errors.New("disk full") }
	assert.Equal(t, 1, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stderr.String(), "benchkit: cannot write the github-action-benchmark file: disk full; fix the path given by -benchkit.gab or BENCHKIT_GAB")
}

// TestMainStrayChildMarker: a result marker left in the environment by
// something else does not make a normal run act as a fork.
func TestMainStrayChildMarker(t *testing.T) {
	file := filepath.Join(t.TempDir(), "result.json")
	t.Setenv("BENCHKIT_CHILD_RESULT", file)
	t.Setenv("BENCHKIT_CHILD_PARENT", "")
	h := newHarness("-test.bench=.")
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stdout.String(), "benchkit │ hygiene report", "the report is printed")
	assert.Contains(t, h.stderr.String(), "BENCHKIT_CHILD_RESULT="+file+" is set, but this process was not started by a benchkit parent")
	_, err := os.Stat(file)
	assert.True(t, os.IsNotExist(err), "and the marker's file is not written")
}
