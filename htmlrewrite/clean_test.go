package htmlrewrite

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/link"
)

// TestCleanAsLink: the HTML reader's own clean, which finds tabs and
// newlines a word at a time, takes every value as link.Clean does.
func TestCleanAsLink(t *testing.T) {
	long := strings.Repeat("a", 70)
	for _, v := range []string{"", " ", "a", " a b ", "\t\n a\tb\nc\r \f", "x\r", long, " " + long + "\n", long + "\t" + long, "\fé\u00a0 ", "a\x0bb"} {
		if got, want := clean(v), link.Clean(v); got != want {
			t.Errorf("clean(%q) = %q, link.Clean: %q", v, got, want)
		}
	}
}
