package harness

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun runs this test binary as the child: once listing no tests, once
// with an unknown flag.
func TestRun(t *testing.T) {
	out, _, err := Run(os.Args[0], []string{"-test.run=^$"}, nil, 0)
	require.NoError(t, err)
	assert.Contains(t, string(out), "PASS")

	_, _, err = Run(os.Args[0], []string{"-test.nosuchflag"}, []string{}, time.Minute)
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, filepath.Base(os.Args[0])+" -test.nosuchflag: exit status 2 after ")
	assert.Contains(t, msg, "\nstderr:\n")
	assert.Contains(t, msg, "nosuchflag", "stderr is included")
}

func TestBuildFails(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("runs go")
	}
	_, err := Build("./no-such-package", t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "building ./no-such-package: ")
}

func TestNewWorkspaceFails(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("runs go")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // os.MkdirTemp's parent on Unix
	ws, err := NewWorkspace("harness-test", "./no-such-package")
	require.Error(t, err)
	assert.Nil(t, ws)
	assert.Contains(t, err.Error(), "building ./no-such-package: ")
	left, err := filepath.Glob(filepath.Join(tmp, "harness-test*"))
	require.NoError(t, err)
	assert.Empty(t, left, "the directory is removed")
}

// TestRunAgainstTempDir checks that the -benchkit.against parent RunAgainst
// starts (here a script that records its TMPDIR) makes its temporary files
// inside the run's directory, which goes with it when it is killed.
func TestRunAgainstTempDir(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("runs a shell script")
	}
	dir, bin := t.TempDir(), t.TempDir()
	seen := filepath.Join(bin, "seen")
	script := filepath.Join(bin, "cand.test")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\necho \"$TMPDIR\" > \""+seen+"\"\n"), 0o755))
	_, _, err := RunAgainst(script, "base.test", dir, nil, nil, time.Minute)
	require.Error(t, err, "the script writes no report")
	got, err := os.ReadFile(seen)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "tmp"), strings.TrimSpace(string(got)))
}
