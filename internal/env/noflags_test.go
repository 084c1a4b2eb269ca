package env

import (
	"os/exec"
	"strings"
	"testing"
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
	if err != nil {
		t.Fatalf("go run ./testdata/noflags: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "\n0 flags registered\n") {
		t.Errorf("flags were registered at import:\n%s", out)
	}
	if !strings.HasPrefix(string(out), "go ") {
		t.Errorf("the program did not print the facts first:\n%s", out)
	}
}
