//go:build !linux

package env

import "io/fs"

// liveFS is the filesystem the live probes read. Outside Linux there is no
// procfs or sysfs to read (and a file at /proc/... would mean something
// else), so every file probe stays unknown.
func liveFS() fs.FS { return emptyFS{} }
