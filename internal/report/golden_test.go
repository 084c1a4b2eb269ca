package report

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/registry"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current text reports")

// goldenInputs are representative inputs whose whole text report is
// pinned in testdata/<name>.golden: every section, every kind of finding,
// and the two empty-table cases.
func goldenInputs() map[string]Input {
	full := fixture()
	full.Warmup.Warnings = []string{"warm-up did not settle: the last batches still drift"}
	full.Dropped = 3
	full.Benches = append(full.Benches,
		registry.Bench{Name: "BenchmarkOne", Runs: runs(2, -1, 3), TotalRuns: 1},
		registry.Bench{Name: "BenchmarkHog", Runs: runs(2, 1.2, 180), TotalRuns: 1, Timeline: hogTimeline(true)},
	)
	compareOnly := Input{Package: "example.com/c", Benches: full.Benches[5:6]}
	return map[string]Input{"full": full, "empty": {}, "compare-only": compareOnly}
}

// TestTextGolden compares the whole text report of each golden input with
// its file; run with -update to rewrite the files after a deliberate
// change of the report.
func TestTextGolden(t *testing.T) {
	for name, in := range goldenInputs() {
		t.Run(name, func(t *testing.T) {
			got := render(t, in)
			path := filepath.Join("testdata", name+".golden")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test -run TestTextGolden -update to create it")
			assert.Equal(t, string(want), got)
		})
	}
}
