package child

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunGroupDeadline: a tool's deadline kills the processes it started
// too, not only the tool: nothing it started outlives Run.
func TestRunGroupDeadline(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := "sleep 60 & echo $! > " + pidFile + "; wait"
	res, err := Run(Spec{Path: sh, Args: []string{"-c", script}, Timeout: 500 * time.Millisecond, Group: true})
	var ce *Error
	require.ErrorAs(t, err, &ce, "%s", res.Stderr)
	assert.True(t, ce.Timeout)
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	assert.Eventually(t, func() bool { return !running(pid) }, 10*time.Second, 20*time.Millisecond, "the tool's child %d was killed with it", pid)
}

// running reports whether process pid exists and is not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
