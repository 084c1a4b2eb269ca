package child

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func startHelper(t *testing.T, mode string) *Live {
	t.Helper()
	return startHelperProto(t, mode, 0)
}

func startHelperProto(t *testing.T, mode string, protocol int) *Live {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no lockstep pipe on Windows")
	}
	l, err := Start(Spec{Path: os.Args[0], Args: []string{"-test.run=^TestHelperChild$", "-test.count=1"},
		Env: append(Env("BenchmarkX", filepath.Join(t.TempDir(), "r")), "BENCHKIT_TEST_CHILD="+mode), Timeout: time.Minute, Protocol: protocol})
	require.NoError(t, err)
	t.Cleanup(l.Stop)
	return l
}

// TestLockstep: the parent drives the child one step at a time; the
// child waits before its first run and after each report, and exits when
// told to.
func TestLockstep(t *testing.T) {
	l := startHelper(t, "lockstep")
	for i := 1; i <= 3; i++ {
		rep, err := l.Go(time.Minute)
		require.NoError(t, err)
		assert.Equal(t, Report{Kind: "step", Step: Step{N: 100 * i, TimedNs: int64(1000 * i), Allocs: 2, Bytes: 64, Final: i%2 == 0}}, rep)
	}
	l.Stop()
	assert.Equal(t, 0, l.Result().Code, "exit makes it end cleanly: %s", l.Result().Stderr)
}

// TestLockstepProtocol1: a parent driving a child of the first protocol
// (a base built with an older benchkit) sends a bare go and takes reports
// without a token; this package's child answers such a go in kind.
func TestLockstepProtocol1(t *testing.T) {
	l := startHelperProto(t, "lockstep", 1)
	rep, err := l.Go(time.Minute)
	require.NoError(t, err)
	assert.Equal(t, Step{N: 100, TimedNs: 1000, Allocs: 2, Bytes: 64}, rep.Step)
}

// TestLockstepFailures: a child that says garbage, dies or hangs fails
// the step with its output, and is gone afterwards.
func TestLockstepFailures(t *testing.T) {
	for _, tc := range []struct {
		mode, want string
		timeout    bool
	}{
		{"lockstep-garbage", `not a lockstep report: "BenchmarkX 1 2 ns/op"`, false},
		{"lockstep-dies", "ended without reporting its step", false},
		{"lockstep-hangs", "did not report its step within its deadline of 1s", true},
		{"lockstep-forge", "does not answer the step the parent started", false},
		{"lockstep-closefd", "closed the report pipe (descriptor 3) and did not end within its step's deadline of 1s", true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			l := startHelper(t, tc.mode)
			_, err := l.Go(time.Second)
			var ce *Error
			require.True(t, errors.As(err, &ce), "got %v", err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, tc.timeout, ce.Timeout)
			select {
			case <-l.done:
			default:
				t.Fatal("the child still runs after a failed step")
			}
		})
	}
	l := startHelper(t, "lockstep-dies")
	_, err := l.Go(time.Minute)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "about to die", "its output is in the error")
}

func TestParseReport(t *testing.T) {
	r, err := parseReport("step 10 2500 -1 -1 0", "")
	require.NoError(t, err)
	assert.Equal(t, Step{N: 10, TimedNs: 2500, Allocs: -1, Bytes: -1, GCCycles: -1, GCCPUNs: -1, HeapGoal: -1, HeapLive: -1, WaitNs: -1}, r.Step,
		"a report without the collector's fields has them unknown")
	r, err = parseReport("step 10 2500 3 64 1 2 150000 4194304 65536", "")
	require.NoError(t, err)
	assert.Equal(t, Step{N: 10, TimedNs: 2500, Allocs: 3, Bytes: 64, Final: true, GCCycles: 2, GCCPUNs: 150000, HeapGoal: 4194304, HeapLive: 65536, WaitNs: -1}, r.Step,
		"a report of a child older than the wait has it unknown")
	s := Step{N: 10, TimedNs: 2500, Allocs: 3, Bytes: 64, Final: true, GCCycles: 2, GCCPUNs: 150000, HeapGoal: 4194304, HeapLive: 65536, WaitNs: 700}
	r, err = parseReport("step "+s.fields(), "")
	require.NoError(t, err)
	assert.Equal(t, s, r.Step, "every field round-trips, the thread's wait included")
	r, err = parseReport("skip no fixture here", "")
	require.NoError(t, err)
	assert.Equal(t, Report{Kind: "skip", Reason: "no fixture here"}, r)
	for _, bad := range []string{"", "step 1 2 3", "step 0 1 1 1 1", "step 1 -5 1 1 1", "step 1 1 1 1 2", "step a b c d e", "step 1 1 1 1 1 1 1", "step 1 1 1 1 1 1 1 1 1 1 1", "go"} {
		_, err := parseReport(bad, "")
		assert.Error(t, err, "%q", bad)
	}
}

// TestParseReportToken: under protocol 2 a report must carry the token
// of the step the parent started; one without it, or with another, is
// refused whatever else it says.
func TestParseReportToken(t *testing.T) {
	const tok = "0123456789abcdef"
	r, err := parseReport("step "+tok+" 10 2500 3 64 1 0 0 4194304 512", tok)
	require.NoError(t, err)
	assert.Equal(t, Step{N: 10, TimedNs: 2500, Allocs: 3, Bytes: 64, Final: true, HeapGoal: 4194304, HeapLive: 512, WaitNs: -1}, r.Step)
	r, err = parseReport("fail "+tok+" it broke", tok)
	require.NoError(t, err)
	assert.Equal(t, Report{Kind: "fail", Reason: "it broke"}, r)
	for _, forged := range []string{"step 10 2500 3 64 1", "step ffffffffffffffff 10 2500 3 64 1", "skip nothing here", "fail " + tok[1:] + " x"} {
		_, err := parseReport(forged, tok)
		assert.ErrorContains(t, err, "does not answer the step the parent started", "%q", forged)
	}
}
