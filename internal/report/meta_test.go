package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/internal/env"
	"github.com/benchkit/go-benchkit/internal/registry"
)

// decodeJSON writes in's JSON report and decodes it into a generic map.
func decodeJSON(t *testing.T, in Input) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, in))
	var m map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &m))
	return m
}

// TestJSONMeta: the run's metadata and the environment's typed fields.
func TestJSONMeta(t *testing.T) {
	modified := true
	snap := env.Snapshot{GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", NumCPU: 4, GOMAXPROCS: 4,
		OnlineCPUs: 8, OnlineCPUsKnown: true, CPUModel: "AMD EPYC", CPUModelKnown: true,
		Load1: 1.5, Load5: 1.25, Load15: 1, LoadKnown: true,
		Governors: []string{"performance", "powersave"}, GovernorCPUs: 4, NotPerformanceCPUs: 2, GovernorKnown: true,
		Turbo: true, TurboSource: "intel_pstate/no_turbo = 0", TurboKnown: true,
		Virtualised: true, Hypervisor: "KVM (dmi)", VirtualisedKnown: true,
		StealTime: 830 * time.Millisecond, StealPercent: 0.5, StealKnown: true,
		Race: true, Cover: false, BuildKnown: true, GCFlags: ""}
	in := Input{Package: "example.com/p", GOOS: "linux", GOARCH: "amd64", CPU: "Oxide Virtual Turin-like Processor  ",
		Meta: Meta{
			Start:     time.Date(2026, 11, 30, 20, 5, 0, 123, time.FixedZone("CET", 3600)),
			GoVersion: "go1.26.8",
			GoTest:    GoTestFlags{Bench: ".", Benchtime: "100x", Count: 10, CPU: "1,2", Benchmem: true},
			VCS:       &env.VCS{System: "git", Revision: "a1b2c3", Time: "2026-11-30T19:00:00Z", Modified: &modified},
			Env:       &snap,
		}}
	m := decodeJSON(t, in)
	assert.Equal(t, "2026-11-30T19:05:00.000000123Z", m["start_time"], "RFC 3339 in UTC, nanoseconds")
	assert.Equal(t, "go1.26.8", m["go_version"])
	assert.Equal(t, "Oxide Virtual Turin-like Processor  ", m["cpu"], "go test's string, trailing spaces kept")
	assert.Equal(t, map[string]any{"bench": ".", "benchtime": "100x", "count": 10.0, "cpu": "1,2", "benchmem": true}, m["go_test"])
	assert.Equal(t, map[string]any{"system": "git", "revision": "a1b2c3", "time": "2026-11-30T19:00:00Z", "modified": true}, m["vcs"])

	e := m["environment"].(map[string]any)
	want := map[string]any{
		"cpu_model": "AMD EPYC", "cpus": 4.0, "online_cpus": 8.0, "gomaxprocs": 4.0, "gomaxprocs_env": "",
		"load_1m": 1.5, "load_5m": 1.25, "load_15m": 1.0,
		"governor": "not-performance", "governors": []any{"performance", "powersave"}, "governor_cpus": 4.0, "not_performance_cpus": 2.0,
		"turbo": "on", "turbo_source": "intel_pstate/no_turbo = 0",
		"virtualisation": "yes", "hypervisor": "KVM (dmi)",
		"steal_ns": 830e6, "steal_pct": 0.5,
		"race": true, "cover": false, "cover_mode": "", "optimisations_off": false, "gcflags": "",
	}
	for k, v := range want {
		assert.Equal(t, v, e[k], "environment.%s", k)
	}
	assert.Contains(t, e, "facts")
	assert.Contains(t, e, "warnings")
}

// TestJSONMetaUnknown: without metadata every new field is null, "" or
// "unknown", and no array is null.
func TestJSONMetaUnknown(t *testing.T) {
	m := decodeJSON(t, Input{})
	assert.Nil(t, m["start_time"])
	assert.Nil(t, m["vcs"])
	assert.Equal(t, "", m["go_version"])
	assert.Equal(t, "", m["cpu"])
	assert.Equal(t, map[string]any{"bench": "", "benchtime": "", "count": 0.0, "cpu": "", "benchmem": false}, m["go_test"])
	e := m["environment"].(map[string]any)
	for _, k := range []string{"cpu_model", "cpus", "online_cpus", "gomaxprocs", "load_1m", "governor_cpus",
		"not_performance_cpus", "steal_ns", "steal_pct", "race", "cover", "optimisations_off"} {
		assert.Contains(t, e, k)
		assert.Nil(t, e[k], k)
	}
	for _, k := range []string{"governor", "turbo", "virtualisation"} {
		assert.Equal(t, "unknown", e[k], k)
	}
	assert.Equal(t, []any{}, e["governors"])

	// A snapshot whose file probes failed: runtime facts known, the rest unknown.
	snap := env.Snapshot{GoVersion: "go1.26.8", NumCPU: 2, GOMAXPROCS: 2, VirtualisedKnown: true}
	e = decodeJSON(t, Input{Meta: Meta{Env: &snap}})["environment"].(map[string]any)
	assert.Equal(t, 2.0, e["cpus"])
	assert.Nil(t, e["load_1m"])
	assert.Equal(t, "none-detected", e["virtualisation"])
	assert.Equal(t, "unknown", e["turbo"])
}

// TestSamplesCPUAsGoTestPrintsIt: the samples file's cpu line keeps the
// trailing spaces go test prints, so benchfmt reads the same value from
// both and benchstat does not split their tables.
func TestSamplesCPUAsGoTestPrintsIt(t *testing.T) {
	in := Input{GOOS: "linux", CPU: "Oxide Virtual Turin-like Processor   ", Benches: []registry.Bench{{Name: "BenchmarkA",
		Runs: []registry.Run{{Procs: 1, N: 10, NsPerOp: 5, AllocsPerOp: -1, BytesPerOp: -1}}}}}
	var buf bytes.Buffer
	require.NoError(t, Samples(&buf, in))
	goTest := "cpu: Oxide Virtual Turin-like Processor   \nBenchmarkA 10 5 ns/op\n"
	cfg := func(text string) string {
		r := benchfmt.NewReader(strings.NewReader(text), "x")
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				return res.GetConfig("cpu")
			}
		}
		return "none"
	}
	assert.Equal(t, cfg(goTest), cfg(buf.String()))
	assert.Equal(t, "Oxide Virtual Turin-like Processor   ", cfg(buf.String()))

	buf.Reset()
	in.CPU = "  "
	require.NoError(t, Samples(&buf, in))
	assert.NotContains(t, buf.String(), "cpu:", "a blank name writes no cpu line, as go test prints none")
}
