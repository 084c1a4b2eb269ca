package benchkit_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// e2eJSONBench is the part of the JSON report the -cpu test reads.
type e2eJSONBench struct {
	Name    string `json:"name"`
	Display string `json:"display"`
	Runs    []struct {
		Procs      int     `json:"procs"`
		NsPerOp    float64 `json:"ns_per_op"`
		StaleProcs int     `json:"stale_procs"`
	} `json:"runs"`
}

// TestE2ECPUList runs testdata/cpulist with -cpu=1,2 and -cpu=2,1 and
// -count=2. testing calls each benchmark's function
// once before it sets the first -cpu value; Track used to file that run
// under the other value's name, so the first "-2" line carried a cv% that
// mixed both settings and the JSON had 1 and 3 runs. Now every run is
// filed under the name go test printed it with: each printed line's ns/op
// is the JSON's run at the same place, the first repeat has no cv%, and
// the run testing measured at the stale setting (the b.Loop benchmark's
// first) is marked and logged.
func TestE2ECPUList(t *testing.T) {
	bin := e2eBuild(t, "cpulist")
	for _, cpu := range []string{"1,2", "2,1"} {
		t.Run("cpu="+cpu, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "report.json")
			o := e2eRunEnv(t, bin, 2*time.Minute, []string{"BENCHKIT_FORKS=1"}, "-test.bench=.", "-test.cpu="+cpu, "-test.count=2",
				"-test.benchtime=10ms", "-benchkit.warmup=off", "-benchkit.json="+js)
			require.False(t, o.failed, o.text)
			o.checkParses(t)
			raw, err := os.ReadFile(js)
			require.NoError(t, err)
			var rep struct {
				Benchmarks  []e2eJSONBench `json:"benchmarks"`
				Comparisons []struct {
					Benchmark string `json:"benchmark"`
				} `json:"comparisons"`
			}
			require.NoError(t, json.Unmarshal(raw, &rep))
			byName := map[string]e2eJSONBench{}
			for _, b := range rep.Benchmarks {
				byName[b.Name] = b
			}
			want := []string{"BenchmarkCountN", "BenchmarkCountN-2", "BenchmarkLoop", "BenchmarkLoop-2"}
			withRuns := 0
			for _, b := range rep.Benchmarks {
				if len(b.Runs) > 0 {
					withRuns++
				}
			}
			assert.Equal(t, len(want), withRuns, "one JSON entry with runs per printed name: %+v", rep.Benchmarks)
			for _, name := range want {
				printed := o.results[name]
				jb := byName[name]
				require.Len(t, printed, 2, "%s printed lines:\n%s", name, o.text)
				require.Len(t, jb.Runs, 2, "%s: JSON runs %+v", name, jb.Runs)
				procs := 1
				if strings.HasSuffix(name, "-2") {
					procs = 2
				}
				for i, r := range printed {
					assert.InEpsilon(t, r.values["ns/op"], jb.Runs[i].NsPerOp, 0.001,
						"%s run %d: printed %v ns/op, JSON %v: filed under another name", name, i+1, r.values["ns/op"], jb.Runs[i].NsPerOp)
					assert.Equal(t, procs, jb.Runs[i].Procs, "%s run %d procs", name, i+1)
					_, cv := r.values["cv%"]
					assert.Equal(t, i > 0, cv, "%s repeat %d: cv%% present = %v; the first repeat has none", name, i+1, cv)
				}
			}
			// The b.Loop benchmark's first run ran at the GOMAXPROCS the
			// CountN benchmark left (its last -cpu value, the other one).
			first := strings.Split(cpu, ",")[0]
			loop := e2eName1("BenchmarkLoop", first)
			other := map[string]int{"1": 2, "2": 1}[first]
			assert.Equal(t, other, byName[loop].Runs[0].StaleProcs, "%s's first run is marked stale", loop)
			assert.Zero(t, byName[loop].Runs[1].StaleProcs)
			assert.Contains(t, strings.Join(o.logs[loop], ""), "golang/go#49980", "the stale run is logged")
			assert.Contains(t, o.text, "measured by testing at GOMAXPROCS=", "the report says so")
			// control.Compare files its comparisons the same way: two
			// under each printed name.
			perName := map[string]int{}
			for _, c := range rep.Comparisons {
				perName[c.Benchmark]++
			}
			assert.Equal(t, map[string]int{"BenchmarkCompare": 2, "BenchmarkCompare-2": 2}, perName, "comparisons by name")
			for _, name := range []string{"BenchmarkCountN", "BenchmarkCountN-2"} {
				assert.NotContains(t, strings.Join(o.logs[name], ""), "49980", "%s: b.N style measures at the right value", name)
			}
		})
	}
}

// e2eName1 is base as go test prints it under -cpu value procs.
func e2eName1(base, procs string) string {
	if procs == "1" {
		return base
	}
	return base + "-" + procs
}
