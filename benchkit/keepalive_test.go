package benchkit_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asmFunctions compiles ./testdata/<pkg> for amd64 with -gcflags=-S and
// returns each function's listing by symbol name.
func asmFunctions(t *testing.T, pkg string) map[string]string {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles a package")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	cmd := exec.Command(goBin, "build", "-o", os.DevNull, "-gcflags=-S", "./testdata/"+pkg)
	cmd.Env = append(os.Environ(), "GOARCH=amd64", "GOOS=linux", "GOAMD64=v1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build -gcflags=-S ./testdata/%s: %v\n%s", pkg, err, out)
	funcs := map[string]string{}
	var name string
	var body strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, " STEXT"); i > 0 && !strings.HasPrefix(line, "\t") {
			if name != "" {
				funcs[name] = body.String()
			}
			name = line[strings.LastIndex(line[:i], "/")+1 : i]
			body.Reset()
			continue
		}
		body.WriteString(line + "\n")
	}
	if name != "" {
		funcs[name] = body.String()
	}
	return funcs
}

// TestLoopKeepsTheResultAlive checks in the assembly that a closure handed
// to Loop keeps the work whose result it returns, that Loop calls it through
// the func value on every iteration, and, as its doc warns, that work whose
// result the closure drops is removed.
func TestLoopKeepsTheResultAlive(t *testing.T) {
	funcs := asmFunctions(t, "keepalive")
	count := func(fn, instr string) int {
		body, ok := funcs[fn]
		require.True(t, ok, "no %s in the listing", fn)
		return strings.Count(body, "\t"+instr)
	}
	n := count("keepalive.Kept.func1", "IMULQ")
	assert.Equal(t, 2, n, "Kept's closure has %d IMULQ, want 2: the work was not kept", n)
	n = count("keepalive.Discarded.func1", "IMULQ")
	assert.Equal(t, 0, n, "Discarded's closure has %d IMULQ, want 0 (the documented limit: return the work's result)", n)
	n = count("benchkit.Loop[go.shape.uint64]", "CALL\tAX")
	assert.GreaterOrEqual(t, n, 1, "Loop does not call f through its func value:\n%s", funcs["benchkit.Loop[go.shape.uint64]"])
}

// TestTrackFromATestDoesNotCompile checks that Track rejects a *testing.T
// at compile time, with the compiler's own message.
func TestTrackFromATestDoesNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command(goBin, "vet", "./testdata/compilefail").CombinedOutput()
	require.Error(t, err, "go vet ./testdata/compilefail succeeded; want a type error:\n%s", out)
	want := "cannot use t (variable of type *testing.T) as *testing.B value in argument to benchkit.Track"
	assert.Contains(t, string(out), want, "go vet said:\n%s\nwant it to contain %q", out, want)
}
