package htmlrewrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/japanese"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestRewriteCSS: a stylesheet's URLs resolve against its own URL (CSS
// 2.1 §4.3.4); a "</style" in it is no concern outside HTML.
func TestRewriteCSS(t *testing.T) {
	opts := testOptions()
	opts.Context.Retrieval = "http://ex.com/css/site.css"
	in := "@import 'a.css';\n@namespace url(http://ns);\nb{c:url(../img/x.png)} /* </style> */ d{e:url(#f)}"
	var out bytes.Buffer
	st, err := RewriteCSS(&out, strings.NewReader(in), opts)
	require.NoError(t, err)
	assert.Equal(t, "@import 'http://ex.com/css/a.css';\n@namespace url(http://ns);\nb{c:url(http://ex.com/img/x.png)} /* </style> */ d{e:url(#f)}", out.String())
	assert.Equal(t, 2, st.Rewritten)

	var links []link.Link
	b, err := CSSLinks(strings.NewReader(in), opts, func(l link.Link) error { links = append(links, l); return nil })
	require.NoError(t, err)
	assert.Equal(t, "http://ex.com/css/site.css", b.URL)
	require.Len(t, links, 2)
	assert.Equal(t, link.Link{Raw: "../img/x.png", URL: "http://ex.com/img/x.png", Kind: link.CSS, Line: 3, Column: 9, Offset: 52, Base: b}, links[1])
}

func TestRewriteCSSCharset(t *testing.T) {
	enc := japanese.ShiftJIS.NewEncoder()
	in, err := enc.String(`a{b:url(表.png)}`)
	require.NoError(t, err)
	opts := whatwgOptions()
	opts.ContentType = "text/css; charset=Shift_JIS"
	var out bytes.Buffer
	_, err = RewriteCSS(&out, strings.NewReader(in), opts)
	require.NoError(t, err)
	want, err := enc.String(`a{b:url(http://ex.com/dir/%E8%A1%A8.png)}`)
	require.NoError(t, err)
	assert.Equal(t, want, out.String())

	opts.ContentType = "text/css; charset=utf-16"
	_, err = RewriteCSS(&out, strings.NewReader(in), opts)
	assert.ErrorIs(t, err, ErrEncoding)
}

func TestRewriteCSSTooLarge(t *testing.T) {
	opts := testOptions()
	opts.MaxSize = 10
	in := "a{b:url(x.png)} c{d:url(y.png)}"
	var out bytes.Buffer
	_, err := RewriteCSS(&out, strings.NewReader(in), opts)
	var e *link.IncompleteError
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "a CSS rule", e.What)
	assert.Equal(t, in, out.String())

	// A sheet longer than MaxSize streams, one rule at a time; so do
	// its links.
	opts.MaxSize = 64
	in = strings.Repeat("a{b:url(x.png)}\n", 10000)
	out.Reset()
	st, err := RewriteCSS(&out, strings.NewReader(in), opts)
	require.NoError(t, err)
	assert.Equal(t, strings.ReplaceAll(in, "x.png", "http://ex.com/dir/x.png"), out.String())
	assert.Equal(t, 10000, st.Rewritten)
	var lines []int
	_, err = CSSLinks(strings.NewReader(in), opts, func(l link.Link) error { lines = append(lines, l.Line); return nil })
	require.NoError(t, err)
	require.Len(t, lines, 10000)
	assert.Equal(t, 10000, lines[9999])

	// In a legacy encoding the sheet is held whole: over MaxSize it is
	// refused by name, copied as written.
	opts.ContentType = "text/css; charset=windows-1252"
	out.Reset()
	_, err = RewriteCSS(&out, strings.NewReader(in), opts)
	var tl *link.TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.ErrorIs(t, err, link.ErrIncomplete)
	assert.Equal(t, in, out.String())
}

// TestSheetEncoding: the stylesheet is read in the encoding the open
// step decides (base.SheetEncoding, CSS Syntax §3.2, whose table test is
// base's TestSheetEncoding).
func TestSheetEncoding(t *testing.T) {
	// The URL of a KOI8-R sheet that says so only in @charset: 0xE9 is И.
	opts := whatwgOptions()
	var out bytes.Buffer
	_, err := RewriteCSS(&out, strings.NewReader("@charset \"koi8-r\"; a{b:url(\xe9)}"), opts)
	require.NoError(t, err)
	assert.Equal(t, "@charset \"koi8-r\"; a{b:url(http://ex.com/dir/%D0%98)}", out.String())
	// The environment (a windows-1251 page's sheet): 0xE9 is й there;
	// the protocol's charset comes before it.
	for _, c := range []struct{ contentType, want string }{
		{"", "a{b:url(http://ex.com/dir/%D0%B9)}"},
		{"text/css; charset=koi8-r", "a{b:url(http://ex.com/dir/%D0%98)}"},
	} {
		out.Reset()
		o := opts
		o.SheetEnvironment, o.ContentType = "windows-1251", c.contentType
		_, err = RewriteCSS(&out, strings.NewReader("a{b:url(\xe9)}"), o)
		require.NoError(t, err)
		assert.Equal(t, c.want, out.String())
	}
	// SheetCharset: the open step's decision is taken as it is, not
	// made again from @charset, ContentType or the environment.
	out.Reset()
	o := opts
	o.SheetCharset, o.ContentType, o.SheetEnvironment = "windows-1251", "text/css; charset=koi8-r", "iso-8859-2"
	_, err = RewriteCSS(&out, strings.NewReader("@charset \"koi8-r\"; a{b:url(\xe9)}"), o)
	require.NoError(t, err)
	assert.Equal(t, "@charset \"koi8-r\"; a{b:url(http://ex.com/dir/%D0%B9)}", out.String())
	o.SheetCharset = "utf-16le"
	_, err = RewriteCSS(&out, strings.NewReader("a{}"), o)
	assert.ErrorIs(t, err, ErrEncoding)
	_, err = RewriteCSS(&out, strings.NewReader("\xff\xfea\x00"), opts)
	assert.ErrorIs(t, err, ErrEncoding)
}

// TestCSSLinksIssue15 follows docs/formats.md §10 checklist #2–#4: escaped
// "url" names (CSS Syntax §4.3.11 consume a name, §4.3.7 escapes), comments
// inside an unquoted url (§4.3.6), image-set()'s type() string (CSS Images
// 4 §2.2) and @font-face src's local() (CSS Fonts 4 §4.3), which are not URLs.
func TestCSSLinksIssue15(t *testing.T) {
	sheet := `a{b:u\72 l(x.png)} c{d:url(/*x*/a.png)} e{b:\75 rl(y.png)} f{fill:url(#g)} g{c:url()} @namespace s url(http://www.w3.org/2000/svg);` +
		`h{background:-webkit-image-set("a.avif" type("image/avif") 1x, url(b.png) 2x)} @font-face{src:local("F"),url(f.woff2) format("woff2")}`
	var got []string
	_, err := CSSLinks(strings.NewReader(sheet), Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://cdn.example/assets/css/site.css"}}}, func(l link.Link) error {
		got = append(got, l.URL)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://cdn.example/assets/css/x.png", "https://cdn.example/*x*/a.png", "https://cdn.example/assets/css/y.png",
		"https://cdn.example/assets/css/a.avif", "https://cdn.example/assets/css/b.png", "https://cdn.example/assets/css/f.woff2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// BenchmarkRewriteCSS: MB/s of a stand-alone stylesheet.
func BenchmarkRewriteCSS(b *testing.B) {
	chunk := "@import url(\"reset.css\");\n.a { background: url(../img/bg.png) no-repeat; color: #fff }\n/* url(c.png) */\n.b { background-image: image-set(\"a.avif\" type(\"image/avif\") 1x, url(b.png) 2x) }\n@font-face { font-family: F; src: local(\"F\"), url(f.woff2) format(\"woff2\") }\n.c { fill: url(#g); margin: 0 auto; padding: 1px 2px 3px 4px }\n"
	sheet := strings.Repeat(chunk, 3000)
	opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://cdn.example/assets/css/site.css"}}}
	b.SetBytes(int64(len(sheet)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RewriteCSS(io.Discard, strings.NewReader(sheet), opts); err != nil {
			b.Fatal(err)
		}
	}
}
