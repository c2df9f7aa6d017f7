package jsmodule

import (
	"io"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
)

// A module's reading takes time linear in its size: many imports, and
// what a scanner could re-read (unterminated strings, comments,
// templates, dynamic imports without their end).
func TestLinearTime(t *testing.T) {
	cases := []struct {
		name string
		n    int
		doc  func(n int) string
	}{
		{"imports", 20000, func(n int) string { return strings.Repeat("import a from \"./a.js\";\n", n) }},
		{"dynamic imports", 20000, func(n int) string { return strings.Repeat("import(\"./a.js\"); ", n) }},
		{"unclosed import(", 50000, func(n int) string { return strings.Repeat("import(", n) }},
		{"unterminated strings", 50000, func(n int) string { return strings.Repeat("import '", n) }},
		{"templates", 50000, func(n int) string { return strings.Repeat("`${", n) }},
		{"regex or division", 50000, func(n int) string { return strings.Repeat("a = b / c / ", n) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			docs := map[int]string{c.n: c.doc(c.n), 2 * c.n: c.doc(2 * c.n)}
			testkit.Linear(t, c.n, 2.5, func(n int) {
				Rewrite(io.Discard, strings.NewReader(docs[n]), opts())
				Links(strings.NewReader(docs[n]), opts(), func(link.Link) error { return nil })
			})
		})
	}
}
