package harness

import "github.com/benchkit/go-benchkit/internal/child"

// A Workspace is what a table's run starts from: the line describing the
// machine, taken before the run loads it, and a temporary directory
// holding the test binary the run measures.
type Workspace struct {
	Machine string // MachineLine at the start
	Dir     string // the temporary directory, for the run's other files
	Bin     string // the test binary of the package, in Dir (see Build)
	remove  func()
}

// NewWorkspace describes the machine, creates a temporary directory whose
// name starts with prefix, and builds the test binary of pkg into it with
// [Build]. The caller removes the directory with Close; an interrupting
// signal (SIGINT, SIGTERM, SIGHUP) removes it too. When NewWorkspace
// fails, nothing is left to remove.
func NewWorkspace(prefix, pkg string) (*Workspace, error) {
	machine := MachineLine()
	dir, remove, err := child.TempDir(prefix)
	if err != nil {
		return nil, err
	}
	bin, err := Build(pkg, dir)
	if err != nil {
		remove()
		return nil, err
	}
	return &Workspace{Machine: machine, Dir: dir, Bin: bin, remove: remove}, nil
}

// Close removes the workspace's directory and all it holds.
func (w *Workspace) Close() { w.remove() }
