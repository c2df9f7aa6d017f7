package tree

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsNoReader: the file layer reads no document. Its walk asks
// what the pages of a tree tell through the Referrals interface (package
// referral reads them), the checker is package linkcheck's and the
// rewrite driver package treerewrite's.
func TestImportsNoReader(t *testing.T) {
	readers := []string{"extract", "htmlrewrite", "xmlrewrite", "jsmodule", "manifest", "archive", "referral", "linkcheck", "treerewrite"}
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
			for _, r := range readers {
				if p == "github.com/relurl/relurl/"+r {
					t.Errorf("%s imports %s", name, p)
				}
			}
		}
	}
}
