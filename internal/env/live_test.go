package env

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLiveProbe probes this machine, logs every fact and warning (run with
// -v to see them) and checks the structure of what came back.
func TestLiveProbe(t *testing.T) {
	s := Probe()
	facts := s.Facts()
	for _, f := range facts {
		t.Logf("fact %-15s %s", f.Name, f.Value)
	}
	for _, w := range s.Warnings() {
		t.Logf("warning %-14s %s", w.Key, w.Message)
	}
	c := ReadContention()
	t.Logf("contention: run-queue wait %v (known %v), involuntary switches %d (known %v), steal %v since boot (known %v)",
		c.RunQueueWait, c.WaitKnown, c.InvoluntarySwitches, c.SwitchesKnown, c.StealTime, c.StealKnown)
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, st := range bi.Settings {
			t.Logf("build setting %s=%s", st.Key, st.Value)
		}
	}

	assert.Positive(t, s.NumCPU)
	assert.Equal(t, runtime.NumCPU(), s.NumCPU, "NumCPU")
	assert.Equal(t, runtime.GOMAXPROCS(0), s.GOMAXPROCS, "GOMAXPROCS")
	assert.Equal(t, runtime.Version(), s.GoVersion)
	assert.Equal(t, runtime.GOOS, s.GOOS)
	assert.Equal(t, runtime.GOARCH, s.GOARCH)
	checkFactsShape(t, facts)
	for _, w := range s.Warnings() {
		assert.True(t, w.Key != "" && w.Message != "", "empty warning %+v", w)
	}
	if runtime.GOOS == "linux" {
		// procfs is mounted on any Linux a Go test runs on; the CPU model
		// is not asserted (some RISC-V kernels print no usable name).
		assert.True(t, s.LoadKnown && s.StealKnown, "on Linux load and steal should be known: %+v", s)
		assert.True(t, c.WaitKnown && c.SwitchesKnown && c.StealKnown, "on Linux every contention counter should be known: %+v", c)
	} else {
		assert.False(t, s.LoadKnown || s.GovernorKnown || s.StealKnown, "outside Linux file probes must stay unknown: %+v", s)
	}
}

func checkFactsShape(t *testing.T, facts []Fact) {
	t.Helper()
	require.NotEmpty(t, facts, "no facts")
	seen := map[string]bool{}
	for _, f := range facts {
		assert.True(t, f.Name != "" && f.Name == strings.ToLower(f.Name) && !strings.ContainsAny(f.Name, ":\n"),
			"bad fact name %q", f.Name)
		assert.False(t, seen[f.Name], "duplicate fact name %q", f.Name)
		seen[f.Name] = true
		assert.True(t, f.Value != "" && !strings.ContainsAny(f.Value, "\n\r\t"), "fact %s has bad value %q", f.Name, f.Value)
	}
}

// TestReadGC: the collector's counters move with a forced collection,
// and the heap goal lies above the live heap.
func TestReadGC(t *testing.T) {
	before := ReadGC()
	runtime.GC()
	after := ReadGC()
	require.GreaterOrEqual(t, before.Cycles, int64(0), "this Go release offers the cycle count")
	assert.Greater(t, after.Cycles, before.Cycles)
	assert.GreaterOrEqual(t, after.CPUNs, before.CPUNs)
	assert.Greater(t, after.HeapGoal, after.HeapLive)
	assert.Positive(t, after.HeapLive)
}
