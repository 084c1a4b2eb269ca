package harness

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartBusy: the loops run until stop ends them, by pid.
func TestStartBusy(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil || runtime.GOOS != "linux" {
		t.Skip("the busy loops are checked on Linux with sh, through /proc")
	}
	pids, stop, err := StartBusy(2, time.Minute)
	require.NoError(t, err)
	require.Len(t, pids, 2)
	for _, pid := range pids {
		assert.DirExists(t, "/proc/"+strconv.Itoa(pid), "running")
	}
	stop()
	for _, pid := range pids {
		_, err := os.Stat("/proc/" + strconv.Itoa(pid))
		assert.True(t, os.IsNotExist(err), "pid %d ended and reaped", pid)
	}
	stop() // a second call does nothing
}
