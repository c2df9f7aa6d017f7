package htmlrewrite

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"

	"github.com/relurl/relurl/resolve"
)

func whatwgOptions() Options {
	opts := testOptions()
	opts.Spec = resolve.WHATWG
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
