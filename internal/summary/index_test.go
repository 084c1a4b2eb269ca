package summary

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIndex: each package's page is linked once, worst first, with its
// headline; a package's new entry replaces its old one; a file that is
// not benchkit's index is left alone.
func TestIndex(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "index.html")
	parts := threePackages()
	for _, p := range append(parts, Part{Package: "example.com/m/quiet", Rest: map[string]int{RestSame: 2}}) {
		page := filepath.Join(dir, strings.ReplaceAll(p.Package, "/", "_")+".html")
		require.NoError(t, AddIndex(index, IndexEntryOf(p, index, page)))
	}
	b, err := os.ReadFile(index)
	require.NoError(t, err)
	html := string(b)
	t.Log("\n" + html)
	order := []string{
		`<tr class="regression"><td class="mark">✗</td><td><a href="example.com_m_a.html">example.com/m/a</a></td><td>1 regression (worst Work-2 &#43;103.60%) · 1 same</td></tr>`,
		`<a href="example.com_m_c_d.html">example.com/m/c/d</a>`,
		`<tr class="improvement"><td class="mark">✓</td><td><a href="example.com_m_b.html">`,
		`<tr class=""><td class="mark"></td><td><a href="example.com_m_quiet.html">example.com/m/quiet</a></td><td>2 same</td></tr>`,
	}
	at := 0
	for _, s := range order {
		i := strings.Index(html[at:], s)
		require.GreaterOrEqual(t, i, 0, "%q after position %d", s, at)
		at += i + len(s)
	}
	assert.Contains(t, html, "<title>benchkit: 2 packages with regressions or failures · 1 package with improvements · 1 package with nothing to look at</title>")

	require.NoError(t, AddIndex(index, IndexEntryOf(Part{Package: "example.com/m/a", Rest: map[string]int{RestSame: 2}}, index, filepath.Join(dir, "example.com_m_a.html"))))
	b, err = os.ReadFile(index)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(b), `href="example.com_m_a.html"`))
	assert.NotContains(t, string(b), "Work-2")

	foreign := filepath.Join(dir, "other.html")
	require.NoError(t, os.WriteFile(foreign, []byte("<html>mine</html>"), 0o600))
	err = AddIndex(foreign, IndexEntry{Package: "x"})
	assert.ErrorContains(t, err, "is not benchkit's index page: move it away, or give the HTML report a directory of its own")
	b, _ = os.ReadFile(foreign)
	assert.Equal(t, "<html>mine</html>", string(b))

	assert.Equal(t, "sub/a%20b.html", IndexEntryOf(Part{}, index, filepath.Join(dir, "sub", "a b.html")).Href)
}

// TestIndexConcurrent: packages adding to one index at once are each
// linked once.
func TestIndexConcurrent(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.html")
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			p := syntheticPart(fmt.Sprintf("example.com/p%d", i))
			assert.NoError(t, AddIndex(index, IndexEntryOf(p, index, filepath.Join(filepath.Dir(index), fmt.Sprintf("p%d.html", i)))))
		})
	}
	wg.Wait()
	b, err := os.ReadFile(index)
	require.NoError(t, err)
	for i := range 12 {
		assert.Equal(t, 1, strings.Count(string(b), fmt.Sprintf(`href="p%d.html"`, i)))
	}
}
