package env

import (
	"io/fs"
	"os"
)

// liveFS is the filesystem the live probes read: the root on Linux.
func liveFS() fs.FS { return os.DirFS("/") }
