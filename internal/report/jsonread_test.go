package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/control/verdict"
	"github.com/benchkit/go-benchkit/internal/env"
)

// TestReadJSONRoundTrip checks that every report JSON writes reads back
// equal to the report it was written from, field for field, and encodes
// again to the same bytes.
func TestReadJSONRoundTrip(t *testing.T) {
	ins := goldenInputs()
	ins["fixture"] = fixture()
	ins["no-interval"] = noIntervalInput()
	ins["counted"] = countedFixture()
	ins["meta"] = metaInput()
	for name, in := range ins {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, JSON(&buf, in))
			got, err := ReadJSON(bytes.NewReader(buf.Bytes()))
			require.NoError(t, err)
			assert.Equal(t, jsonReportOf(in, Analyze(in)), got)
			var again bytes.Buffer
			require.NoError(t, encodeJSON(&again, got))
			assert.Equal(t, buf.String(), again.String())
		})
	}
}

// noIntervalInput is the fixture with a candidate that has an estimate
// but no interval (NaN bounds) and one with no estimate at all.
func noIntervalInput() Input {
	in := fixture()
	c := &in.Benches[5].Comparisons[0]
	c.Candidates = append(c.Candidates,
		verdict.Estimate{Name: "lean", NsPerOp: 240, DeltaPct: -2.6, LoPct: math.NaN(), HiPct: math.NaN(), Verdict: verdict.Undecided, Reason: "no interval: too few rounds"},
		verdict.Estimate{Name: "none", NsPerOp: -1, DeltaPct: math.NaN(), LoPct: math.NaN(), HiPct: math.NaN(), Verdict: verdict.Undecided})
	return in
}

// metaInput is the fixture with the run's metadata and an environment
// snapshot, every kind of field known.
func metaInput() Input {
	modified := false
	in := fixture()
	in.Meta = Meta{
		Start: time.Date(2026, 11, 30, 20, 5, 0, 123, time.UTC), GoVersion: "go1.26.8",
		GoTest: GoTestFlags{Bench: ".", Benchtime: "100x", Count: 10, CPU: "1,2", Benchmem: true},
		VCS:    &env.VCS{System: "git", Revision: "a1b2c3", Time: "2026-11-30T19:00:00Z", Modified: &modified},
		Env: &env.Snapshot{NumCPU: 4, GOMAXPROCS: 4, OnlineCPUs: 8, OnlineCPUsKnown: true, CPUModel: "AMD EPYC", CPUModelKnown: true,
			Load1: 1.5, Load5: 1.25, Load15: 1, LoadKnown: true, Governors: []string{"powersave"}, GovernorCPUs: 4, NotPerformanceCPUs: 4, GovernorKnown: true,
			StealTime: time.Second, StealPercent: 0.5, StealKnown: true, BuildKnown: true, CoverMode: "set", Cover: true},
	}
	return in
}

// TestReadJSONNull checks that null numbers read as nil pointers: an
// estimate without an interval has neither end.
func TestReadJSONNull(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, noIntervalInput()))
	rep, err := ReadJSON(&buf)
	require.NoError(t, err)
	require.Len(t, rep.Comparisons, 1)
	cs := rep.Comparisons[0].Candidates
	require.Len(t, cs, 4)
	lean, none := cs[2], cs[3]
	require.NotNil(t, lean.DeltaPct)
	assert.Equal(t, -2.6, *lean.DeltaPct)
	assert.Nil(t, lean.LoPct)
	assert.Nil(t, lean.HiPct)
	assert.Nil(t, none.DeltaPct)
	assert.Nil(t, none.NsPerOp)
}

// TestReadJSONRefused checks that what is not a v1 report is refused
// with a message naming what was found.
func TestReadJSONRefused(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"other schema", `{"schema": "benchkit-report/v2", "benchmarks": []}`, `the JSON report's schema is "benchkit-report/v2", want "benchkit-report/v1"`},
		{"empty schema", `{"schema": ""}`, `the JSON report's schema is "", want "benchkit-report/v1"`},
		{"no schema", `{"benchmarks": []}`, `not a benchkit JSON report: no "schema" field, want "benchkit-report/v1"`},
		{"not JSON", "PASS\n", "report: reading a JSON report: "},
		{"not an object", `[1, 2]`, "report: reading a JSON report: "},
		{"wrong type", `{"schema": "benchkit-report/v1", "failed": "yes"}`, "report: reading a JSON report (schema benchkit-report/v1): "},
	} {
		_, err := ReadJSON(strings.NewReader(tc.in))
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
}
