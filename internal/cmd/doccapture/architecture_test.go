package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureImports keeps docs/architecture.md's import graph true:
// every package of the module has a line, and each line lists exactly the
// module's packages it imports (its tests aside); a line whose target is
// "at most …" covers every package under a "/..." pattern and bounds
// their imports instead.
func TestArchitectureImports(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := graphLines(t, string(doc))
	for pkg, imports := range moduleImports(t, root) {
		l, ok := lineFor(lines, pkg)
		switch {
		case !ok:
			t.Errorf("docs/architecture.md has no import line for %s (it imports %v)", pkg, imports)
		case l.atMost:
			for _, im := range imports {
				if !l.allows(im) {
					t.Errorf("docs/architecture.md: %s imports %s, which its line (%s) does not allow", pkg, im, l.from)
				}
			}
		case !slices.Equal(imports, l.to):
			t.Errorf("docs/architecture.md: %s imports %v, its line says %v", pkg, imports, l.to)
		}
	}
}

// graphLine is one line of the import graph: from → to.
type graphLine struct {
	from   string
	to     []string
	atMost bool
}

// allows reports whether an "at most" line lets a package import im.
func (l graphLine) allows(im string) bool {
	for _, t := range l.to {
		if t == im || (strings.HasSuffix(t, "/...") && strings.HasPrefix(im, strings.TrimSuffix(t, "..."))) {
			return true
		}
	}
	return false
}

// lineFor finds the line of pkg: its own, or a "/..." line covering it.
func lineFor(lines []graphLine, pkg string) (graphLine, bool) {
	for _, l := range lines {
		if l.from == pkg {
			return l, true
		}
	}
	for _, l := range lines {
		if p, ok := strings.CutSuffix(l.from, "/..."); ok && strings.HasPrefix(pkg, p+"/") || pkg == strings.TrimSuffix(l.from, "/...") {
			return l, true
		}
	}
	return graphLine{}, false
}

// graphLines reads the code block after the "Imports go one way" heading.
func graphLines(t *testing.T, doc string) []graphLine {
	_, rest, ok := strings.Cut(doc, "## Imports go one way")
	if !ok {
		t.Fatal(`docs/architecture.md has no "## Imports go one way" section`)
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	block, _, _ := strings.Cut(rest, "```")
	var out []graphLine
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		from, to, ok := strings.Cut(line, "→")
		if !ok {
			t.Fatalf("docs/architecture.md: %q is not a line of the form from → to", line)
		}
		l := graphLine{from: strings.TrimSpace(from)}
		to = strings.TrimSpace(to)
		if after, ok := strings.CutPrefix(to, "at most "); ok {
			l.atMost, to = true, after
		}
		if to != "nothing of ours" {
			l.to = expand(to)
		}
		slices.Sort(l.to)
		out = append(out, l)
	}
	if len(out) < 15 {
		t.Fatalf("docs/architecture.md: found %d import lines, want the whole graph", len(out))
	}
	return out
}

// expand reads "internal/against, count; warmup": a name without a slash
// is in the directory of the name before it.
func expand(list string) []string {
	var out []string
	dir := ""
	for _, part := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ';' }) {
		name := strings.TrimSpace(part)
		if strings.Contains(name, "/") {
			dir = name[:strings.LastIndex(strings.TrimSuffix(name, "/..."), "/")+1]
		} else if dir != "" && !slices.Contains([]string{"benchkit", "control", "sink", "warmup"}, name) {
			name = dir + name
		}
		out = append(out, name)
	}
	return out
}

// moduleImports returns, for every package of the module, the module's
// packages it imports (without the module path), sorted.
func moduleImports(t *testing.T, root string) map[string][]string {
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module+"/")
		imports := []string{}
		for _, im := range f[1:] {
			if rel, ok := strings.CutPrefix(im, module+"/"); ok {
				imports = append(imports, rel)
			}
		}
		slices.Sort(imports)
		m[pkg] = imports
	}
	return m
}
