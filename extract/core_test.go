package extract_test

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestCoreServesEveryKind: the document's core (link.Document: the spec
// and base layers), filled once as a caller of the HTML reader fills it,
// gives every link of every kind its resolved URL, none "relative
// reference with no base URL". Before the core, extract.Options held the
// spec and context in five per-reader parts, and filling the HTML one
// (harvest's Example) left a manifest's, a module's and an SVG's links
// without a URL: this test cannot be written against that API.
func TestCoreServesEveryKind(t *testing.T) {
	o := extract.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://example.org/app/doc"}}}
	for _, c := range []struct {
		kind base.Format
		doc  string
		want []string
	}{
		{base.HTML, `<a href="a.html">a</a>`, []string{"https://example.org/app/a.html"}},
		{base.CSS, `a { background: url(bg.png) }`, []string{"https://example.org/app/bg.png"}},
		{base.Manifest, `{"start_url": "start.html", "icons": [{"src": "icon.png"}]}`,
			[]string{"https://example.org/app/start.html", "https://example.org/app/icon.png"}},
		{base.Module, `import x from "./dep.mjs"; import("../lazy.mjs")`,
			[]string{"https://example.org/app/dep.mjs", "https://example.org/lazy.mjs"}},
		{base.XML, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image href="pic.png"/><a xlink:href="../up.svg"/></svg>`,
			[]string{"https://example.org/app/pic.png", "https://example.org/up.svg"}},
		{base.XML, `<feed xmlns="http://www.w3.org/2005/Atom"><link href="entries/1"/></feed>`, []string{"https://example.org/app/entries/1"}},
	} {
		t.Run(c.kind.String(), func(t *testing.T) {
			var got []string
			_, err := extract.Links(strings.NewReader(c.doc), c.kind, o, func(l link.Link) error {
				if l.Err != nil {
					t.Errorf("%q: %v", l.Raw, l.Err)
				}
				got = append(got, l.URL)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("links %q, want %q", got, c.want)
			}
		})
	}
}
