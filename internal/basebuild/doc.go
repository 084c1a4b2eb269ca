// Package basebuild builds the base of benchkit.Main's -benchkit.against
// when it names a git revision: the merge base of the revision and HEAD,
// checked out into a cache benchkit owns, and the same package's test
// binary built there the way this binary was built.
//
// [Prepare] does it all before anything runs and returns the [Base]: the
// binary, or why there is none (the package is not at the base, or the
// base does not build, with the go command's output). Bad input (git
// missing, not a repository, an unknown revision, a shallow clone
// without the merge base) is an error naming the fix, and leaves the
// cache as it was.
//
// The cache (Root) holds one directory per merge base: the commit's
// files (git read-tree and checkout-index into a private index, so the
// repository's own index, work tree and worktree list are untouched) and
// the test binaries built from them, one per package and build settings.
// Each is written under a temporary name and renamed into place whole,
// under a lock file (flock on Unix, LockFileEx on Windows: released by
// the system when a process dies, so no lock outlives its run); a run
// holds its commit's directory shared until it ends, and at most Keep
// directories are kept, the least recently used removed first unless in
// use. git and the go command run through package child, each with a
// deadline and in a process group of its own. docs/ci.md says what users
// see.
package basebuild
