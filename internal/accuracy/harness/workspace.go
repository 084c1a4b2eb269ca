package harness

import "os"

// A Workspace is what a table's run starts from: the line describing the
// machine, taken before the run loads it, and a temporary directory
// holding the test binary the run measures.
type Workspace struct {
	Machine string // MachineLine at the start
	Dir     string // the temporary directory, for the run's other files
	Bin     string // the test binary of the package, in Dir (see Build)
}

// NewWorkspace describes the machine, creates a temporary directory whose
// name starts with prefix, and builds the test binary of pkg into it with
// [Build]. The caller removes the directory with Close; when NewWorkspace
// fails, nothing is left to remove.
func NewWorkspace(prefix, pkg string) (*Workspace, error) {
	machine := MachineLine()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	bin, err := Build(pkg, dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Workspace{Machine: machine, Dir: dir, Bin: bin}, nil
}

// Close removes the workspace's directory and all it holds.
func (w *Workspace) Close() error { return os.RemoveAll(w.Dir) }
