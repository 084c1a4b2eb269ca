package child

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// sysProcAttr asks the kernel to kill the child when the thread that
// started it ends. startLocked starts it from a locked thread and unlocks
// it again before returning, so the thread goes back to the runtime's
// pool and lives as long as the process (a Go runtime thread exits only
// when a goroutine ends while locked to it).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// startLocked starts cmd from a thread locked to the calling goroutine,
// and unlocks it afterwards without letting the thread exit, so that
// Pdeathsig fires only when the parent process dies. With random not
// nil, the child's AT_RANDOM bytes are set to it before its first
// instruction (setAuxRandom).
func startLocked(cmd *exec.Cmd, random *[16]byte) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if random == nil {
		return cmd.Start()
	}
	cmd.SysProcAttr.Ptrace = true
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := setAuxRandom(cmd.Process.Pid, random); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("setting its AT_RANDOM bytes: %w", err)
	}
	return nil
}

// AuxRandom reports whether a child's AT_RANDOM bytes can be set here
// (Spec.AuxRandom): on Linux, by ptrace.
func AuxRandom() bool { return true }

// atRandom is the auxiliary vector's entry for the address of the 16
// random bytes the kernel gives a new program (linux/auxvec.h).
const atRandom = 25

// setAuxRandom writes random over the AT_RANDOM bytes of the child pid,
// which started traced (PTRACE_TRACEME) and is stopped at its exec, then
// lets it go. The Go runtime seeds its random state from these bytes
// (runtime/rand.go, randinit), and with it every map's hash seed. It
// must run on the thread that started the child, which is its tracer.
func setAuxRandom(pid int, random *[16]byte) error {
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		return err
	}
	if !ws.Stopped() || ws.StopSignal() != syscall.SIGTRAP {
		return fmt.Errorf("the child did not stop at its exec (%v)", ws)
	}
	addr, err := auxRandomAddr(pid)
	if err == nil {
		_, err = syscall.PtracePokeData(pid, addr, random[:])
	}
	if derr := syscall.PtraceDetach(pid); err == nil {
		err = derr
	}
	return err
}

// auxRandomAddr returns the address of the AT_RANDOM bytes in the
// auxiliary vector of process pid (/proc/<pid>/auxv: pairs of words of
// the native size and byte order, type then value).
func auxRandomAddr(pid int) (uintptr, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/auxv")
	if err != nil {
		return 0, err
	}
	word := int(unsafe.Sizeof(uintptr(0)))
	for i := 0; i+2*word <= len(b); i += 2 * word {
		typ, val := readWord(b[i:], word), readWord(b[i+word:], word)
		if typ == atRandom {
			return uintptr(val), nil
		}
		if typ == 0 {
			break
		}
	}
	return 0, errors.New("no AT_RANDOM entry in its auxiliary vector")
}

// readWord reads a native-endian word of size bytes.
func readWord(b []byte, size int) uint64 {
	if size == 4 {
		return uint64(binary.NativeEndian.Uint32(b))
	}
	return binary.NativeEndian.Uint64(b)
}
