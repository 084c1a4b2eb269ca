package settings

import (
	"os"
	"path/filepath"
	"strings"
)

// The prefixes that force how a -benchkit.against value is read.
const (
	PathPrefix = "path:" // a test binary's path
	RevPrefix  = "rev:"  // a git revision
)

// AgainstTarget splits a -benchkit.against value v into the base test
// binary's path or the git revision to build the base at; at most one is
// not "". The rule, in order:
//
//   - "path:X" is the path X and "rev:X" the revision X, whatever X is;
//   - a value that names an existing file or directory (exists; relative
//     to the working directory, the package's under go test) is a path;
//   - so is one that looks like a path: absolute, starting with ./, ../
//     or ~, holding a backslash (which no git ref may hold), or ending in
//     .test or .exe, the names go test -c gives;
//   - anything else (origin/main, main, v1.2.0, HEAD~1, a commit hash) is
//     a revision.
//
// Blank text is neither.
func AgainstTarget(v string, exists func(string) bool) (path, rev string) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return "", ""
	case strings.HasPrefix(v, PathPrefix):
		return strings.TrimSpace(strings.TrimPrefix(v, PathPrefix)), ""
	case strings.HasPrefix(v, RevPrefix):
		return "", strings.TrimSpace(strings.TrimPrefix(v, RevPrefix))
	case exists(v) || looksLikePath(v):
		return v, ""
	}
	return "", v
}

// looksLikePath reports whether v can only be meant as a file: see
// AgainstTarget.
func looksLikePath(v string) bool {
	if filepath.IsAbs(v) || strings.HasPrefix(v, "/") || strings.ContainsRune(v, '\\') {
		return true
	}
	for _, p := range []string{"./", "../", "~"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return strings.HasSuffix(v, ".test") || strings.HasSuffix(v, ".exe")
}

// exists reports whether path names a file or directory.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
