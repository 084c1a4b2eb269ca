package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMatrixNamesRealTests keeps docs/development.md's matrix of cases
// from drifting: every test, example or fuzz target a row names must be
// declared in the package the row names (benchkit when it names none; a
// bare name takes the package of the name before it in the same cell).
// Subtest paths after '/' are not checked.
func TestMatrixNamesRealTests(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := matrixRows(string(doc))
	if len(rows) < 40 {
		t.Fatalf("found %d matrix rows in docs/development.md, want the whole matrix (at least 40): has its heading or format changed?", len(rows))
	}
	declared := map[string]map[string]bool{} // package dir → names
	for _, r := range rows {
		for _, ref := range r.refs {
			names, ok := declared[ref.pkg]
			if !ok {
				names = testNames(t, filepath.Join(root, ref.pkg))
				declared[ref.pkg] = names
			}
			if !names[ref.name] {
				t.Errorf("docs/development.md row %s names %s in %s, which declares no such function", r.id, ref.name, ref.pkg)
			}
		}
	}
}

type matrixRow struct {
	id   string
	refs []testRef
}

type testRef struct{ pkg, name string }

var (
	codeSpanRE = regexp.MustCompile("`([^`]+)`")
	testNameRE = regexp.MustCompile(`^(Test|Example|Fuzz|Benchmark)\w*`)
)

// matrixRows returns the rows of the table under "## The misuse and
// integration matrix", with the tests their last cell names.
func matrixRows(doc string) []matrixRow {
	_, after, ok := strings.Cut(doc, "## The misuse and integration matrix")
	if !ok {
		return nil
	}
	if i := strings.Index(after, "\n## "); i >= 0 {
		after = after[:i]
	}
	var rows []matrixRow
	for _, line := range strings.Split(after, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if !strings.HasPrefix(line, "| ") || len(cells) < 3 || strings.HasPrefix(cells[0], "-") || cells[0] == "#" {
			continue
		}
		r := matrixRow{id: cells[0]}
		pkg := "benchkit"
		for _, m := range codeSpanRE.FindAllStringSubmatch(cells[len(cells)-1], -1) {
			fields := strings.Fields(m[1])
			if len(fields) == 2 {
				pkg = fields[0]
				fields = fields[1:]
			}
			if len(fields) != 1 {
				continue
			}
			name := testNameRE.FindString(fields[0])
			if name == "" {
				continue // a subtest path (/x), a file, a command
			}
			r.refs = append(r.refs, testRef{pkg: pkg, name: name})
		}
		rows = append(rows, r)
	}
	return rows
}

var funcRE = regexp.MustCompile(`(?m)^func ((Test|Example|Fuzz|Benchmark)\w*)\(`)

// testNames returns the test, example, fuzz and benchmark functions
// declared in dir's _test.go files.
func testNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Errorf("no test files in %s (%v)", dir, err)
		return nil
	}
	names := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range funcRE.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
	}
	return names
}
