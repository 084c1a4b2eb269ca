package benchkit_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/against"
	"github.com/benchkit/go-benchkit/internal/testbin"
)

// againstNothingCompared: a gated run whose base fails in every process
// (its TestMain exits 1 in each child) compares nothing and fails, saying
// why; without a gate the same run reports it and passes.
func againstNothingCompared(t *testing.T, base, cand string) {
	for _, gated := range []bool{true, false} {
		args := []string{"-test.run=^$", "-test.bench=^BenchmarkWork$", "-test.benchtime=10ms",
			"-benchkit.against=" + base, "-benchkit.rounds=2"}
		if gated {
			args = append(args, "-benchkit.gate=5", "-benchkit.gate.allocs")
		}
		run := testbin.Run(t, cand, "", 5*time.Minute, []string{"BENCHKIT_TESTDATA_CHILD_FAIL=1"}, args...)
		out := run.Combined()
		assert.Contains(t, out, "TestMain fails in a child process", "the base's output is shown")
		assert.Contains(t, out, "no benchmark was measured in both binaries")
		if !gated {
			assert.Equal(t, 0, run.Code, "no gate, nothing to fail:\n%s", out)
			continue
		}
		assert.Equal(t, 1, run.Code, "a gate that compared nothing does not pass:\n%s", out)
		assert.Contains(t, out, "the gate compared nothing")
		assert.NotContains(t, out, "only in new", "the base failed before it could list its benchmarks")
	}
}

// againstUnstartable: a base that is a test binary of the package but
// cannot be executed here (its ELF header names a machine this kernel
// does not run: "exec format error") is refused before the tests run,
// with exit 2 and the fix.
func againstUnstartable(t *testing.T, base, cand string) {
	if runtime.GOOS != "linux" {
		t.Skip("patches an ELF header")
	}
	b, err := os.ReadFile(base)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(b, []byte("\x7fELF")))
	binary.LittleEndian.PutUint16(b[18:], 0x5aa5) // e_machine: no such machine
	bad := filepath.Join(t.TempDir(), "foreign.test")
	require.NoError(t, os.WriteFile(bad, b, 0o755))
	run := testbin.Run(t, cand, "", time.Minute, nil,
		"-test.run=^$", "-test.bench=^BenchmarkWork$", "-benchkit.against="+bad, "-benchkit.gate=5")
	assert.Equal(t, 2, run.Code, run.Combined())
	assert.Contains(t, run.Stderr, "cannot be started on this machine")
	assert.Contains(t, run.Stderr, "build the base for this platform")
	assert.NotContains(t, run.Stdout, "benchkit │", "nothing ran")
}

// againstPhantom: a line in testing's result format that TestMain
// prints after m.Run, in both builds, is not a benchmark: it is never
// compared, in rounds or in lockstep.
func againstPhantom(t *testing.T, base, cand string) {
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	run := testbin.Run(t, cand, "", 5*time.Minute, []string{"BENCHKIT_TESTDATA_PHANTOM=1"},
		"-test.run=^$", "-test.bench=^Benchmark(Same|Work)$", "-test.benchtime=10ms",
		"-benchkit.against="+base, "-benchkit.rounds=2", "-benchkit.json="+jsonPath)
	out := run.Combined()
	require.Equal(t, 0, run.Code, out)
	rep := readAgainstJSON(t, jsonPath, out)
	require.NotNil(t, rep.Against)
	var names []string
	for _, bm := range rep.Against.Benchmarks {
		names = append(names, strings.TrimSuffix(bm.Name, "-2"))
	}
	assert.Equal(t, []string{"Same", "Work"}, names, "the phantom is not compared:\n%s", out)
	assert.Empty(t, rep.Against.OnlyBase)
	assert.Empty(t, rep.Against.OnlyNew)
	assert.Empty(t, rep.Against.Failures)
}

// againstReplacedBase: the base's file replaced by another build (a
// rename over its path, as go build -o does) once the run has started:
// every process still runs the bytes that were hashed, so BenchmarkWork
// still reads as twice the work, and the report's sha256 is the
// original's.
func againstReplacedBase(t *testing.T, base, cand string) {
	if runtime.GOOS != "linux" {
		t.Skip("elsewhere a changed base stops the run (againstChangedBase)")
	}
	dir := t.TempDir()
	mine := filepath.Join(dir, "base.test")
	copyFile(t, base, mine)
	tmp := filepath.Join(dir, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o700))
	jsonPath := filepath.Join(dir, "r.json")
	cmd := exec.Command(cand, "-test.run=^$", "-test.bench=^BenchmarkWork$", "-test.benchtime=40ms",
		"-benchkit.against="+mine, "-benchkit.rounds=3", "-benchkit.json="+jsonPath)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var outBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outBuf, &outBuf
	require.NoError(t, cmd.Start())
	waitForAgainstDir(t, tmp) // the base is pinned before this directory is made
	other := filepath.Join(dir, "other.test")
	copyFile(t, cand, other)
	require.NoError(t, os.Rename(other, mine), "replace the base by the new build")
	require.NoError(t, cmd.Wait(), outBuf.String())
	rep := readAgainstJSON(t, jsonPath, outBuf.String())
	require.NotNil(t, rep.Against)
	origHash := sha256File(t, base)
	assert.Equal(t, origHash, rep.Against.Base.SHA256, "the report names the bytes that ran")
	require.Len(t, rep.Against.Benchmarks, 1, outBuf.String())
	w := rep.Against.Benchmarks[0]
	assert.Greater(t, w.Estimate.DeltaPct, 30.0, "twice the work: the base processes ran the original build, not the replacement:\n%s", outBuf.String())
}

// againstInterrupted: SIGINT to the whole process group mid-run (as
// Ctrl-C under go test sends it) ends the run non-zero, says it was
// interrupted, prints no verdict and writes no JSON report, and leaves no
// temporary directory.
func againstInterrupted(t *testing.T, base, cand string) {
	if runtime.GOOS == "windows" {
		t.Skip("no process groups and signals")
	}
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o700))
	jsonPath := filepath.Join(dir, "r.json")
	cmd := exec.Command(cand, "-test.run=^$", "-test.bench=^Benchmark(Work|Same)$", "-test.benchtime=300ms",
		"-benchkit.against="+base, "-benchkit.json="+jsonPath)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.SysProcAttr = newProcessGroup()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	waitForAgainstDir(t, tmp)
	time.Sleep(1500 * time.Millisecond) // into discovery or the first triple
	require.NoError(t, interruptGroup(cmd.Process.Pid))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("still running a minute after SIGINT:\n%s%s", stdout.String(), stderr.String())
	}
	out := stdout.String() + stderr.String()
	assert.NotEqual(t, 0, cmd.ProcessState.ExitCode(), "an interrupted run never passes:\n%s", out)
	assert.Contains(t, out, "interrupt")
	assert.NotContains(t, stdout.String(), "benchkit │ against", "no verdict from part of a run")
	assert.NoFileExists(t, jsonPath, "no report from part of a run")
	t.Logf("exit %d:\n%s", cmd.ProcessState.ExitCode(), out)
	left, err := filepath.Glob(filepath.Join(tmp, "benchkit-against-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "the run's temporary directory is removed")
}

// waitForAgainstDir waits until a -benchkit.against parent with TMPDIR
// tmp has made its temporary directory: the plan (and its pinned base)
// is settled by then.
func waitForAgainstDir(t *testing.T, tmp string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(tmp, "benchkit-against-*")); len(m) > 0 {
			return
		}
	}
	t.Fatal("the run made no temporary directory within a minute")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o755))
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// againstSpinning: a benchmark that leaves a goroutine spinning makes the
// waiting processes of each triple use the CPUs while another runs; the
// row says how much (Linux, where a process's CPU time can be read), and
// a warning names the benchmark. A benchmark that leaves nothing running
// reads far lower.
func againstSpinning(t *testing.T, base, cand string) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/<pid>/stat")
	}
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	run := testbin.Run(t, cand, "", 5*time.Minute, nil,
		"-test.run=^$", "-test.bench=^Benchmark(Spins|Sizes)$", "-test.benchtime=60ms",
		"-benchkit.against="+base, "-benchkit.rounds=2", "-benchkit.json="+jsonPath)
	out := run.Combined()
	require.Equal(t, 0, run.Code, out)
	var rep struct {
		Against struct {
			Benchmarks []struct {
				Name          string   `json:"name"`
				WaitingCPUPct *float64 `json:"waiting_cpu_pct"`
				RunWaitPct    *float64 `json:"run_wait_pct"`
			} `json:"benchmarks"`
			Warnings []string `json:"warnings"`
		} `json:"against"`
	}
	b, err := os.ReadFile(jsonPath)
	require.NoError(t, err, out)
	require.NoError(t, json.Unmarshal(b, &rep))
	pct, runWait := map[string]float64{}, map[string]float64{}
	for _, bm := range rep.Against.Benchmarks {
		require.NotNil(t, bm.WaitingCPUPct, bm.Name)
		require.NotNil(t, bm.RunWaitPct, "%s: every run's thread said how long it waited for a CPU", bm.Name)
		pct[strings.TrimSuffix(bm.Name, "-2")] = *bm.WaitingCPUPct
		runWait[strings.TrimSuffix(bm.Name, "-2")] = *bm.RunWaitPct
	}
	t.Logf("waiting CPU, %% of the runs: %v; the running thread's wait, %% of its timed time: %v", pct, runWait)
	// The spinning processes hold the CPUs the running one needs: its
	// thread waits, and that wait is taken out of its runs. How much it
	// waits is not compared with the quiet benchmarks': go test runs other
	// packages beside this one, and a round counts a wait only while the
	// benchmark's goroutine stays on one thread, which a spinner in its own
	// process makes rarer in the rounds that wait most.
	assert.Positive(t, runWait["Spins"], "the running thread waited for the spinning ones")
	// Two spinning processes use up to two CPUs while the third runs; on
	// a loaded machine they get less (43% under two busy loops), but
	// beyond the warning's threshold.
	assert.Greater(t, pct["Spins"], float64(against.IdleCPUWarnPct), "a spinning goroutine in each waiting process: %v", pct)
	assert.Contains(t, strings.Join(rep.Against.Warnings, "\n"), "Spins-2: while one process of a triple ran, the two waiting ones used the CPUs")
	// A clock tick (10 ms) is several percent of so short a run, so the
	// quiet benchmarks are held to far less than the spinning one, not
	// to the warning's threshold.
	assert.Less(t, pct["Sizes/n=64"], 50.0, "nothing left running")
	assert.Less(t, pct["Sizes/n=512"], 50.0, "nothing left running")
}
