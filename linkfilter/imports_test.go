package linkfilter

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports: asking whether a URL is in scope needs the link record and
// the resolver (resolve.Scope, resolve.SameOrigin), not the file layer
// nor a reader.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(p, ".") && p != "github.com/relurl/relurl/link" && p != "github.com/relurl/relurl/resolve" {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}
