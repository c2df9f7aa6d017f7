package manifest

import (
	"io"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// A manifest's reading takes time linear in its size: many members, long
// escaped strings, nesting up to the cap and past it.
func TestLinearTime(t *testing.T) {
	o := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://app.example/m.webmanifest"}}}
	cases := []struct {
		name string
		n    int
		doc  func(n int) string
	}{
		{"icons", 20000, func(n int) string {
			return `{"icons":[` + strings.Repeat(`{"src":"i.png","sizes":"48x48"},`, n) + `{"src":"z.png"}]}`
		}},
		{"escaped string", 100000, func(n int) string {
			return `{"start_url":"` + strings.Repeat(`\u0061\/`, n) + `"}`
		}},
		{"nested arrays", 100000, func(n int) string {
			return `{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			docs := map[int]string{c.n: c.doc(c.n), 2 * c.n: c.doc(2 * c.n)}
			testkit.Linear(t, c.n, 2.5, func(n int) {
				Rewrite(io.Discard, strings.NewReader(docs[n]), o)
				Links(strings.NewReader(docs[n]), o, func(link.Link) error { return nil })
			})
		})
	}
}
