package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/settings"
	"github.com/benchkit/go-benchkit/internal/summary"
)

// TestMainSummary: -benchkit.summary adds the package's part to the
// file (a directory gets summary.md), off writes none, and a path that
// cannot be written is refused before the run.
func TestMainSummary(t *testing.T) {
	dir := t.TempDir()
	h := newHarness("-test.bench=.", "-benchkit.summary="+dir+"/")
	require.Equal(t, 0, h.run(fakeM{run: h.record}), h.stderr.String())
	parts, err := summary.Read(filepath.Join(dir, "summary.md"))
	require.NoError(t, err)
	require.Len(t, parts, 1)
	assert.Equal(t, "example.com/fake", parts[0].Package)
	assert.False(t, parts[0].Against)

	h = newHarness("-test.bench=.", "-benchkit.summary=off")
	h.env["BENCHKIT_SUMMARY"] = filepath.Join(dir, "env.md")
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.NoFileExists(t, filepath.Join(dir, "env.md"), "the flag's off over the variable")

	h = newHarness("-test.bench=.", "-benchkit.summary="+filepath.Join(dir, "nope", "s.md"))
	assert.Equal(t, 2, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stderr.String(), "fix the path given by -benchkit.summary or BENCHKIT_SUMMARY (checked before the run: nothing ran)")
	assert.NotContains(t, h.events, "run")

	h = newHarness("-test.bench=.", "-benchkit.summary="+filepath.Join(dir, "same"), "-benchkit.json="+filepath.Join(dir, "same"))
	assert.Equal(t, 2, h.run(fakeM{run: h.record}))
	assert.Contains(t, h.stderr.String(), "-benchkit.json or BENCHKIT_JSON and -benchkit.summary or BENCHKIT_SUMMARY both write")
}

// TestSummaryDefault: $GITHUB_STEP_SUMMARY is the default under
// -benchkit.against (a binary or a revision) in GitHub Actions only; a setting overrides it, off
// turns it off.
func TestSummaryDefault(t *testing.T) {
	step := filepath.Join(t.TempDir(), "step_summary")
	for _, tc := range []struct {
		name    string
		against string
		env     map[string]string
		setting string
		want    string
	}{
		{"plain run in Actions", "", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": step}, "", ""},
		{"against in Actions", "base.test", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": step}, "", step},
		{"against a revision in Actions", "origin/main", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": step}, "", step},
		{"against outside Actions", "base.test", map[string]string{"GITHUB_STEP_SUMMARY": step}, "", ""},
		{"setting wins", "base.test", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": step}, "mine.md", "mine.md"},
		{"off", "base.test", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": step}, "off", ""},
	} {
		h := newHarness()
		for k, v := range tc.env {
			h.env[k] = v
		}
		cfg := settings.Config{SummaryPath: tc.setting}
		cfg.Against.Base, cfg.Against.Rev = settings.AgainstTarget(tc.against, func(string) bool { return false })
		got, err := withDefaults(cfg, h.deps)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got.SummaryPath, tc.name)
	}
	_, err := os.Stat(step)
	assert.True(t, os.IsNotExist(err))
	assert.True(t, strings.HasSuffix(summaryFile(t.TempDir()), "summary.md"))
}

// TestMainHTMLIndex: with the HTML report's directory form, index.html
// beside the package's page links it with its headline; a single file
// gets no index.
func TestMainHTMLIndex(t *testing.T) {
	dir := t.TempDir()
	h := newHarness("-test.bench=.", "-benchkit.html="+dir+"/")
	require.Equal(t, 0, h.run(fakeM{run: h.record}), h.stderr.String())
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `<a href="example.com_fake.html">example.com/fake</a></td><td>2 without flags</td>`)
	assert.FileExists(t, filepath.Join(dir, "example.com_fake.html"))

	file := t.TempDir()
	h = newHarness("-test.bench=.", "-benchkit.html="+filepath.Join(file, "r.html"))
	require.Equal(t, 0, h.run(fakeM{run: h.record}))
	assert.NoFileExists(t, filepath.Join(file, "index.html"))
}
