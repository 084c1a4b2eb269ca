package basebuild

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/child"
)

// Build settings (debug.BuildInfo's) carried to the base's build as go
// test flags: those given without a value when "true", the others as
// -flag=value. -buildmode and -compiler are carried when not go test's
// defaults.
var (
	boolFlags  = []string{"-asan", "-cover", "-msan", "-race", "-trimpath"}
	valueFlags = []string{"-asmflags", "-gcflags", "-ldflags", "-pgo", "-tags"}
	defaults   = map[string]string{"-buildmode": "exe", "-compiler": "gc"}
)

// envSetting matches the build settings carried as environment variables:
// CGO_ENABLED, CGO_CFLAGS and the other CGO_ ones, GOOS, GOARCH, the
// architecture levels (GOAMD64, GOARM64, …), GOEXPERIMENT, GOFIPS140.
var envSetting = regexp.MustCompile(`^(CGO_[A-Z]+|GO[A-Z0-9]+)$`)

// BuildFlags returns the go test flags and the environment that build a
// base the way a binary with the build settings s (debug.BuildInfo's)
// was built by the toolchain goVersion (runtime.Version()): -tags, -race,
// -msan, -asan, -cover, -trimpath, -gcflags, -ldflags, -asmflags, -pgo
// (and -buildmode, -compiler when not the defaults) as flags;
// CGO_ENABLED, the CGO_ flags, GOOS, GOARCH, the architecture level
// (GOAMD64, …), GOEXPERIMENT (empty when the binary has none) and
// GOFIPS140 as environment; and GOTOOLCHAIN pinned to the release that
// built the binary (none for a development toolchain). Not carried, as
// the binary does not record them: -mod, -modfile, -overlay, -coverpkg,
// -covermode, and -ldflags under -trimpath; GOFLAGS and the rest of the
// environment are inherited as they are. Both are sorted.
func BuildFlags(s map[string]string, goVersion string) (args, env []string) {
	for k, v := range s {
		switch {
		case slices.Contains(boolFlags, k):
			if v == "true" {
				args = append(args, k)
			}
		case slices.Contains(valueFlags, k):
			args = append(args, k+"="+v)
		case defaults[k] != "":
			if v != defaults[k] {
				args = append(args, k+"="+v)
			}
		case envSetting.MatchString(k):
			env = append(env, k+"="+v)
		}
	}
	if _, ok := s["GOEXPERIMENT"]; !ok && s != nil {
		env = append(env, "GOEXPERIMENT=")
	}
	if tc := toolchain(goVersion); tc != "" {
		env = append(env, "GOTOOLCHAIN="+tc)
	}
	slices.Sort(args)
	slices.Sort(env)
	return args, env
}

// release matches a release's version, without the experiments a
// runtime.Version() or a build's Go version may carry (" X:…", "-X:…").
var release = regexp.MustCompile(`^go1(\.[0-9]+)*(rc[0-9]+)?`)

// toolchain is the GOTOOLCHAIN value that selects the release v names,
// "" for a development toolchain (which no GOTOOLCHAIN selects).
func toolchain(v string) string {
	return release.FindString(v)
}

// build builds r.Pkg's test binary from the base's files in e (checked
// out once, under e's build lock) into the cache, unless it is there,
// and records the outcome in b: the binary, the package missing at the
// base, or the build's failure. An error is a failure of the cache or
// the checkout, not of the build.
func (e entry) build(rp repo, r Request, goCmd string, b *Base) error {
	unlock, err := e.lockBuild(r.Timeout)
	if err != nil {
		return err
	}
	defer unlock()
	src, err := e.source(rp, b.Commit, r)
	if err != nil {
		return err
	}
	args, env := BuildFlags(r.Settings, r.GoVersion)
	b.Flags = append(slices.Clone(args), env...)
	dir := filepath.Join(src, filepath.FromSlash(rp.prefix))
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		b.Missing = displayPrefix(rp.prefix) + " is not in the base's files"
		return nil
	}
	env = append(env, "GOWORK="+workspace(src, dir))
	bin := filepath.Join(e.dir, "bin", binaryName(r.Pkg, buildKey(r.Pkg, rp.prefix, args, env)))
	if _, err := os.Stat(bin); err == nil {
		b.Binary, b.Dir, b.Reused = bin, dir, true
		return nil
	}
	if err := e.clearTemp("bin"); err != nil {
		return err
	}
	logf(r, "building %s at %s, the merge base of %s and HEAD", r.Pkg, Short(b.Commit), r.Rev)
	out, err := goTest(goCmd, dir, bin, args, env, r)
	switch {
	case errors.Is(err, errMissing):
		b.Missing = "at the base, " + displayPrefix(rp.prefix) + " holds no Go package for this build"
	case err != nil:
		b.Failed, b.Output = err.Error(), out
	default:
		b.Binary, b.Dir = bin, dir
	}
	return nil
}

// goTest runs go test -c with args and env in dir, into a temporary file
// renamed to bin once complete; it returns the go command's output with
// the error of a build that failed (errMissing when there was no package
// to build).
func goTest(goCmd, dir, bin string, args, env []string, r Request) (string, error) {
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	tmp := bin + tempSuffix
	argv := append(append([]string{"test", "-c", "-o", tmp}, args...), ".")
	res, err := child.Run(child.Spec{Path: goCmd, Args: argv, Dir: dir, Env: env, Timeout: r.Timeout, Group: true})
	out := child.Tail(res, 60)
	if err != nil {
		_ = os.Remove(tmp)
		if noPackage(string(res.Stderr)) {
			return out, errMissing
		}
		var ce *child.Error
		if errors.As(err, &ce) {
			return out, fmt.Errorf("%s %s", strings.Join(append([]string{"go test -c"}, args...), " "), ce.What())
		}
		return out, err
	}
	if _, serr := os.Stat(tmp); serr != nil {
		return out, errMissing // go test -c writes nothing for a package without test files
	}
	if err := os.Rename(tmp, bin); err != nil {
		_ = os.Remove(tmp)
		return out, fmt.Errorf("moving the built binary into the cache: %v", err)
	}
	return out, nil
}

// noPackage reports whether the go command's output says there was no
// package to build in the directory.
func noPackage(stderr string) bool {
	return strings.Contains(stderr, "no Go files in") || strings.Contains(stderr, "build constraints exclude all Go files")
}

// workspace is the GOWORK the base is built with: the go.work in the
// base's files at or above dir (up to src, the files' root), else off,
// so that no go.work outside the base's files (in a parent of the
// cache, or named by the user's GOWORK) replaces its modules.
func workspace(src, dir string) string {
	for d := dir; strings.HasPrefix(d, src); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return filepath.Join(d, "go.work")
		}
		if d == src {
			break
		}
	}
	return "off"
}

// buildKey tells apart the builds of one commit: the package, its
// directory, the flags and the environment (toolchain included).
func buildKey(pkg, prefix string, args, env []string) string {
	h := sha256.New()
	for _, s := range append(append([]string{pkg, prefix, runtime.GOOS, runtime.GOARCH, os.Getenv("GOFLAGS")}, args...), env...) {
		h.Write([]byte(s + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// displayPrefix names a package directory relative to the repository's
// root, "." for the root.
func displayPrefix(prefix string) string {
	if prefix == "" {
		return "."
	}
	return strings.TrimSuffix(prefix, "/")
}

// logf writes one line to r.Log, if any.
func logf(r Request, format string, args ...any) {
	if r.Log != nil {
		fmt.Fprintf(r.Log, "benchkit: %s: %s\n", r.what(), fmt.Sprintf(format, args...))
	}
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
