package summary

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/textfmt"
)

//go:embed index.tmpl
var indexSource string

var indexTemplate = template.Must(template.New("index").Funcs(template.FuncMap{
	"mark": func(c Class) string {
		return map[Class]string{Regression: "✗", Improvement: "✓", Undecided: "?", Flagged: "⚑"}[c]
	},
}).Parse(indexSource))

// The line of the index page that carries its entries (JSON, gzipped,
// in base64), inside an HTML comment.
const (
	indexDataStart = "<!-- benchkit index data v1: "
	indexDataEnd   = " -->"
)

// IndexEntry is one package's line on the index page.
type IndexEntry struct {
	Package string            `json:"package"`
	Shard   *report.JSONShard `json:"shard"`
	// Href is the package's page, relative to the index page.
	Href string `json:"href"`
	// Headline and Worst are the part's (Headline, Worst).
	Headline string `json:"headline"`
	Worst    Class  `json:"worst"`
}

// IndexEntryOf returns the index page's line for part p, whose package's
// HTML report is at page.
func IndexEntryOf(p Part, index, page string) IndexEntry {
	href := page
	if rel, err := filepath.Rel(filepath.Dir(index), page); err == nil {
		href = rel
	}
	segs := strings.Split(filepath.ToSlash(href), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return IndexEntry{Package: p.Package, Shard: p.Shard, Href: strings.Join(segs, "/"), Headline: Headline(p), Worst: Worst(p)}
}

// AddIndex adds entry to the index page at path, replacing the entry of
// the same package and shard, and rewrites the page from every entry, as
// Add does for the summary: under the lock, replaced at once. A file at
// path that is not benchkit's index page is left alone, with an error
// naming the fix.
func AddIndex(path string, entry IndexEntry) error {
	err := rewrite(path, func(old []byte) ([]byte, error) {
		var entries []IndexEntry
		if len(old) > 0 {
			data, ok := between(string(old), indexDataStart, indexDataEnd)
			if !ok {
				return nil, fmt.Errorf("it is not benchkit's index page: move it away, or give the HTML report a directory of its own")
			}
			if err := decodeJSON(data, &entries); err != nil {
				return nil, fmt.Errorf("its data line: %w; delete the file", err)
			}
		}
		i := slices.IndexFunc(entries, func(e IndexEntry) bool {
			return e.Package == entry.Package && shardKey(Part{Shard: e.Shard}) == shardKey(Part{Shard: entry.Shard})
		})
		if i >= 0 {
			entries[i] = entry
		} else {
			entries = append(entries, entry)
		}
		return renderIndex(entries)
	})
	if err != nil {
		return fmt.Errorf("the index page %s: %w", path, err)
	}
	return nil
}

// renderIndex renders the page: the packages worst first (by class in
// the summary's order, then by name), each linked to its page with its
// headline.
func renderIndex(entries []IndexEntry) ([]byte, error) {
	data, err := encodeJSON(entries)
	if err != nil {
		return nil, err
	}
	rank := func(c Class) int {
		if i := slices.Index(classOrder, c); i >= 0 {
			return i
		}
		return len(classOrder)
	}
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, func(x, y IndexEntry) int {
		if d := rank(x.Worst) - rank(y.Worst); d != 0 {
			return d
		}
		return strings.Compare(x.Package, y.Package)
	})
	type row struct {
		IndexEntry
		ShardText string
	}
	view := struct {
		Lead    string
		Entries []row
		Data    template.HTML
	}{Lead: indexLead(entries), Data: template.HTML(indexDataStart + data + indexDataEnd)}
	for _, e := range sorted {
		view.Entries = append(view.Entries, row{e, strings.TrimSpace(shardSuffix(Part{Shard: e.Shard}))})
	}
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, view); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// indexLead counts the packages by their worst class: "1 with
// regressions · 2 undecided · 3 with nothing to look at".
func indexLead(entries []IndexEntry) string {
	words := map[Class]string{Regression: "with regressions or failures", Improvement: "with improvements", Undecided: "undecided", Flagged: "flagged", "": "with nothing to look at"}
	var out []string
	for _, c := range append(slices.Clone(classOrder), "") {
		n := 0
		for _, e := range entries {
			if e.Worst == c {
				n++
			}
		}
		if n > 0 {
			out = append(out, textfmt.Plural(n, "package")+" "+words[c])
		}
	}
	return strings.Join(out, " · ")
}

// between returns the text of s between the first start and the end
// after it.
func between(s, start, end string) (string, bool) {
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		return "", false
	}
	v, _, ok := strings.Cut(rest, end)
	return v, ok
}
