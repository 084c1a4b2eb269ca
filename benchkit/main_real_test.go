package benchkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/internal/testbin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// mainBinaryOf builds benchkit/testdata/<pkg> once, with go test -c, for
// the subtests to run; dir is unused (testbin builds into t's temp dir)
// and kept so the call sites read the same.
func mainBinaryOf(t *testing.T, _ string, pkg string) string {
	t.Helper()
	return testbin.Build(t, "./testdata/"+pkg)
}

type mainRealRun struct {
	stdout, stderr string
	code           int
}

func mainExec(t *testing.T, bin string, env []string, args ...string) mainRealRun {
	t.Helper()
	r := testbin.Run(t, bin, t.TempDir(), 5*time.Minute, env, args...)
	return mainRealRun{stdout: r.Stdout, stderr: r.Stderr, code: r.Code}
}

// mainParse reads a whole go test output with benchfmt.Reader and returns
// the result names in order, the union of configuration keys, and each
// name's ns/op values.
func mainParse(t *testing.T, out string) (names []string, keys map[string]bool, ns map[string][]float64) {
	t.Helper()
	keys, ns = map[string]bool{}, map[string][]float64{}
	r := benchfmt.NewReader(strings.NewReader(out), "stdout")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			name := rec.Name.String()
			names = append(names, name)
			for _, c := range rec.Config {
				keys[c.Key] = true
			}
			v, ok := rec.Value("sec/op")
			require.True(t, ok, "%s has ns/op", name)
			ns[name] = append(ns[name], v*1e9)
		case *benchfmt.SyntaxError:
			assert.Fail(t, "syntax error in the output", "%v", rec)
		case *benchfmt.UnitMetadata:
			assert.Fail(t, "unit metadata in the output", "%v", rec)
		}
	}
	require.NoError(t, r.Err())
	return names, keys, ns
}

// TestMainRealCompare runs a package with control.Compare under Main: the
// comparison reaches the report and the output still parses clean.
func TestMainRealCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	bin := mainBinaryOf(t, t.TempDir(), "maincompare")
	r := mainExec(t, bin, nil, "-test.run=^$", "-test.bench=.", "-test.benchtime=1x", "-test.count=2",
		"-test.cpu=2", "-benchkit.warmup=off")
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	names, keys, _ := mainParse(t, r.stdout)
	assert.Equal(t, []string{"Compare-2", "Compare-2", "Tracked-2", "Tracked-2"}, names)
	for k := range keys {
		assert.Contains(t, []string{"goos", "goarch", "pkg", "cpu"}, k, "stray configuration key")
	}
	assert.Regexp(t, `(?m)^benchkit │   Tracked-2 +2 runs `, r.stdout)
	assert.Regexp(t, `(?m)^benchkit │   Compare(-\d+)? \(1 of 2\): baseline old at \S+/op, 1 round`, r.stdout)
	assert.Regexp(t, `(?m)^benchkit │   Compare(-\d+)? \(2 of 2\): baseline old`, r.stdout)
	assert.Regexp(t, `(?m)^benchkit │     control \(old again\) +\S+/op +[-+]\d`, r.stdout)
	assert.Regexp(t, `(?m)^benchkit │     new +\S+/op +[-+]\d+\.\d\d% +no interval`, r.stdout, "one round has no interval, never a point")
}

// TestMainRealRuns runs a real test binary whose TestMain is Main.
func TestMainRealRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	bin := mainBinaryOf(t, t.TempDir(), "mainreport")
	bench := []string{"-test.run=^$", "-test.bench=.", "-test.benchtime=1x", "-test.count=3", "-test.cpu=2",
		"-benchkit.warmup=off"}

	t.Run("tests only: nothing added", func(t *testing.T) {
		r := mainExec(t, bin, nil, "-test.run=.", "-test.v")
		assert.Equal(t, 0, r.code, r.stdout+r.stderr)
		assert.Contains(t, r.stdout, "--- PASS: TestPasses")
		assert.NotContains(t, r.stdout, "benchkit")
		assert.Empty(t, r.stderr)
	})

	t.Run("benchmarks: report parses clean", func(t *testing.T) {
		r := mainExec(t, bin, nil, append(bench[:len(bench)-1], "-benchkit.warmup=50ms")...)
		require.Equal(t, 0, r.code, r.stdout+r.stderr)
		names, keys, _ := mainParse(t, r.stdout)
		var want []string
		for _, n := range []string{"Tracked-2", "Looped-2", "Plain-2", "Gate-2"} {
			want = append(want, n, n, n)
		}
		assert.Equal(t, want, names, "exactly the benchmark results")
		for k := range keys {
			assert.Contains(t, []string{"goos", "goarch", "pkg", "cpu"}, k, "stray configuration key")
		}
		assert.True(t, keys["goos"] && keys["pkg"])

		i := strings.Index(r.stdout, "\nPASS\n")
		require.Positive(t, i)
		report := r.stdout[i+len("\nPASS\n"):]
		for _, l := range strings.Split(strings.TrimSuffix(report, "\n"), "\n") {
			assert.True(t, strings.HasPrefix(l, "benchkit │"), "after PASS, only report lines: %q", l)
		}
		assert.True(t, strings.HasPrefix(report, "benchkit │ github.com/benchkit/go-benchkit/benchkit/testdata/mainreport · go"), "the header line first:\n%s", report)
		assert.Regexp(t, `(?m)^benchkit │   Tracked-2 +3 runs +\S+s `, report)
		assert.Regexp(t, `(?m)^benchkit │   Looped-2 +3 runs `, report)
		assert.NotContains(t, report, "Plain", "untracked benchmarks are not in the report")
		assert.NotContains(t, report, "▁", "the strip plots are in the full report")
	})

	t.Run("-benchkit.report=full: the environment, the warm-up, the strip plots", func(t *testing.T) {
		r := mainExec(t, bin, nil, append(bench[:len(bench)-1], "-benchkit.warmup=50ms", "-benchkit.report=full")...)
		require.Equal(t, 0, r.code, r.stdout+r.stderr)
		names, _, _ := mainParse(t, r.stdout)
		assert.Len(t, names, 12, "the output still parses")
		assert.Contains(t, r.stdout, "benchkit │ hygiene report · 2 benchmarks · 6 runs · github.com/benchkit/go-benchkit/benchkit/testdata/mainreport\n")
		assert.Regexp(t, `(?m)^benchkit │   warm-up \S+, \d+ batch`, r.stdout)
		assert.Regexp(t, `(?m)^benchkit │   Tracked-2 +runs +[▁▂▃▄▅▆▇█]{3} +\S+ … \S+$`, r.stdout)
	})

	t.Run("m's exit code", func(t *testing.T) {
		r := mainExec(t, bin, []string{"MAINREPORT_FAIL_TEST=1"}, "-test.run=.", "-test.bench=.",
			"-test.benchtime=1x", "-benchkit.warmup=off")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stdout, "deliberate failure")
		assert.NotContains(t, r.stdout, "benchkit │", "testing runs no benchmark after a failed test: no report")

		r = mainExec(t, bin, []string{"MAINREPORT_FAIL_BENCH=1"}, bench...)
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stdout, "--- FAIL: BenchmarkGate")
		assert.Regexp(t, `(?m)^benchkit │   Looped-2 +3 runs `, r.stdout, "the report")
	})

	t.Run("a failed gate fails a passing run", func(t *testing.T) {
		r := mainExec(t, bin, []string{"MAINREPORT_GATE=1"}, bench...)
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stdout, "\nPASS\n", "m passed")
		assert.Contains(t, r.stdout, "benchkit │       gate 5%: FAILED")
		assert.Contains(t, r.stdout, "benchkit │   ✗ benchkit: Gate: gate 5% failed: new +10.0%")
		names, _, _ := mainParse(t, r.stdout)
		assert.Len(t, names, 12)
	})

	t.Run("strict fails on flags", func(t *testing.T) {
		r := mainExec(t, bin, []string{"MAINREPORT_FLAG=1"}, bench...)
		assert.Equal(t, 0, r.code, "a flag alone warns")
		assert.Contains(t, r.stdout, "Tracked-2: misuse (in 3 runs): deliberate flag (MAINREPORT_FLAG=1)")
		r = mainExec(t, bin, []string{"MAINREPORT_FLAG=1", "BENCHKIT_STRICT=1"}, bench...)
		assert.Equal(t, 1, r.code, "BENCHKIT_STRICT=1")
		r = mainExec(t, bin, []string{"MAINREPORT_FLAG=1"}, append(bench, "-benchkit.strict")...)
		assert.Equal(t, 1, r.code, "-benchkit.strict")
		assert.Contains(t, r.stdout, "✗ benchkit: Tracked-2 raised misuse")
	})

	t.Run("files", func(t *testing.T) {
		dir := t.TempDir()
		js, samples := filepath.Join(dir, "report.json"), filepath.Join(dir, "samples.txt")
		r := mainExec(t, bin, []string{"BENCHKIT_SAMPLES=" + samples}, append(bench, "-benchkit.json="+js)...)
		require.Equal(t, 0, r.code, r.stdout+r.stderr)
		_, _, printed := mainParse(t, r.stdout)

		b, err := os.ReadFile(samples)
		require.NoError(t, err)
		names, keys, written := mainParse(t, string(b))
		assert.Len(t, names, 6, "one line per tracked run")
		assert.True(t, keys["benchkit"] && keys["samples"] && keys["goos"])
		for _, n := range []string{"Tracked-2", "Looped-2"} {
			require.Len(t, written[n], 3, n)
			for i := range written[n] {
				assert.InEpsilon(t, printed[n][i], written[n][i], 0.001, "%s run %d: the samples file has go test's ns/op", n, i)
			}
		}

		j, err := os.ReadFile(js)
		require.NoError(t, err)
		var rep struct {
			Schema     string
			Benchmarks []struct {
				Display string
				Runs    []struct {
					NsPerOp float64 `json:"ns_per_op"`
				}
			}
		}
		require.NoError(t, json.Unmarshal(j, &rep))
		assert.Equal(t, "benchkit-report/v1", rep.Schema)
		require.Len(t, rep.Benchmarks, 2)
		assert.Equal(t, "Tracked-2", rep.Benchmarks[0].Display)
		assert.Len(t, rep.Benchmarks[0].Runs, 3)
	})
}

// TestMainRealLateFailure: under -count=2 a benchmark that fails only in
// its second repeat leaves go test's own exit status at 0 (testing passes
// a later repeat's failure to no parent); Main exits 1 and says why.
func TestMainRealLateFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	bin := mainBinaryOf(t, t.TempDir(), "latefail")
	r := mainExec(t, bin, nil, "-test.run=^$", "-test.bench=.", "-test.count=2", "-test.benchtime=100ms",
		"-benchkit.warmup=off")
	assert.Contains(t, r.stdout, "--- FAIL: BenchmarkLateStop", "the second repeat failed")
	assert.Contains(t, r.stdout, "the timer is stopped")
	assert.Equal(t, 1, r.code, r.stdout+r.stderr)
	assert.Regexp(t, `(?m)^benchkit │   ✗ benchkit: LateStop\S*: timer-stopped failed the benchmark`, r.stdout)
}

// TestMainRealFlagParseFirst: a TestMain that calls flag.Parse before Main
// accepts -benchkit.* flags after benchkit.RegisterFlags; the
// environment variables work without it.
func TestMainRealFlagParseFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	bin := mainBinaryOf(t, t.TempDir(), "parsefirst")
	args := []string{"-test.run=^$", "-test.bench=.", "-test.benchtime=1x", "-benchkit.warmup=off"}

	js := filepath.Join(t.TempDir(), "r.json")
	r := mainExec(t, bin, nil, append(args, "-benchkit.json="+js)...)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.FileExists(t, js, "the flag given after RegisterFlags and flag.Parse took effect")
	assert.Regexp(t, `(?m)^benchkit │   Sum-2 +1 run `, r.stdout)

	js2 := filepath.Join(t.TempDir(), "r2.json")
	r = mainExec(t, bin, []string{"PARSEFIRST_PLAIN=1", "BENCHKIT_JSON=" + js2}, args[:3]...)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.FileExists(t, js2, "the environment variable works without RegisterFlags")

	r = mainExec(t, bin, []string{"PARSEFIRST_PLAIN=1"}, append(args, "-benchkit.json="+js)...)
	assert.Equal(t, 2, r.code, "flag.Parse without RegisterFlags rejects the flag (go's flag package)")
	assert.Contains(t, r.stderr, "flag provided but not defined: -benchkit.warmup")
}
