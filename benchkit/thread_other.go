//go:build !linux

package benchkit

// readThread is unavailable outside Linux.
func readThread() threadSample { return threadSample{} }
