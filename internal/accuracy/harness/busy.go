package harness

import (
	"fmt"
	"os/exec"
	"time"
)

// StartBusy starts n busy-loop processes (a counting loop in sh), each
// one CPU's worth of load, and returns their pids and the function that
// ends them (by those pids) and waits for them; calling it again does
// nothing. They end with this process too
// where the platform can say so (Pdeathsig on Linux), and are ended
// after limit in any case, so that a table cut short leaves none behind.
func StartBusy(n int, limit time.Duration) (pids []int, stop func(), err error) {
	var cmds []*exec.Cmd
	stop = func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
		cmds = nil
	}
	for range n {
		c := exec.Command("sh", "-c", fmt.Sprintf("trap 'exit 0' TERM; end=$(( $(date +%%s) + %d )); while [ $(date +%%s) -lt $end ]; do i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; done", int(limit.Seconds())))
		c.SysProcAttr = dieWithParent()
		if err := c.Start(); err != nil {
			stop()
			return nil, nil, fmt.Errorf("starting a busy loop (sh): %w", err)
		}
		cmds = append(cmds, c)
		pids = append(pids, c.Process.Pid)
	}
	return pids, stop, nil
}
