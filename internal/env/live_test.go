package env

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
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

	if s.NumCPU <= 0 || s.NumCPU != runtime.NumCPU() {
		t.Errorf("NumCPU = %d, runtime.NumCPU() = %d", s.NumCPU, runtime.NumCPU())
	}
	if s.GOMAXPROCS != runtime.GOMAXPROCS(0) {
		t.Errorf("GOMAXPROCS = %d, want %d", s.GOMAXPROCS, runtime.GOMAXPROCS(0))
	}
	if s.GoVersion != runtime.Version() || s.GOOS != runtime.GOOS || s.GOARCH != runtime.GOARCH {
		t.Errorf("go = %s %s/%s, want %s %s/%s", s.GoVersion, s.GOOS, s.GOARCH, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	checkFactsShape(t, facts)
	for _, w := range s.Warnings() {
		if w.Key == "" || w.Message == "" {
			t.Errorf("empty warning %+v", w)
		}
	}
	if runtime.GOOS == "linux" {
		// procfs is mounted on any Linux a Go test runs on; the CPU model
		// is not asserted (some RISC-V kernels print no usable name).
		if !s.LoadKnown || !s.StealKnown {
			t.Errorf("on Linux load and steal should be known: %+v", s)
		}
		if !c.WaitKnown || !c.SwitchesKnown || !c.StealKnown {
			t.Errorf("on Linux every contention counter should be known: %+v", c)
		}
	} else if s.LoadKnown || s.GovernorKnown || s.StealKnown {
		t.Errorf("outside Linux file probes must stay unknown: %+v", s)
	}
}

func checkFactsShape(t *testing.T, facts []Fact) {
	t.Helper()
	if len(facts) == 0 {
		t.Fatal("no facts")
	}
	seen := map[string]bool{}
	for _, f := range facts {
		if f.Name == "" || f.Name != strings.ToLower(f.Name) || strings.ContainsAny(f.Name, ":\n") {
			t.Errorf("bad fact name %q", f.Name)
		}
		if seen[f.Name] {
			t.Errorf("duplicate fact name %q", f.Name)
		}
		seen[f.Name] = true
		if f.Value == "" || strings.ContainsAny(f.Value, "\n\r\t") {
			t.Errorf("fact %s has bad value %q", f.Name, f.Value)
		}
	}
}
