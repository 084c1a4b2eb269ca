package env

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoFlagsAtImport builds and runs testdata/noflags, a plain program
// that imports this package, and checks that no command-line flag was
// registered: importing testing (for testing.CoverMode) must not register
// the test.* flags, which happens only in testing.Init.
func TestNoFlagsAtImport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program; skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(goTool, "run", "./testdata/noflags").CombinedOutput()
	require.NoError(t, err, "go run ./testdata/noflags:\n%s", out)
	assert.Contains(t, string(out), "\n0 flags registered\n", "flags were registered at import")
	assert.True(t, strings.HasPrefix(string(out), "go "), "the program did not print the facts first:\n%s", out)
}
