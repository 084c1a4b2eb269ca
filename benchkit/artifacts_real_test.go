package benchkit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArtifactsReal: under go test -artifacts (-test.artifacts with
// -test.outputdir), every file goes to the package's directory of the
// artifacts without a flag per file, the summary and the index to their
// root; a file a setting names stays where it says.
func TestArtifactsReal(t *testing.T) {
	bin := mainBinaryOf(t, "", "mainreport")
	out := t.TempDir()
	mine := filepath.Join(t.TempDir(), "mine.json")
	r := mainExec(t, bin, nil, "-test.run=^$", "-test.bench=.", "-test.benchtime=1x", "-benchkit.warmup=off",
		"-test.artifacts", "-test.outputdir="+out, "-benchkit.json="+mine)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	root := filepath.Join(out, "_artifacts")
	dir := filepath.Join(root, "benchkit", "testdata", "mainreport", "benchkit") // the module's path left out, as testing does
	for _, name := range []string{"samples.txt", "report.html", "report.bmf.json", "report.gab.json"} {
		assert.FileExists(t, filepath.Join(dir, name))
	}
	assert.NoFileExists(t, filepath.Join(dir, "report.json"), "-benchkit.json wins")
	assert.FileExists(t, mine)
	assert.FileExists(t, filepath.Join(root, "benchkit-summary.md"))
	index, err := os.ReadFile(filepath.Join(root, "benchkit-index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(index), `<a href="benchkit/testdata/mainreport/benchkit/report.html">github.com/benchkit/go-benchkit/benchkit/testdata/mainreport</a>`)

	r = mainExec(t, bin, nil, "-test.run=^$", "-test.bench=.", "-test.benchtime=1x", "-benchkit.warmup=off",
		"-test.artifacts", "-test.outputdir="+filepath.Join(out, "missing", "dir"))
	require.Equal(t, 0, r.code, "the artifacts' directory is made: %s", r.stderr)
	assert.FileExists(t, filepath.Join(out, "missing", "dir", "_artifacts", "benchkit", "testdata", "mainreport", "benchkit", "report.json"))
}
