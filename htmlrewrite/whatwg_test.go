package htmlrewrite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

func whatwgOptions() Options {
	opts := testOptions()
	opts.Context.Spec = resolve.WHATWG
	return opts
}

// TestWHATWG: the mode the CLI defaults to for HTML. The URL Standard
// strips and percent-encodes where the RFC modes keep bytes.
func TestWHATWG(t *testing.T) {
	const d = "http://ex.com/dir/"
	runCases(t, []rewriteCase{
		{"spaces are percent-encoded", `<a href="a b.html">`, `<a href="` + d + `a%20b.html">`},
		{"backslash is a slash for special schemes", `<a href="\\other.example\x">`, `<a href="http://other.example/x">`},
		{"same-scheme relative form", `<a href="http:foo.html">`, `<a href="http:foo.html">`},
		{"srcset URLs never get whitespace", `<img srcset="a b.png 1x">`, `<img srcset="` + d + `a b.png 1x">`},
		{"&copy= stays", `<a href="x?a=1&copy=2">`, `<a href="` + d + `x?a=1&copy=2">`},
		{"an invalid URL is left as written", `<a href="http://[bad/">`, ""},
		{"css url string with a space", `<p style="background:url('a b.png')">`, `<p style="background:url('` + d + `a%20b.png')">`},
	}, whatwgOptions())
}

// TestWHATWGQueryEncoding: HTML Standard §2.4.2 "encoding-parse a URL":
// the query is percent-encoded in the document's encoding (here
// windows-1251), the path in UTF-8 (notes §4 "Encoding", elinks#221).
func TestWHATWGQueryEncoding(t *testing.T) {
	enc := charmap.Windows1251.NewEncoder()
	doc, err := enc.String(`<meta charset="windows-1251"><a href="поиск?q=тест">`)
	require.NoError(t, err)
	got, st := rewrite(t, doc, whatwgOptions())
	assert.Equal(t, "windows-1251", st.Charset)
	want, err := enc.String(`<meta charset="windows-1251"><a href="http://ex.com/dir/%D0%BF%D0%BE%D0%B8%D1%81%D0%BA?q=%F2%E5%F1%F2">`)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestBaseHrefInDocumentEncoding: a <base href> is text of the document,
// so in WHATWG mode a windows-1252 page's "caf\xe9" is "café", and the
// base path "caf%C3%A9" (the URL Standard encodes paths as UTF-8), as for
// the page's other links.
func TestBaseHrefInDocumentEncoding(t *testing.T) {
	doc := "<meta charset=windows-1252><base href=\"/caf\xe9/\"><a href=\"x\">x</a><a href=\"/caf\xe9/y\">y</a>"
	var links []link.Link
	b, err := Links(strings.NewReader(doc), Options{
		Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://example.com/dir/page.html"}},
	}, func(l link.Link) error { links = append(links, l); return nil })
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/caf%C3%A9/", b.URL)
	require.Len(t, links, 2)
	assert.Equal(t, "https://example.com/caf%C3%A9/x", links[0].URL)
	assert.Equal(t, "https://example.com/caf%C3%A9/y", links[1].URL)
}
