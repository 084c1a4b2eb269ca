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
	if runtime.GOOS == "windows" {
		t.Skip("no lockstep pipe on Windows")
	}
	l, err := Start(Spec{Path: os.Args[0], Args: []string{"-test.run=^TestHelperChild$", "-test.count=1"},
		Env: append(Env("BenchmarkX", filepath.Join(t.TempDir(), "r")), "BENCHKIT_TEST_CHILD="+mode), Timeout: time.Minute})
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
	r, err := parseReport("step 10 2500 -1 -1 0")
	require.NoError(t, err)
	assert.Equal(t, Step{N: 10, TimedNs: 2500, Allocs: -1, Bytes: -1}, r.Step)
	r, err = parseReport("skip no fixture here")
	require.NoError(t, err)
	assert.Equal(t, Report{Kind: "skip", Reason: "no fixture here"}, r)
	for _, bad := range []string{"", "step 1 2 3", "step 0 1 1 1 1", "step 1 -5 1 1 1", "step 1 1 1 1 2", "step a b c d e", "go"} {
		_, err := parseReport(bad)
		assert.Error(t, err, "%q", bad)
	}
}
