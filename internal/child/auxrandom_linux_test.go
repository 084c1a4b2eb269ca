package child

import (
	"fmt"
	"os"
)

// auxRandomNow returns the 16 bytes at this process's AT_RANDOM address,
// in hex, read through /proc/self/mem.
func auxRandomNow() string {
	addr, err := auxRandomAddr(os.Getpid())
	if err != nil {
		return "error: " + err.Error()
	}
	f, err := os.Open("/proc/self/mem")
	if err != nil {
		return "error: " + err.Error()
	}
	defer f.Close()
	b := make([]byte, 16)
	if _, err := f.ReadAt(b, int64(addr)); err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%x", b)
}
