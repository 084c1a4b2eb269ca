package against

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPin: a pinned binary is hashed from the bytes processes will run.
// On Linux a file renamed over its path (a rebuild) changes nothing:
// the path executed is the open file, whose bytes are the original's;
// a write into the file itself, or, elsewhere, any change to the path's
// size or time, is refused with the reason.
func TestPin(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "base.test")
	self, err := os.ReadFile(os.Args[0]) // a Go binary with build information
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, self, 0o755))
	p, err := pin(path)
	require.NoError(t, err)
	defer p.close()
	assert.Len(t, p.SHA256, 64)
	assert.Equal(t, path, p.Path)
	exec, err := p.path()
	require.NoError(t, err)

	if runtime.GOOS == "linux" {
		assert.Regexp(t, `^/proc/\d+/fd/\d+$`, exec)
		other := filepath.Join(dir, "other")
		require.NoError(t, os.WriteFile(other, []byte("another build"), 0o755))
		require.NoError(t, os.Rename(other, path))
		again, err := p.path()
		require.NoError(t, err, "a file renamed over the path is not the pinned file")
		assert.Equal(t, exec, again)
		b, err := os.ReadFile(again)
		require.NoError(t, err)
		assert.Equal(t, self, b, "the open file still holds the hashed bytes")

		f, err := os.OpenFile(again, os.O_WRONLY|os.O_APPEND, 0)
		require.NoError(t, err)
		_, err = f.Write([]byte("written in place"))
		require.NoError(t, err)
		require.NoError(t, f.Close())
		_, err = p.path()
		assert.ErrorContains(t, err, "changed on disk during the run")
		return
	}
	assert.Equal(t, path, exec)
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(path, later, later))
	_, err = p.path()
	assert.ErrorContains(t, err, "changed on disk during the run")
	require.NoError(t, os.Remove(path))
	_, err = p.path()
	assert.ErrorContains(t, err, "is gone")
}
