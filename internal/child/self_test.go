package child

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSelf: on Linux a child runs /proc/self/exe, the running file;
// elsewhere the path, refused once the file changed under it.
func TestSelf(t *testing.T) {
	if runtime.GOOS == "linux" {
		p, err := Self()
		require.NoError(t, err)
		assert.Equal(t, "/proc/self/exe", p)
	}
	bin := filepath.Join(t.TempDir(), "x.test")
	require.NoError(t, os.WriteFile(bin, []byte("build 1"), 0o755))
	id, err := identityOf(bin)
	require.NoError(t, err)
	p, err := self("darwin", bin, id, nil)
	require.NoError(t, err)
	assert.Equal(t, bin, p, "unchanged: the path itself")

	require.NoError(t, os.WriteFile(bin, []byte("build 2, rebuilt"), 0o755))
	_, err = self("darwin", bin, id, nil)
	assert.ErrorContains(t, err, "changed on disk while it ran")
	assert.ErrorContains(t, err, "a child would run the other build")

	require.NoError(t, os.Remove(bin))
	_, err = self("windows", bin, id, nil)
	assert.ErrorContains(t, err, "is gone")
}

// TestStrayMarker: a result marker without this process's parent is not
// a child, and Stray says why.
func TestStrayMarker(t *testing.T) {
	t.Setenv(EnvResult, "/tmp/somewhere.json")
	t.Setenv(EnvParent, "")
	assert.False(t, Is())
	assert.Contains(t, Stray(), "was not started by a benchkit parent")
	t.Setenv(EnvParent, strconv.Itoa(os.Getppid()+1))
	assert.False(t, Is())
	t.Setenv(EnvParent, strconv.Itoa(os.Getppid()))
	assert.True(t, Is())
	assert.Empty(t, Stray())
	_, _, ok := Target()
	assert.True(t, ok)
}

// TestTempDirFallback: an unusable TMPDIR falls back to the system's
// temporary directory (Unix); the directory is removed by its remove.
func TestTempDirFallback(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("os.TempDir's fallbacks are Windows' own")
	}
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	dir, remove, err := TempDir("benchkit-test-")
	require.NoError(t, err)
	assert.Equal(t, "/tmp", filepath.Dir(dir))
	remove()
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "removed")
	assert.Empty(t, cleanup.dirs, "released")
}

// waitGone polls until path no longer exists, for at most a minute (a
// deadline only so that a broken cleanup cannot hang the test).
func waitGone(path string) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			return true
		}
	}
	return false
}

// TestSignalCleanup: a parent interrupted while it holds a temporary
// directory removes it and still ends by the signal.
func TestSignalCleanup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to send on Windows")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), append(Env("BenchmarkX", filepath.Join(t.TempDir(), "r")), "BENCHKIT_TEST_CHILD=tempdir")...)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	dir := strings.TrimSpace(line)
	_, err = os.Stat(dir)
	require.NoError(t, err, "the child made its directory")
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	ws, ok := ee.Sys().(syscall.WaitStatus)
	require.True(t, ok)
	assert.True(t, ws.Signaled() && ws.Signal() == syscall.SIGTERM, "ended by SIGTERM, as without the cleanup: %v", err)
	assert.True(t, waitGone(dir), "the directory %s was removed", dir)
}
