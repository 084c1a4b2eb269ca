package child

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBenchFilter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		want   string
		others []string // sibling names at the last level that must not match
	}{
		{"BenchmarkX", "^BenchmarkX$", []string{"BenchmarkXY", "BenchmarkX2"}},
		{"BenchmarkX/a=1", "^BenchmarkX$/^a=1$", []string{"a=10", "ba=1"}},
		{"BenchmarkX/case#01", "^BenchmarkX$/^case#01$", []string{"case", "case#02"}},
		{"BenchmarkX/a.b*c+(d)", `^BenchmarkX$/^a\.b\*c\+\(d\)$`, []string{"aXbbbc+d", "a.b*c+d"}},
		{"BenchmarkX/x|y", `^BenchmarkX$/^x\|y$`, []string{"x", "y"}},
		{"BenchmarkX/[k]_v", `^BenchmarkX$/^\[k\]_v$`, []string{"k_v"}},
		{"BenchmarkX/deep/er/est", "^BenchmarkX$/^deep$/^er$/^est$", []string{"es", "estt"}},
	} {
		got := BenchFilter(tc.name)
		assert.Equal(t, tc.want, got, tc.name)
		elems := strings.Split(tc.name, "/")
		pats := SplitPattern(got)
		require.Len(t, pats, len(elems), "testing splits %q into one pattern per level", got)
		for i, p := range pats {
			re := regexp.MustCompile(p)
			assert.True(t, re.MatchString(elems[i]), "%s matches %s", p, elems[i])
		}
		last := regexp.MustCompile(pats[len(pats)-1])
		for _, o := range tc.others {
			assert.False(t, last.MatchString(o), "%s must not match sibling %q", pats[len(pats)-1], o)
		}
	}
}

func TestArgs(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	for _, n := range []string{"test.run", "test.bench", "test.count", "test.benchtime", "test.cpu", "test.v",
		"test.benchmem", "test.short", "test.cpuprofile", "test.timeout", "benchkit.forks", "test.gocoverdir", "test.testlogfile", "test.paniconexit0",
		"test.artifacts", "test.outputdir"} {
		fs.String(n, "", "")
	}
	require.NoError(t, fs.Parse([]string{"-test.run=X", "-test.bench=.", "-test.count=3", "-test.benchtime=2s",
		"-test.cpu=1,2", "-test.v=test2json", "-test.benchmem=true", "-test.short=true", "-test.timeout=10m",
		"-benchkit.forks=5", "-test.gocoverdir=/tmp/cov", "-test.testlogfile=/tmp/log", "-test.paniconexit0=true",
		"-test.artifacts=true", "-test.outputdir=/tmp/out"}))
	assert.Equal(t, "", FileFlag(fs))
	got := Args(fs, "BenchmarkA/b=1", "400ms", 2)
	assert.Equal(t, []string{
		"-test.run=^$", "-test.bench=^BenchmarkA$/^b=1$", "-test.count=1", "-test.benchtime=400ms", "-test.cpu=2",
		"-benchkit.forks=5", "-test.benchmem=true", "-test.gocoverdir=/tmp/cov", "-test.short=true",
	}, got)
	require.NoError(t, fs.Set("test.cpuprofile", "cpu.out"))
	assert.Equal(t, "test.cpuprofile", FileFlag(fs))
}

func TestRunArgs(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	for _, n := range []string{"test.run", "test.bench", "test.count", "test.benchtime", "test.cpu", "test.v", "test.skip",
		"test.benchmem", "test.short", "test.timeout", "benchkit.against", "test.gocoverdir", "test.testlogfile", "test.paniconexit0",
		"test.artifacts", "test.outputdir"} {
		fs.String(n, "", "")
	}
	require.NoError(t, fs.Parse([]string{"-test.run=X", "-test.bench=Sum", "-test.benchtime=2s",
		"-test.cpu=1,2", "-test.v=test2json", "-test.short=true", "-test.timeout=10m",
		"-benchkit.against=base.test", "-test.gocoverdir=/tmp/cov", "-test.testlogfile=/tmp/log", "-test.paniconexit0=true",
		"-test.artifacts=true", "-test.outputdir=/tmp/out"}))
	assert.Equal(t, []string{
		"-test.run=^$", "-test.bench=Sum", "-test.count=1", "-test.benchtime=667ms", "-test.benchmem=true", "-test.v=true",
		"-test.cpu=1,2", "-test.gocoverdir=/tmp/cov", "-test.short=true",
	}, RunArgs(fs, "Sum", "667ms", ""), "benchkit's flags stay out: the other build may not define them")
	got := RunArgs(fs, "Sum", "1x", "^(BenchmarkB)$")
	assert.Equal(t, "-test.skip=^(BenchmarkB)$", got[6])
}

// The tests below run this test binary again as the child, selecting
// TestHelperChild, which does what BENCHKIT_TEST_CHILD says.
func TestHelperChild(t *testing.T) {
	mode := os.Getenv("BENCHKIT_TEST_CHILD")
	if mode == "" {
		t.Skip("helper process for the child tests")
	}
	switch mode {
	case "ok":
		fmt.Println("measured")
		if err := WriteResult(map[string]int{"rounds": 7}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "fail":
		fmt.Fprintln(os.Stderr, "the benchmark failed: broken input")
		os.Exit(1)
	case "panic":
		panic("boom in the child")
	case "hang":
		time.Sleep(time.Hour)
	case "watch":
		Watch()
		fmt.Println("watching")
		time.Sleep(time.Hour)
	case "lockstep":
		l := Lockstep()
		if l == nil {
			fmt.Fprintln(os.Stderr, "not a lockstep child")
			os.Exit(1)
		}
		l.Begin()
		for i := 1; ; i++ {
			l.Step(Step{N: 100 * i, TimedNs: int64(1000 * i), Allocs: 2, Bytes: 64, Final: i%2 == 0})
		}
	case "lockstep-garbage":
		Lockstep().Begin()
		fmt.Fprintln(os.NewFile(3, "r"), "BenchmarkX 1 2 ns/op")
		time.Sleep(time.Hour)
	case "lockstep-dies":
		Lockstep().Begin()
		fmt.Println("about to die")
		os.Exit(7)
	case "lockstep-hangs":
		Lockstep().Begin()
		time.Sleep(time.Hour)
	case "lockstep-forge":
		// A benchmark that writes a well-formed report of its own on the
		// protocol's descriptor: it cannot know the step's token.
		Lockstep().Begin()
		fmt.Fprintln(os.NewFile(3, "r"), "step 1 5 0 0 1")
		time.Sleep(time.Hour)
	case "lockstep-closefd":
		// A benchmark that closes descriptor 3 and opens a file that
		// takes its number: the parent's pipe reaches end of file while
		// the process lives on.
		Lockstep().Begin()
		_ = os.NewFile(3, "r").Close()
		f, err := os.Open(os.Args[0])
		fmt.Println("reopened as", f.Fd(), err)
		time.Sleep(time.Hour)
	case "rand":
		// The 16 bytes at AT_RANDOM after the runtime seeded itself from
		// them (it overwrites them with the first output of the state it
		// seeded: a function of the bytes alone).
		fmt.Println(auxRandomNow())
		os.Exit(0)
	case "tempdir":
		dir, _, err := TempDir("benchkit-signal-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(dir)
		time.Sleep(time.Hour)
	}
}

func helper(t *testing.T, mode string, timeout time.Duration) (r Result, file string, err error) {
	t.Helper()
	file = filepath.Join(t.TempDir(), "result.json")
	r, err = Run(Spec{
		Path:    os.Args[0],
		Args:    []string{"-test.run=^TestHelperChild$", "-test.count=1"},
		Env:     append(Env("BenchmarkX", file), "BENCHKIT_TEST_CHILD="+mode),
		Timeout: timeout,
	})
	return r, file, err
}

func TestRunOK(t *testing.T) {
	r, file, err := helper(t, "ok", time.Minute)
	require.NoError(t, err, "%s", Tail(r, 20))
	assert.Equal(t, 0, r.Code)
	assert.Contains(t, string(r.Stdout), "measured")
	var got map[string]int
	require.NoError(t, ReadResult(file, &got))
	assert.Equal(t, 7, got["rounds"])
}

func TestRunFailures(t *testing.T) {
	for _, tc := range []struct {
		mode, want string
		timeout    bool
	}{
		{"fail", "the benchmark failed: broken input", false},
		{"panic", "boom in the child", false},
		{"hang", "did not finish within its deadline", true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			timeout := time.Minute
			if tc.timeout {
				timeout = 2 * time.Second
			}
			r, file, err := helper(t, tc.mode, timeout)
			var ce *Error
			require.True(t, errors.As(err, &ce), "got %v", err)
			assert.Equal(t, tc.timeout, ce.Timeout)
			assert.NotEqual(t, 0, r.Code)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "child process "+os.Args[0])
			err = ReadResult(file, new(map[string]int))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "the child wrote no result")
		})
	}
}

func TestRunBadSpec(t *testing.T) {
	_, err := Run(Spec{Path: os.Args[0], Timeout: 0})
	assert.ErrorContains(t, err, "the timeout must be positive")
	_, err = Run(Spec{Path: filepath.Join(t.TempDir(), "missing.test"), Timeout: time.Second})
	assert.ErrorContains(t, err, "cannot start")
}

// TestWatch closes the child's stdin and expects it to exit with status 3
// on its own; the deadline only keeps a broken Watch from hanging the test.
func TestWatch(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), append(Env("BenchmarkX", filepath.Join(t.TempDir(), "r")), "BENCHKIT_TEST_CHILD=watch")...)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	buf := make([]byte, len("watching"))
	_, err = out.Read(buf)
	require.NoError(t, err)
	require.NoError(t, stdin.Close())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("the child did not exit after its stdin closed")
	}
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "got %v", err)
	assert.Equal(t, 3, ee.ExitCode())
}

func TestOutsideChild(t *testing.T) {
	t.Setenv(EnvResult, "")
	assert.False(t, Is())
	_, _, ok := Target()
	assert.False(t, ok)
	assert.ErrorContains(t, WriteResult(1), "outside a child")
	Watch() // a no-op outside a child
}

func TestTail(t *testing.T) {
	var lines []string
	for i := range 50 {
		lines = append(lines, fmt.Sprint("line ", i))
	}
	got := Tail(Result{Stdout: []byte(strings.Join(lines, "\n")), Stderr: []byte("err\n")}, 5)
	assert.Equal(t, "line 0\nline 1\n… (45 lines left out)\nline 47\nline 48\nline 49\nerr\n", got)
	assert.Equal(t, "(nothing)\n", Tail(Result{}, 5))
	assert.Equal(t, 2*time.Minute+10*time.Second, Deadline(time.Second))
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 4}
	_, _ = b.Write([]byte("abcdef"))
	_, _ = b.Write([]byte("gh"))
	assert.Equal(t, "efgh", string(b.Bytes()))
}

// TestSelects: names the -bench and -skip patterns select, level by level,
// as testing matches them.
func TestSelects(t *testing.T) {
	for _, tc := range []struct {
		bench, skip, name string
		want              bool
	}{
		{".", "", "BenchmarkSum", true},
		{"Sum", "", "BenchmarkSum/n=10", true},
		{"Sum", "", "BenchmarkOther", false},
		{"Sum/n=1$", "", "BenchmarkSum/n=10", false},
		{"Sum/n=1$", "", "BenchmarkSum/n=1", true},
		{"Sum/n=1$", "", "BenchmarkSum", true},
		{"^Benchmark(Work|Alloc)$", "", "BenchmarkAlloc", true},
		{"^Benchmark(Work|Alloc)$", "", "BenchmarkAllocs", false},
		{".", "^BenchmarkB$", "BenchmarkB", false},
		{".", "^BenchmarkB$", "BenchmarkB/x", false},
		{".", "Sum/n=1$", "BenchmarkSum", true},
		{".", "Sum/n=1$", "BenchmarkSum/n=1", false},
	} {
		assert.Equal(t, tc.want, Selects(tc.bench, tc.skip, tc.name), "bench %q skip %q name %q", tc.bench, tc.skip, tc.name)
	}
}

// TestAuxRandom: children started with the same AT_RANDOM bytes seed
// the runtime alike (what the runtime leaves at AT_RANDOM, the first
// output of the state it seeded, is the same); other bytes give others.
// Where the bytes cannot be set, a Spec that asks for them is refused.
// (Which draws of that state each map gets depends on scheduling, so
// maps built later need not match.)
func TestAuxRandom(t *testing.T) {
	run := func(b *[16]byte) (string, error) {
		r, err := Run(Spec{Path: os.Args[0], Args: []string{"-test.run=^TestHelperChild$", "-test.count=1"},
			Env: append(Env("BenchmarkX", filepath.Join(t.TempDir(), "r")), "BENCHKIT_TEST_CHILD=rand"), Timeout: time.Minute, AuxRandom: b})
		return string(r.Stdout), err
	}
	one, other := &[16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, &[16]byte{16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	if !AuxRandom() {
		_, err := run(one)
		assert.ErrorContains(t, err, "cannot set a child's AT_RANDOM bytes")
		return
	}
	a, err := run(one)
	if err != nil && strings.Contains(err.Error(), "operation not permitted") {
		t.Skipf("ptrace is not permitted here: %v", err)
	}
	require.NoError(t, err)
	b, err := run(one)
	require.NoError(t, err)
	c, err := run(other)
	require.NoError(t, err)
	d, err := run(nil)
	require.NoError(t, err)
	require.Regexp(t, `^[0-9a-f]{32}\n$`, a, "the child read its AT_RANDOM bytes")
	assert.Equal(t, a, b, "the same bytes: the same seeds")
	assert.NotEqual(t, a, c, "other bytes: other seeds")
	assert.NotEqual(t, a, d, "the kernel's bytes")
}
