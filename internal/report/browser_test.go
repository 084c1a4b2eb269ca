package report

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/browser"
)

// plotClasses are the <svg> classes the HTML report draws.
var plotClasses = []string{"forest-row", "forest-axis", "timeline", "histogram", "rounds", "counts"}

// checkPage loads report.html in a frame and, at its load event, opens
// every <details>, then writes into #result, as JSON: the report's title,
// the number of <svg> elements of each class in SELECTORS, those drawn
// with no size or fewer than two children, the resources the report
// loaded (performance entries) or names (an element with src, a link, an
// embedded object or frame), and its scripts.
const checkPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>check</title></head><body>
<iframe id="report" src="report.html" width="1280" height="900"></iframe>
<pre id="result">not loaded</pre>
<script>
window.addEventListener("load", function () {
  var out = {counts: {}, empty: []};
  try {
    var w = document.getElementById("report").contentWindow, d = w.document;
    d.querySelectorAll("details").forEach(function (e) { e.open = true; });
    out.title = d.title;
    SELECTORS.forEach(function (c) {
      var els = d.querySelectorAll("svg." + c);
      out.counts[c] = els.length;
      els.forEach(function (e, i) {
        var r = e.getBoundingClientRect();
        if (!(r.width > 0 && r.height > 0) || e.childElementCount < 2) { out.empty.push(c + " " + i); }
      });
    });
    out.resources = w.performance.getEntriesByType("resource").map(function (e) { return e.name; });
    d.querySelectorAll("[src], link[href], object, embed, iframe, image").forEach(function (e) { out.resources.push(e.outerHTML.slice(0, 80)); });
    out.scripts = d.scripts.length;
  } catch (e) { out.error = String(e); }
  document.getElementById("result").textContent = JSON.stringify(out);
});
</script></body></html>
`

// checkResult is what checkPage writes.
type checkResult struct {
	Title     string         `json:"title"`
	Counts    map[string]int `json:"counts"`
	Empty     []string       `json:"empty"`
	Resources []string       `json:"resources"`
	Scripts   int            `json:"scripts"`
	Error     string         `json:"error"`
}

// TestHTMLInBrowser renders the HTML report of a run with tracked
// benchmarks, a comparison and a cross-build comparison, loads it in
// headless Chromium, and checks that it loads without a console message,
// a script or any resource, and that every plot is there and drawn.
// It skips, saying so, where no chromium is on PATH (.ci/run installs
// Debian's).
func TestHTMLInBrowser(t *testing.T) {
	exe := browser.Find()
	if exe == "" {
		t.Skipf("no %s on PATH: the HTML report was not checked in a browser (apt-get install chromium)", strings.Join(browser.Names, ", "))
	}
	in := exportInput()
	in.Benches[5].Comparisons[1].RoundNs = [][]float64{{246, 247, 245}, {246, 246, 247}, {233, 234, 232}, {271, 270, 272}}
	dir := t.TempDir()
	var page strings.Builder
	require.NoError(t, HTML(&page, in))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "report.html"), []byte(page.String()), 0o644))
	selectors, err := json.Marshal(plotClasses)
	require.NoError(t, err)
	check := strings.Replace(checkPage, "SELECTORS", string(selectors), 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "check.html"), []byte(check), 0o644))

	p, err := browser.Load(context.Background(), exe, "file://"+filepath.Join(dir, "check.html"))
	require.NoError(t, err)
	assert.Empty(t, p.Console, "the page and its frame log nothing")
	m := regexp.MustCompile(`(?s)<pre id="result">(.*?)</pre>`).FindStringSubmatch(p.DOM)
	require.NotNil(t, m, "the check page's result:\n%s", p.DOM)
	var res checkResult
	require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(m[1])), &res), m[1])
	require.Empty(t, res.Error)
	assert.Equal(t, "benchkit report · example.com/p", res.Title)
	assert.Empty(t, res.Resources, "a self-contained page loads nothing")
	assert.Zero(t, res.Scripts)
	for _, c := range plotClasses {
		assert.Equal(t, len(svgs(page.String(), c)), res.Counts[c], "svg.%s as written and as the browser parsed it", c)
		assert.NotZero(t, res.Counts[c], "svg.%s", c)
	}
	assert.Empty(t, res.Empty, "plots with no size or nothing drawn")
}

// layoutPage loads report.html in a frame 1200 CSS pixels wide and writes
// into #result, as JSON: the frame's width, the page's scroll width, the
// right edge of the rightmost verdict cell, and the narrowest forest
// row as drawn.
const layoutPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>layout</title></head><body style="margin:0">
<iframe id="report" src="report.html" width="1200" height="900" style="border:0"></iframe>
<pre id="result">not loaded</pre>
<script>
window.addEventListener("load", function () {
  var out = {verdictRight: 0, forestWidth: 1e9, verdicts: 0};
  try {
    var w = document.getElementById("report").contentWindow, d = w.document;
    out.width = d.documentElement.clientWidth;
    out.scrollWidth = d.documentElement.scrollWidth;
    d.querySelectorAll("td.verdict").forEach(function (e) {
      out.verdicts++;
      out.verdictRight = Math.max(out.verdictRight, e.getBoundingClientRect().right);
    });
    d.querySelectorAll("svg.forest-row").forEach(function (e) {
      out.forestWidth = Math.min(out.forestWidth, e.getBoundingClientRect().width);
    });
  } catch (e) { out.error = String(e); }
  document.getElementById("result").textContent = JSON.stringify(out);
});
</script></body></html>
`

// TestHTMLAgainstLayout loads the page of a cross-build comparison of
// two benchmarks with long names in headless Chromium, 1200 CSS pixels
// wide: the page does not scroll sideways, every verdict cell is on
// screen, and the forest plot is drawn at its full width. It skips where
// no chromium is on PATH.
func TestHTMLAgainstLayout(t *testing.T) {
	exe := browser.Find()
	if exe == "" {
		t.Skipf("no %s on PATH: the page's layout was not checked (apt-get install chromium)", strings.Join(browser.Names, ", "))
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "report.html"), []byte(renderHTML(t, twoBenchAgainst())), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "layout.html"), []byte(layoutPage), 0o644))
	p, err := browser.Load(context.Background(), exe, "file://"+filepath.Join(dir, "layout.html"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?s)<pre id="result">(.*?)</pre>`).FindStringSubmatch(p.DOM)
	require.NotNil(t, m, "the layout page's result:\n%s", p.DOM)
	var res struct {
		Width, ScrollWidth, VerdictRight, ForestWidth float64
		Verdicts                                      int
		Error                                         string
	}
	require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(m[1])), &res), m[1])
	require.Empty(t, res.Error)
	assert.Equal(t, 2, res.Verdicts)
	assert.LessOrEqual(t, res.ScrollWidth, res.Width, "no sideways scrolling")
	assert.LessOrEqual(t, res.VerdictRight, res.Width, "the verdicts are on screen")
	assert.GreaterOrEqual(t, res.ForestWidth, float64(forestW), "the forest plot at its full width")
}
