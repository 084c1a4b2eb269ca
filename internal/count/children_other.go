//go:build !(linux || freebsd)

package count

// childrenUsage is not available where valgrind does not run.
func childrenUsage() (Children, bool) { return Children{}, false }
