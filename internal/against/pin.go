package against

import (
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/env"
)

// pinned is a binary held for the whole run, so that every process runs
// the bytes that were hashed. On Linux the file stays open and processes
// execute it through /proc/<pid>/fd/<n>, which names the open file even
// after its path is replaced or removed (a rebuild writes a new file and
// renames it over the path); only a write into the open file itself
// changes what runs, and each start checks for that. Elsewhere processes
// execute the path, and each start first checks that the file's size
// and modification time are still the ones it had when it was hashed.
type pinned struct {
	binaryFile
	f    *os.File // Linux: held open; nil elsewhere
	exec string   // the path processes execute
	size int64
	mod  time.Time
}

// pin opens path, reads its build information and hashes it from the
// open file, and returns it held for the run.
func pin(path string) (*pinned, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	b, err := identify(f, fi.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	p := &pinned{binaryFile: b, exec: path, size: fi.Size(), mod: fi.ModTime()}
	if runtime.GOOS == "linux" {
		fd := fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), f.Fd())
		if _, err := os.Stat(fd); err == nil {
			p.f, p.exec = f, fd
			return p, nil
		}
	}
	f.Close()
	return p, nil
}

// path returns the path a process of this binary executes now, or an
// error when the file changed on disk since it was hashed (where the
// open file cannot be executed): a process would run another build.
func (p *pinned) path() (string, error) {
	var fi os.FileInfo
	var err error
	if p.f != nil {
		fi, err = p.f.Stat()
	} else {
		fi, err = os.Stat(p.exec)
	}
	switch {
	case err != nil:
		return "", fmt.Errorf("the binary %s is gone (%v): it was removed or moved during the run", p.Path, err)
	case fi.Size() != p.size || !fi.ModTime().Equal(p.mod):
		return "", fmt.Errorf("the binary %s changed on disk during the run (%d bytes, modified %s; it was %d bytes, modified %s, when it was hashed): later processes would run another build",
			p.Path, fi.Size(), fi.ModTime().Format(time.RFC3339), p.size, p.mod.Format(time.RFC3339))
	}
	return p.exec, nil
}

// close lets the file go.
func (p *pinned) close() {
	if p != nil && p.f != nil {
		_ = p.f.Close()
		p.f = nil
	}
}

// binaryFile is a binary's identity and its build info's main path and
// settings.
type binaryFile struct {
	Binary
	buildPath string
	settings  map[string]string
}

// identify reads the build information of the size bytes of r (the
// file at path) and hashes them.
func identify(r io.ReaderAt, size int64, path string) (binaryFile, error) {
	b := binaryFile{Binary: Binary{Path: path}}
	bi, err := buildinfo.Read(r)
	if err != nil {
		return b, err
	}
	b.buildPath = bi.Path
	b.Package, b.GoVersion = strings.TrimSuffix(bi.Path, ".test"), bi.GoVersion
	b.settings = map[string]string{}
	for _, s := range bi.Settings {
		b.settings[s.Key] = s.Value
	}
	if v := env.ParseVCS(bi.Settings); v != nil { // the same stamp the JSON's vcs reads
		b.VCSRevision, b.VCSTime = v.Revision, v.Time
		b.VCSModified = v.Modified != nil && *v.Modified
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(r, 0, size)); err == nil {
		b.SHA256 = hex.EncodeToString(h.Sum(nil))
	}
	return b, nil
}

// self returns the path a process of this very binary executes: on
// Linux /proc/self/exe, the running file whatever happened to its path;
// elsewhere the path, checked against the file as it was when the
// process started (child.Self).
func self() (string, error) { return child.Self() }
