package basebuild

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
)

// gitTimeout bounds a git command that reads the repository (rev-parse,
// merge-base); the checkout gets the build's timeout.
const gitTimeout = 2 * time.Minute

// repo is the git repository around a package's directory.
type repo struct {
	git string // the git command
	// top is the work tree's root; prefix the package's directory below
	// it, slash-separated with a trailing slash ("" at the root).
	top, prefix string
	shallow     bool
}

// openRepo finds the repository around dir ("" the current directory);
// what names the setting in messages.
func openRepo(dir, what string) (repo, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return repo{}, fmt.Errorf("benchkit: %s is a git revision (not a file here), and there is no git command on PATH to read it: install git or add it to PATH, or build the base yourself and give its path (path:base.test)", what)
	}
	r := repo{git: git, top: dir}
	out, err := r.run(gitTimeout, nil, "rev-parse", "--show-toplevel", "--show-prefix", "--is-shallow-repository")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if err != nil || len(lines) != 3 {
		where := dir
		if where == "" {
			where = "the package's directory"
		}
		return repo{}, fmt.Errorf("benchkit: %s is a git revision (not a file here), and %s is not in a git repository (%s): run go test in the repository's checkout, or build the base yourself and give its path (path:base.test)",
			what, where, gitMessage(err, out))
	}
	r.top, r.prefix, r.shallow = lines[0], lines[1], lines[2] == "true"
	return r, nil
}

// mergeBase returns the merge base of rev and HEAD, a full commit hash,
// or an error naming the fix: an unknown revision, a shallow clone that
// lacks the merge base, unrelated histories.
func (r repo) mergeBase(rev, what string) (string, error) {
	fetch := "fetch it (git fetch origin main; in GitHub Actions, actions/checkout with fetch-depth: 0)"
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("benchkit: %s is not a revision: name a branch, a tag or a commit", what)
	}
	out, err := r.run(gitTimeout, nil, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("benchkit: %s: no such revision in %s%s: check the name (git branch -a lists them), %s, or give a base binary's path (path:base.test)",
			what, r.top, shallowNote(r.shallow), fetch)
	}
	commit := strings.TrimSpace(out)
	out, err = r.run(gitTimeout, nil, "merge-base", commit, "HEAD")
	if err == nil {
		return strings.TrimSpace(out), nil
	}
	if r.shallow {
		return "", fmt.Errorf("benchkit: %s: this clone is shallow and does not hold the merge base of %s (%s) and HEAD (%s): fetch the history: fetch-depth: 0 in actions/checkout, or git fetch --unshallow",
			what, rev, Short(commit), gitMessage(err, out))
	}
	return "", fmt.Errorf("benchkit: %s: %s (%s) and HEAD have no common ancestor (%s): name the branch this one was made from",
		what, rev, Short(commit), gitMessage(err, out))
}

// shallowNote says, for an unknown revision, that the clone is shallow:
// the revision may be one it did not fetch.
func shallowNote(shallow bool) string {
	if shallow {
		return " (this clone is shallow: it may not have fetched it)"
	}
	return ""
}

// export writes the files of commit into dst (which must not exist),
// through the index file index: the repository's own index, work tree
// and worktree list are untouched.
func (r repo) export(commit, dst, index string, timeout time.Duration) error {
	env := []string{"GIT_INDEX_FILE=" + index}
	if out, err := r.run(timeout, env, "read-tree", commit); err != nil {
		return fmt.Errorf("git read-tree %s: %s", Short(commit), gitMessage(err, out))
	}
	prefix := filepath.ToSlash(dst) + "/"
	if out, err := r.run(timeout, env, "checkout-index", "--all", "--force", "--prefix="+prefix); err != nil {
		return fmt.Errorf("git checkout-index of %s into %s: %s", Short(commit), dst, gitMessage(err, out))
	}
	return nil
}

// run runs git with args in the work tree's root (or the directory
// openRepo was given), with the extra environment env, and returns its
// standard output; a failure's error carries its output. git never
// prompts: there is no terminal to answer.
func (r repo) run(timeout time.Duration, env []string, args ...string) (string, error) {
	env = append([]string{"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0"}, env...)
	res, err := child.Run(child.Spec{Path: r.git, Args: args, Dir: r.top, Env: env, Timeout: timeout, Group: true})
	if err != nil {
		return string(res.Stdout) + string(res.Stderr), err
	}
	return string(res.Stdout), nil
}

// gitMessage is a failed git command's message: its output's last
// non-empty line, or how it ended.
func gitMessage(err error, out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return "git: " + last
	}
	var ce *child.Error
	if errors.As(err, &ce) {
		return "git " + ce.What()
	}
	return fmt.Sprint(err)
}

// Short is the first 12 digits of a commit hash, as messages show it.
func Short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
