package count

import (
	"debug/buildinfo"
	"fmt"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/env"
)

// Valgrind is a valgrind that can count: its path and the version it
// prints ("valgrind-3.19.0").
type Valgrind struct {
	Path, Version string
}

// platforms are the GOOS/GOARCH pairs valgrind has a port for. Counts are
// tested on linux/amd64.
var platforms = map[string][]string{
	"linux":   {"amd64", "arm64", "386", "arm", "ppc64le", "s390x"},
	"freebsd": {"amd64", "386", "arm64"},
}

// InstallHint is the end of the message for a missing valgrind.
const InstallHint = "install it with `sudo apt-get install valgrind` (Debian, Ubuntu), `sudo dnf install valgrind` (Fedora) " +
	"or `brew install valgrind` (Homebrew on Linux)"

// versionTimeout bounds `valgrind --version`.
const versionTimeout = 30 * time.Second

// Find returns the valgrind on PATH, or an [*Error]: ReasonPlatform on a
// platform valgrind does not run on, ReasonMissing (with [InstallHint])
// when there is none on PATH, ReasonFailed when `valgrind --version`
// fails.
func Find() (Valgrind, error) {
	if err := checkPlatform(runtime.GOOS, runtime.GOARCH); err != nil {
		return Valgrind{}, err
	}
	path, err := exec.LookPath("valgrind")
	if err != nil {
		return Valgrind{}, &Error{Reason: ReasonMissing, Err: err,
			Message: "instructions are counted under valgrind, and there is no valgrind on PATH: " + InstallHint}
	}
	r, err := child.Run(child.Spec{Path: path, Args: []string{"--version"}, Timeout: versionTimeout})
	if err != nil {
		return Valgrind{}, &Error{Reason: ReasonFailed, Err: err,
			Message: fmt.Sprintf("%s --version failed (%v): reinstall valgrind", path, err)}
	}
	return Valgrind{Path: path, Version: strings.TrimSpace(string(r.Stdout))}, nil
}

// checkPlatform returns an *Error with ReasonPlatform unless valgrind has
// a port for goos/goarch.
func checkPlatform(goos, goarch string) error {
	if slices.Contains(platforms[goos], goarch) {
		return nil
	}
	return &Error{Reason: ReasonPlatform, Message: fmt.Sprintf(
		"instructions are counted under valgrind, which runs on Linux (amd64, arm64, 386, arm, ppc64le, s390x) and FreeBSD (amd64, 386, arm64), "+
			"not on %s/%s (nor on macOS since 10.14, nor on Windows): count on a Linux machine, a Linux container or a Linux CI runner", goos, goarch)}
}

// readBuild returns the build information of the test binary at path,
// nil when it cannot be read (the processes then say what goes wrong).
func readBuild(path string) *debug.BuildInfo {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil
	}
	return bi
}

// checkBuild returns an *Error with ReasonBuild when the test binary at
// path was built with -race, -msan or -asan (its build information bi
// says so), nil otherwise and when bi is nil.
func checkBuild(bi *debug.BuildInfo, path, name string) error {
	if bi == nil {
		return nil
	}
	if flag := shadowFlag(bi.Settings); flag != "" {
		return errorf(ReasonBuild, name, "the test binary %s was built with %s, whose shadow memory valgrind cannot host: count a build without %s", path, flag, flag)
	}
	return nil
}

// cpuOff returns the GODEBUG settings that turn off, in a binary with
// the build information bi, the CPU features this CPU lacks
// (env.CPUOff for its Go release and GOAMD64 level, "cpu.rdtscp=off"):
// valgrind presents a fixed CPU model chosen by the host's level, whose
// feature table can claim what the host lacks (valgrind 3.19 claims
// RDTSCP on AMD EPYC VMs without it), and a runtime that believes it has
// the feature executes an instruction valgrind cannot decode here and
// dies of SIGILL. With these, a count follows the path the binary takes
// natively.
// Nil for a binary built for neither amd64 nor 386, or when bi is nil.
func cpuOff(bi *debug.BuildInfo) []string {
	if bi == nil {
		return nil
	}
	arch, level := "", ""
	for _, s := range bi.Settings {
		switch s.Key {
		case "GOARCH":
			arch = s.Value
		case "GOAMD64":
			level = s.Value
		}
	}
	if arch != "amd64" && arch != "386" {
		return nil
	}
	return env.CPUOff(bi.GoVersion, level)
}

// shadowFlag returns the build flag among -race, -msan and -asan that
// settings (a binary's build information) has on, or "".
func shadowFlag(settings []debug.BuildSetting) string {
	for _, s := range settings {
		switch s.Key {
		case "-race", "-msan", "-asan":
			if s.Value == "true" {
				return s.Key
			}
		}
	}
	return ""
}
