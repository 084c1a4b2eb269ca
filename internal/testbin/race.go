package testbin

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"
)

// SkipWithoutRace skips t when the go command on PATH cannot build with
// -race for the platform it builds for, saying why. It asks that go
// command (go env, in the test's environment, which the tests' own go
// invocations inherit), so GOOS, GOARCH, CGO_ENABLED and GOTOOLCHAIN set
// for the test run decide, not the platform this test binary was built
// for. It also skips when there is no go command or go env fails.
func SkipWithoutRace(t testing.TB) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH to build with -race: %v", err)
	}
	out, err := exec.Command(goBin, "env", "-json", "GOOS", "GOARCH", "CGO_ENABLED").Output()
	if err != nil {
		t.Skipf("go env failed, cannot tell whether -race is supported: %v", err)
	}
	var env struct{ GOOS, GOARCH, CGO_ENABLED string }
	if err := json.Unmarshal(out, &env); err != nil {
		t.Skipf("go env printed %q, cannot tell whether -race is supported: %v", out, err)
	}
	if why := raceUnsupported(env.GOOS, env.GOARCH, env.CGO_ENABLED == "1"); why != "" {
		t.Skip(why)
	}
}

// raceUnsupported returns why go build -race fails for goos/goarch with
// cgo enabled or not, or "" when it works. The platforms and the cgo rule
// are cmd/go's (internal/platform.RaceDetectorSupported, and the check in
// cmd/go/internal/work): the race runtime exists for the platforms listed
// below only, and needs cgo everywhere but on darwin. CGO_ENABLED is
// already 0 in go env when no C compiler is found.
func raceUnsupported(goos, goarch string, cgo bool) string {
	supported := false
	switch goos {
	case "linux":
		switch goarch {
		case "amd64", "arm64", "loong64", "ppc64le", "riscv64", "s390x":
			supported = true
		}
	case "darwin":
		supported = goarch == "amd64" || goarch == "arm64"
	case "freebsd", "netbsd", "windows":
		supported = goarch == "amd64"
	}
	switch {
	case !supported:
		return fmt.Sprintf("-race is not supported on %s/%s", goos, goarch)
	case !cgo && goos != "darwin":
		return fmt.Sprintf("-race needs cgo, and CGO_ENABLED=0 for %s/%s (set CGO_ENABLED=1 with a C compiler on PATH)", goos, goarch)
	}
	return ""
}
