//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly && !solaris && !aix && !illumos

package env

func readInvoluntarySwitches() (int64, bool) { return 0, false }
