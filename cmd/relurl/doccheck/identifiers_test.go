package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestIdentifiers: every name of the library the pages cite as PKG.Name
// (`extract.Reader`, `tree.Writer`, base.Context.Decide in a Go block)
// is declared by that package, so a name renamed or moved to another
// package (the pages teach it) is found here, not by a reader.
func TestIdentifiers(t *testing.T) {
	out, err := exec.Command("go", "list", "-C", root, "-f", "{{.Name}} {{.Dir}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	// The exported names each public package declares: top-level
	// identifiers, and for a type its methods and fields as Type.Name.
	declared := map[string]map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, dir, _ := strings.Cut(l, " ")
		rel, _ := filepath.Rel(root, dir)
		if name == "main" || strings.Contains("/"+filepath.ToSlash(rel)+"/", "/internal/") {
			continue
		}
		if declared[name] == nil {
			declared[name] = map[string]bool{}
		}
		collect(t, dir, declared[name])
	}
	ref := regexp.MustCompile(`\b([a-z]+)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Z][A-Za-z0-9_]*))?`)
	checked := 0
	for _, page := range pages(t) {
		data, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range ref.FindAllStringSubmatch(line, -1) {
				names := declared[m[1]]
				if names == nil {
					continue // not a package of the module (resp.Body, net.Dialer)
				}
				checked++
				if !names[m[2]] {
					t.Errorf("%s:%d: %s.%s: package %s declares no %s", page, i+1, m[1], m[2], m[1], m[2])
					continue
				}
				if m[3] != "" && !names[m[2]+"."+m[3]] {
					t.Errorf("%s:%d: %s.%s.%s: %s.%s has no method or field %s", page, i+1, m[1], m[2], m[3], m[1], m[2], m[3])
				}
			}
		}
	}
	t.Logf("%d references to the library's names checked", checked)
}

// collect adds the exported names the Go files of dir (tests left out)
// declare to names.
func collect(t *testing.T, dir string, names map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
					continue
				}
				if recv := receiver(d.Recv.List[0].Type); recv != "" {
					names[recv+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					case *ast.TypeSpec:
						names[s.Name.Name] = true
						fields(s.Name.Name, s.Type, names)
					}
				}
			}
		}
	}
}

// receiver returns the name of a method's receiver type.
func receiver(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiver(e.X)
	case *ast.IndexExpr:
		return receiver(e.X)
	case *ast.IndexListExpr:
		return receiver(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// fields adds a struct type's fields (an embedded one by its type's name)
// and an interface's methods as Type.Name.
func fields(typ string, e ast.Expr, names map[string]bool) {
	var list *ast.FieldList
	switch e := e.(type) {
	case *ast.StructType:
		list = e.Fields
	case *ast.InterfaceType:
		list = e.Methods
	default:
		return
	}
	for _, f := range list.List {
		for _, n := range f.Names {
			names[typ+"."+n.Name] = true
		}
		if len(f.Names) == 0 { // embedded: its type's name is the field's
			t := f.Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			switch t := t.(type) {
			case *ast.Ident:
				names[typ+"."+t.Name] = true
			case *ast.SelectorExpr:
				names[typ+"."+t.Sel.Name] = true
			}
		}
	}
}
