package linkfilter

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// TestImports: asking whether a URL is in scope needs the link record and
// the resolver (resolve.Scope, resolve.SameOrigin), not the file layer
// nor a reader.
func TestImports(t *testing.T) {
	for name, paths := range testkit.Imports(t) {
		for _, p := range paths {
			if strings.Contains(p, ".") && p != "github.com/relurl/relurl/link" && p != "github.com/relurl/relurl/resolve" {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}
