package tree

import (
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// TestImportsNoReader: the file layer reads no document. Its walk asks
// what the pages of a tree tell through the Referrals interface (package
// referral reads them), the checker is package linkcheck's and the
// rewrite driver package treerewrite's.
func TestImportsNoReader(t *testing.T) {
	readers := []string{"extract", "htmlrewrite", "xmlrewrite", "jsmodule", "manifest", "archive", "referral", "linkcheck", "treerewrite"}
	for name, paths := range testkit.Imports(t) {
		for _, p := range paths {
			if r, ok := strings.CutPrefix(p, "github.com/relurl/relurl/"); ok && slices.Contains(readers, r) {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}
