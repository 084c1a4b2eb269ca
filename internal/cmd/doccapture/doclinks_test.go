package main

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// module is this repository's module path.
const module = "github.com/benchkit/go-benchkit"

// TestDocLinks keeps the package docs pointing at things that exist: every
// doc link in a comment ([Name], [Type.Method], [pkg.Name]) must name a
// declaration of the package it points into (this module's packages;
// others are not checked), and in a public package (outside internal/) a
// link to its own package must name an exported one, which go doc and
// pkg.go.dev can show. A bracketed word that is no link (go doc prints it
// as text) is found the same way: every bracketed Go name is checked.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	pkgs := modulePackages(t, root)
	for ipath, p := range pkgs {
		public := !strings.Contains(ipath, "/internal/") && ipath != module+"/internal"
		for _, f := range p.files {
			imports := fileImports(f)
			docs := publicDocs(f)
			for _, c := range f.Comments {
				if public && docs[c] {
					for _, name := range unexportedRefs(c.Text(), p) {
						t.Errorf("%s: [%s] in public package %s names an unexported declaration: go doc prints it as text, not a link", p.fset.Position(c.Pos()), name, p.name)
					}
				}
				for _, l := range docLinks(c.Text(), imports) {
					target := p
					if l.ImportPath != "" {
						var ok bool
						if target, ok = pkgs[l.ImportPath]; !ok {
							continue // another module's package
						}
					}
					where := p.fset.Position(c.Pos())
					if !target.declares(l.Recv, l.Name) {
						t.Errorf("%s: doc link [%s] names nothing %s declares", where, linkText(l), target.name)
					} else if public && l.ImportPath == "" && (!token.IsExported(l.Name) || (l.Recv != "" && !token.IsExported(l.Recv))) {
						t.Errorf("%s: doc link [%s] in public package %s names an unexported declaration: go doc cannot show it", where, linkText(l), p.name)
					}
				}
			}
		}
	}
}

// modPackage is one package of the module, parsed with its comments.
type modPackage struct {
	name  string
	fset  *token.FileSet
	files []*ast.File
	// decls are its top-level names; members its types' fields and
	// methods, as "Type.Name".
	decls, members map[string]bool
}

func (p *modPackage) declares(recv, name string) bool {
	if recv != "" {
		return p.members[recv+"."+name]
	}
	return p.decls[name]
}

// modulePackages parses every package of the module under root but the
// testdata ones, without their tests, by import path.
func modulePackages(t *testing.T, root string) map[string]*modPackage {
	out := map[string]*modPackage{}
	err := filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if base := d.Name(); dir != root && (base == "testdata" || strings.HasPrefix(base, ".")) {
			return filepath.SkipDir
		}
		p := parseDir(t, dir)
		if p == nil {
			return nil
		}
		rel, _ := filepath.Rel(root, dir)
		out[path.Join(module, filepath.ToSlash(rel))] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("found %d packages under %s, want the whole module", len(out), root)
	}
	return out
}

// parseDir parses the non-test Go files of dir, nil when there are none.
func parseDir(t *testing.T, dir string) *modPackage {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := &modPackage{fset: token.NewFileSet(), decls: map[string]bool{}, members: map[string]bool{}}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(p.fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		p.name = f.Name.Name
		p.files = append(p.files, f)
		p.collect(f)
	}
	if len(p.files) == 0 {
		return nil
	}
	return p
}

// collect adds f's top-level names, methods and struct fields.
func (p *modPackage) collect(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				p.decls[d.Name.Name] = true
				continue
			}
			p.members[recvName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				p.collectSpec(s)
			}
		}
	}
}

func (p *modPackage) collectSpec(s ast.Spec) {
	switch s := s.(type) {
	case *ast.TypeSpec:
		p.decls[s.Name.Name] = true
		if st, ok := s.Type.(*ast.StructType); ok {
			for _, fl := range st.Fields.List {
				for _, n := range fl.Names {
					p.members[s.Name.Name+"."+n.Name] = true
				}
				if len(fl.Names) == 0 { // embedded: its name is its type's
					p.members[s.Name.Name+"."+recvName(fl.Type)] = true
				}
			}
		}
	case *ast.ValueSpec:
		for _, n := range s.Names {
			p.decls[n.Name] = true
		}
	}
}

// recvName is a receiver's or an embedded field's type name, without
// pointer, package or type parameters.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// fileImports maps the names f imports packages under to their paths.
func fileImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := path.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		m[name] = p
	}
	return m
}

// docLinks returns every doc link in the comment text: a bracketed Go
// name, taken as a link whatever it names (the check decides), with
// [pkg.Name] resolved through the file's imports.
func docLinks(text string, imports map[string]string) []*comment.DocLink {
	p := comment.Parser{
		LookupPackage: func(name string) (string, bool) {
			ip, ok := imports[name]
			return ip, ok
		},
		LookupSym: func(recv, name string) bool { return true },
	}
	var out []*comment.DocLink
	var walk func(ts []comment.Text)
	walk = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				if t.Name != "" { // "[]" is text
					out = append(out, t)
				}
			case *comment.Link:
				walk(t.Text)
			case *comment.Italic, comment.Plain:
			}
		}
	}
	for _, b := range p.Parse(text).Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			walk(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					if para, ok := c.(*comment.Paragraph); ok {
						walk(para.Text)
					}
				}
			}
		case *comment.Heading:
			walk(b.Text)
		}
	}
	return out
}

// publicDocs returns f's comments that go doc shows: the package's, and
// those of exported declarations, their exported fields and methods.
func publicDocs(f *ast.File) map[*ast.CommentGroup]bool {
	out := map[*ast.CommentGroup]bool{f.Doc: true}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			recvOK := d.Recv == nil || len(d.Recv.List) == 0 || token.IsExported(recvName(d.Recv.List[0].Type))
			if recvOK && d.Name.IsExported() {
				out[d.Doc] = true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				publicSpec(sp, d, out)
			}
		}
	}
	delete(out, nil)
	return out
}

// publicSpec adds the docs of an exported spec of d, and of an exported
// struct type's exported fields.
func publicSpec(sp ast.Spec, d *ast.GenDecl, out map[*ast.CommentGroup]bool) {
	switch sp := sp.(type) {
	case *ast.TypeSpec:
		if !sp.Name.IsExported() {
			return
		}
		out[d.Doc], out[sp.Doc] = true, true
		if st, ok := sp.Type.(*ast.StructType); ok {
			for _, fl := range st.Fields.List {
				if len(fl.Names) > 0 && fl.Names[0].IsExported() {
					out[fl.Doc] = true
				}
			}
		}
	case *ast.ValueSpec:
		for _, n := range sp.Names {
			if n.IsExported() {
				out[d.Doc], out[sp.Doc] = true, true
			}
		}
	}
}

// lowerRef is a bracketed lower-case Go name ("[config]", "[m.field]")
// not right after a word (an index, "xs[i]").
var lowerRef = regexp.MustCompile(`(?:^|[^\w\]])\[([a-z_]\w*)(?:\.\w+)?\]`)

// unexportedRefs returns the bracketed lower-case names in text that
// name a declaration of p: go doc makes no link of them.
func unexportedRefs(text string, p *modPackage) []string {
	var out []string
	for _, m := range lowerRef.FindAllStringSubmatch(text, -1) {
		if p.decls[m[1]] {
			out = append(out, m[1])
		}
	}
	return out
}

func linkText(l *comment.DocLink) string {
	s := l.Name
	if l.Recv != "" {
		s = l.Recv + "." + s
	}
	if l.ImportPath != "" {
		s = path.Base(l.ImportPath) + "." + s
	}
	return s
}
