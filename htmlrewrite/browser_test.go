package htmlrewrite

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// Tests of where the HTML path could depart from the URL and HTML
// Standards (checked against Chromium and WPT).

// legacyDocument returns s encoded in the encoding name as WPT's
// url/resources/percent-encoding.py writes it: a code point the encoding
// lacks becomes a numeric character reference, which the HTML tokenizer
// decodes back to that code point. (x/text's gb18030 encoder predates the
// Encoding Standard's "if code point is U+E5E5, return error with code
// point"; the helper follows the Standard.)
func legacyDocument(t *testing.T, name, s string) string {
	t.Helper()
	enc, err := htmlindex.Get(name)
	require.NoError(t, err, name)
	var b strings.Builder
	for _, r := range s {
		e, err := enc.NewEncoder().String(string(r))
		if err != nil || r == utf8.RuneError || name == "gb18030" && r == 0xE5E5 {
			fmt.Fprintf(&b, "&#%d;", r)
			continue
		}
		b.WriteString(e)
	}
	return b.String()
}

// TestQueryEncodingUnencodable: URL Standard §1.3 "percent-encode after
// encoding", step 3.3: a code point the document's encoding cannot encode
// is written "%26%23" + its decimal value + "%3B" in the query of a
// special URL (encoding-parse a URL, HTML Standard §2.4.2, hands the
// parser the document's encoding). The case: in a windows-1252
// page, <a href="?q=中"> is ?q=%26%2320013%3B, not ?q=&%2320013; (what an
// encoder that writes &#NNNN; itself gave). Neighbours: encodable
// characters use the encoding, the path and the fragment stay UTF-8, a
// non-special scheme's query is UTF-8, and rewrite writes the same URL.
func TestQueryEncodingUnencodable(t *testing.T) {
	const page = "https://example.com/dir/page.html"
	opts := Options{
		Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: page}, ContentType: "text/html; charset=windows-1252"},
	}
	cases := []struct{ name, href, want string }{
		{"the issue: 中 in the query", "?q=中", "https://example.com/dir/page.html?q=%26%2320013%3B"},
		{"written as a reference", "?q=&#20013;", "https://example.com/dir/page.html?q=%26%2320013%3B"},
		{"astral code point", "?q=😀", "https://example.com/dir/page.html?q=%26%23128512%3B"},
		{"encodable é", "?q=é", "https://example.com/dir/page.html?q=%E9"},
		{"encodable € (0x80)", "?q=€", "https://example.com/dir/page.html?q=%80"},
		{"mixed", "?a=é中b", "https://example.com/dir/page.html?a=%E9%26%2320013%3Bb"},
		{"path is UTF-8", "中?q=中", "https://example.com/dir/%E4%B8%AD?q=%26%2320013%3B"},
		{"fragment is UTF-8", "x#中", "https://example.com/dir/x#%E4%B8%AD"},
		{"non-special scheme: UTF-8 query", "foo://h/?q=中", "foo://h/?q=%E4%B8%AD"},
		{"ws: UTF-8 query", "ws://h/?q=中", "ws://h/?q=%E4%B8%AD"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := "<a href=\"" + legacyDocument(t, "windows-1252", c.href) + "\">x</a>"
			links, _ := collect(t, doc, opts)
			require.Len(t, links, 1)
			assert.Equal(t, c.want, links[0].URL)
			// Rewrite writes the same URL (ASCII, so the same bytes).
			got, st := rewrite(t, doc, opts)
			assert.Equal(t, "windows-1252", st.Charset)
			if !strings.Contains(c.href, "://") {
				assert.Equal(t, "<a href=\""+c.want+"\">x</a>", got)
			}
		})
	}
	// A value Options.Map writes outside ASCII still goes into the
	// document as character references where the encoding lacks them
	// (HTML serialization), not as percent-encoding.
	mopts := opts
	mopts.Map = func(link.Link) (string, bool) { return "中é", true }
	got, _ := rewrite(t, `<a href="x">x</a>`, mopts)
	assert.Equal(t, "<a href=\"&#20013;\xe9\">x</a>", got)
}

// TestWPTPercentEncodingThroughHTML runs WPT url/percent-encoding.json the
// way WPT's url/percent-encoding.window.js does: a document served as
// "text/html;charset=ENC" holding
// <a href="https://doesnotmatter.invalid/?INPUT#INPUT">, INPUT encoded in
// ENC with numeric character references for what ENC lacks; the link's
// query must be the expected output for ENC, its fragment the UTF-8 one.
// The ASCII-incompatible iso-2022-jp is not an encoding htmlrewrite reads
// a document in (it is covered by resolve's TestWPTPercentEncoding).
func TestWPTPercentEncodingThroughHTML(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "wpt-url", "percent-encoding.json"))
	require.NoError(t, err)
	var units []json.RawMessage
	require.NoError(t, json.Unmarshal(data, &units))
	seen := map[string]int{}
	for _, raw := range units {
		var c struct {
			Input  string            `json:"input"`
			Output map[string]string `json:"output"`
		}
		if json.Unmarshal(raw, &c) != nil {
			continue // a comment
		}
		for name, want := range c.Output {
			if name == "iso-2022-jp" {
				continue
			}
			seen[name]++
			t.Run(fmt.Sprintf("%s/%+q", name, c.Input), func(t *testing.T) {
				v := legacyDocument(t, name, c.Input)
				doc := "<!doctype html>\n<a href=\"https://doesnotmatter.invalid/?" + v + "#" + v + "\">test</a>\n"
				links, _ := collect(t, doc, Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG}, ContentType: "text/html;charset=" + name}})
				require.Len(t, links, 1)
				require.NoError(t, links[0].Err)
				u, err := resolve.ParseWebURL(links[0].URL, nil, resolve.Options{})
				require.NoError(t, err)
				assert.Equal(t, "?"+want, u.Search(), "query")
				assert.Equal(t, "#"+c.Output["utf-8"], u.Hash(), "fragment")
			})
		}
	}
	// The issue names these encodings; the data holds each of them.
	for _, name := range []string{"windows-1252", "big5", "shift_jis", "euc-kr", "iso-8859-2", "gb18030", "utf-8"} {
		assert.Positive(t, seen[name], name)
	}
}

// TestObjectDataIgnoresCodebase: HTML Standard §4.8.7 (the object
// element): data is "a valid non-empty URL potentially surrounded by
// spaces", parsed relative to the node document; codebase is obsolete
// (§16.2 "Non-conforming features"). So in the WHATWG mode <object data>
// resolves against the document base, not against codebase; the RFC modes
// keep HTML 4.01 §13.3 ("codebase: base URI for classid, data, archive"),
// and codebase stays the base of classid and archive, which only HTML 4.01
// defines.
func TestObjectDataIgnoresCodebase(t *testing.T) {
	const doc = `<object codebase="/cb/" data="o.swf" classid="c.class" archive="a.jar">`
	cases := []struct {
		spec                  resolve.Spec
		doc                   string
		data, classid, archiv string
	}{
		{resolve.WHATWG, doc, "http://ex.com/dir/o.swf", "http://ex.com/cb/c.class", "http://ex.com/cb/a.jar"},
		{resolve.RFC3986, doc, "http://ex.com/cb/o.swf", "http://ex.com/cb/c.class", "http://ex.com/cb/a.jar"},
		{resolve.RFC1808, doc, "http://ex.com/cb/o.swf", "http://ex.com/cb/c.class", "http://ex.com/cb/a.jar"},
		// Neighbours: the document base is the <base href> where there is
		// one; without codebase every mode uses the document base.
		{resolve.WHATWG, `<base href="/b/">` + doc, "http://ex.com/b/o.swf", "http://ex.com/cb/c.class", "http://ex.com/cb/a.jar"},
		{resolve.WHATWG, `<object data="o.swf" classid="c.class" archive="a.jar">`, "http://ex.com/dir/o.swf", "http://ex.com/dir/c.class", "http://ex.com/dir/a.jar"},
		{resolve.RFC3986, `<object data="o.swf" classid="c.class" archive="a.jar">`, "http://ex.com/dir/o.swf", "http://ex.com/dir/c.class", "http://ex.com/dir/a.jar"},
	}
	for _, c := range cases {
		t.Run(c.spec.String()+" "+c.doc, func(t *testing.T) {
			opts := Options{Document: link.Document{Context: base.Context{Spec: c.spec, Retrieval: "http://ex.com/dir/page.html"}}}
			links, _ := collect(t, c.doc, opts)
			got := map[string]string{}
			for _, l := range links {
				got[l.Attr] = l.URL
			}
			assert.Equal(t, c.data, got["data"], "data")
			assert.Equal(t, c.classid, got["classid"], "classid")
			assert.Equal(t, c.archiv, got["archive"], "archive")
			out, _ := rewrite(t, c.doc, opts)
			assert.Contains(t, out, `data="`+c.data+`"`)
		})
	}
}

// TestRawAsWritten: Link.Raw is "the value as written, character
// references decoded" — not trimmed. The HTML Standard's URL attributes
// hold "a valid URL potentially surrounded by spaces" (§2.4.1): the spaces
// are part of the value, and the URL parser strips them (URL Standard
// §4.4 basic URL parser, steps 1 and 3: leading and trailing C0 control or
// space, then tab and newline). The case is href="  page.html  ".
func TestRawAsWritten(t *testing.T) {
	const d = "http://ex.com/dir/"
	opts := whatwgOptions()
	cases := []struct {
		name, doc, raw, url string
		col                 int
	}{
		{"the issue: spaces around", `<a href="  page.html  ">`, "  page.html  ", d + "page.html", 10},
		{"tab and newline inside", "<a href=\"pa\tge\n.html\">", "pa\tge\n.html", d + "page.html", 10},
		{"character references decoded", `<a href="&#32;page.html&Tab;">`, " page.html\t", d + "page.html", 10},
		{"form feed and CR around", "<a href=\"\fx.html\r\n\">", "\fx.html\n", d + "x.html", 10},
		{"unquoted: no spaces to keep", `<a href=page.html>`, "page.html", d + "page.html", 9},
		{"only spaces: the base", `<a href="   ">`, "   ", "http://ex.com/dir/page.html?q", 10},
		// Values holding several URLs: each URL's own characters.
		{"srcset candidate", `<img srcset="  a.png 1x, b.png 2x">`, "a.png", d + "a.png", 16},
		{"refresh URL", `<meta http-equiv=refresh content="0; url= r.html ">`, "r.html ", d + "r.html", 43},
		{"css url() string with spaces", `<p style="background:url(' a.png ')">`, " a.png ", d + "a.png", 27},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			links, _ := collect(t, c.doc, opts)
			require.NotEmpty(t, links)
			l := links[0]
			assert.Equal(t, c.raw, l.Raw)
			assert.Equal(t, c.url, l.URL)
			assert.Equal(t, c.col, l.Column, "column of the value's first byte")
			assert.Equal(t, int64(c.col-1), l.Offset)
		})
	}
	// Rewriting still replaces only the reference, keeping the spaces.
	got, st := rewrite(t, `<a href="  page.html  ">`, opts)
	assert.Equal(t, `<a href="  `+d+`page.html  ">`, got)
	assert.Equal(t, 1, st.Rewritten)
	// Map returning Link.Raw leaves the value as written.
	mopts := opts
	mopts.Map = func(l link.Link) (string, bool) { return l.Raw, true }
	got, st = rewrite(t, `<a href="  page.html  "><img srcset=" a.png 1x">`, mopts)
	assert.Equal(t, `<a href="  page.html  "><img srcset=" a.png 1x">`, got)
	assert.Zero(t, st.Rewritten)
}

// enc16 encodes s (which may hold lone surrogates written as
// "\xed\xa0\x80"-style generalized UTF-8) as UTF-16, little- or big-endian.
func enc16(s string, big bool) string {
	var b []byte
	c := utf16Codec{big: big}
	for p := []byte(s); len(p) > 0; {
		r, n := decodeGeneralized(p)
		p = p[n:]
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			b = c.appendUnit(c.appendUnit(b, uint16(hi)), uint16(lo))
		} else {
			b = c.appendUnit(b, uint16(r))
		}
	}
	return string(b)
}

// TestUTF16: browsers read UTF-16 pages (HTML Standard §13.2.3.1: a BOM,
// or the transport layer's charset; the Encoding Standard's UTF-16LE and
// UTF-16BE decoders). relurl decodes them, rewrites them and encodes them
// back: every byte outside a changed value stays as it was, the BOM, lone
// surrogates and an odd last byte included; links report offsets and
// columns in the document's own bytes. Before, they were refused
// (ErrEncoding).
func TestUTF16(t *testing.T) {
	const d = "http://ex.com/dir/"
	const lone = "\xed\xa0\x80" // U+D800 alone
	cases := []struct {
		name, contentType string
		big               bool
		in, want          string
	}{
		{"LE with BOM", "", false, "\uFEFF<p>é😀</p><a href=\"x.html\">", "\uFEFF<p>é😀</p><a href=\"" + d + "x.html\">"},
		{"BE with BOM", "", true, "\uFEFF<a href='x.html'>中</a>", "\uFEFF<a href='" + d + "x.html'>中</a>"},
		{"LE by Content-Type", "text/html; charset=utf-16le", false, "<a href=x.html>", "<a href=" + d + "x.html>"},
		{"utf-16 label is LE", "text/html; charset=utf-16", false, "<a href=x.html>", "<a href=" + d + "x.html>"},
		{"BE by Content-Type", "text/html; charset=UTF-16BE", true, "<img src=i.png srcset=\"a.png 1x, b.png 2x\">", "<img src=" + d + "i.png srcset=\"" + d + "a.png 1x, " + d + "b.png 2x\">"},
		{"the BOM outranks Content-Type", "text/html; charset=windows-1252", false, "\uFEFF<a href=x.html>", "\uFEFF<a href=" + d + "x.html>"},
		{"lone surrogates kept", "", false, "\uFEFF" + lone + "<p title=\"" + lone + "\"><a href=x.html>\xed\xbf\xbf", "\uFEFF" + lone + "<p title=\"" + lone + "\"><a href=" + d + "x.html>\xed\xbf\xbf"},
		{"nothing to change", "", true, "\uFEFF<p>é😀" + lone + "</p><a href=\"https://x.example/\">", ""},
		{"a base element", "", false, "\uFEFF<base href=\"/b/\"><a href=x.html>", "\uFEFF<base href=\"/b/\"><a href=http://ex.com/b/x.html>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want == "" {
				want = c.in
			}
			opts := testOptions()
			opts.ContentType = c.contentType
			in := enc16(c.in, c.big)
			got, st := rewrite(t, in, opts)
			assert.Equal(t, enc16(want, c.big), got)
			assert.Contains(t, st.Charset, "utf-16")
			// An odd last byte is kept too.
			got, _ = rewrite(t, in+"\x3c", opts)
			assert.Equal(t, enc16(want, c.big)+"\x3c", got)
		})
	}
	// The BOM decides UTF-16BE; a <meta> declaring UTF-16 does not (the
	// prescan reads it as UTF-8), so such a page is read as ASCII bytes.
	got, st := rewrite(t, `<meta charset=utf-16><a href=x.html>`, testOptions())
	assert.Equal(t, `<meta charset=utf-16><a href=`+d+`x.html>`, got)
	assert.Equal(t, "utf-8", st.Charset)
}

// TestUTF16Links: links of a UTF-16 page, with offsets and columns in the
// page's bytes (two per code unit, four for an astral code point), its
// <base>, and a lone surrogate read as U+FFFD as the Encoding Standard's
// decoder reads it.
func TestUTF16Links(t *testing.T) {
	doc := "\uFEFF<p>😀</p>\n<a href=\"x.html\">é</a> <img src=\"\xed\xa0\x80.png\">\n<base href=\"/b/\"><p>😀😀</p><a href='y'>"
	for _, big := range []bool{false, true} {
		links, b := collect(t, enc16(doc, big), whatwgOptions())
		assert.Equal(t, "http://ex.com/b/", b.URL)
		require.Len(t, links, 3)
		// "\uFEFF<p>😀</p>\n" is 1+3+2+4+1 = 11 units; '<a href="' 9 more.
		assert.Equal(t, link.Link{Raw: "x.html", URL: "http://ex.com/b/x.html", Tag: "a", Attr: "href", Kind: link.Navigation, Line: 2, Column: 19, Offset: 40, Base: b}, links[0])
		assert.Equal(t, "http://ex.com/b/%EF%BF%BD.png", links[1].URL)
		assert.Equal(t, 2, links[1].Line)
		// 'x.html">é</a> <img src="' is 24 units.
		assert.Equal(t, int64(40+2*24), links[1].Offset)
		assert.Equal(t, 19+2*24, links[1].Column)
		// Line 3: '<base href="/b/"><p>😀😀</p><a href=\'' is 17+3+4+4+9 units.
		assert.Equal(t, 3, links[2].Line)
		assert.Equal(t, 1+2*37, links[2].Column)
	}
}

// TestUTF16Large: a UTF-16 page larger than the reader's buffers, with
// surrogate pairs across every boundary, goes through unchanged where
// nothing changes, from a stream and from a seekable reader.
func TestUTF16Large(t *testing.T) {
	var b strings.Builder
	b.WriteString("\uFEFF<p>")
	for i := 0; b.Len() < 300<<10; i++ {
		fmt.Fprintf(&b, "x😀%d<a href=\"p%d.html\">é</a>\n", i%7, i)
	}
	doc := b.String()
	want := strings.ReplaceAll(doc, `href="p`, `href="http://ex.com/dir/p`)
	in := enc16(doc, false)
	got, st := rewrite(t, in, testOptions())
	assert.True(t, got == enc16(want, false), "rewritten")
	assert.Positive(t, st.Rewritten)
	var out strings.Builder
	_, err := Rewrite(&out, io.MultiReader(strings.NewReader(in[:7]), strings.NewReader(in[7:])), testOptions())
	require.NoError(t, err)
	assert.True(t, out.String() == enc16(want, false), "rewritten from a stream")
}

// TestWhereChromiumDeparts: where Chromium 156 departs from the URL
// Standard, relurl keeps the Standard's answer, and the WPT case in
// url/resources/urltestdata.json settles it. Each input is read as an
// <a href> of a page (what relurl links --spec whatwg reports) and
// compared with the WPT entry of the same input: its href, or failure
// (Link.Err, the value left as written by rewrite).
func TestWhereChromiumDeparts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "wpt-url", "urltestdata.json"))
	require.NoError(t, err)
	var entries []json.RawMessage
	require.NoError(t, json.Unmarshal(data, &entries))
	type wpt struct {
		Input   string  `json:"input"`
		Base    *string `json:"base"`
		Href    string  `json:"href"`
		Failure bool    `json:"failure"`
	}
	byInput := map[string]wpt{}
	for _, raw := range entries {
		var c wpt
		if json.Unmarshal(raw, &c) == nil && c.Input != "" {
			if _, dup := byInput[c.Input]; !dup {
				byInput[c.Input] = c
			}
		}
	}
	cases := []struct{ why, input string }{
		// A space in a host: a forbidden host code point (URL Standard
		// §3.5 host parsing), so the URL fails; Chromium accepts it.
		{"space in a special host", "http://a b/"},
		{"space in a special host", "http://example example.com"},
		{"space in an opaque host", "sc://a b/"},
		// "\" is a path separator only in special URLs (§4.4 path state)
		// and a forbidden host code point; Chromium treats it otherwise.
		{"backslash in a non-special path", "non-special://host/a\\b"},
		{"backslash in a non-special opaque path", "non-special:\\\\opaque\\path"},
		{"backslash in a non-special host", "non-special://host\\a"},
		{"backslash in an opaque host", "sc://a\\b/"},
		// "|" is a forbidden host code point; "'" is percent-encoded in
		// the query of special URLs only (special-query percent-encode set).
		{"| in an opaque host", "sc://a|b/"},
		{"| after a percent-decoded opaque host", "asdf://%43|/"},
		{"' in a non-special query", "notspecial://host/?'"},
		{"| and ' in a non-special path", "foo://host/ !\"$%&'()*+,-./:;<=>@[\\]^_`{|}~"},
		{"| and ' in a non-special query", "foo://host/dir/? !\"$%&'()*+,-./:;<=>?@[\\]^_`{|}~"},
	}
	for _, c := range cases {
		t.Run(c.why+" "+c.input, func(t *testing.T) {
			w, ok := byInput[c.input]
			require.True(t, ok, "WPT urltestdata.json has %q", c.input)
			page := "http://example.org/dir/page.html"
			if w.Base != nil {
				page = *w.Base
			}
			opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: page}}}
			doc := `<a href="` + strings.NewReplacer("&", "&amp;", `"`, "&quot;").Replace(c.input) + `">x</a>`
			links, _ := collect(t, doc, opts)
			require.Len(t, links, 1)
			if w.Failure {
				assert.Error(t, links[0].Err, "WPT: failure")
				got, _ := rewrite(t, doc, opts)
				assert.Equal(t, doc, got, "a value that fails is left as written")
			} else {
				require.NoError(t, links[0].Err)
				assert.Equal(t, w.Href, links[0].URL)
			}
		})
	}

	// An unparsable <base href>: WPT "http://a b/" says it fails to parse,
	// and the HTML Standard ("set the frozen base URL", step 2: urlRecord
	// is failure) makes the frozen base URL the fallback base URL, the
	// document's URL, where Chromium departs from the Standard.
	require.True(t, byInput["http://a b/"].Failure)
	links, b := collect(t, `<base href="http://a b/"><a href="x.html">x</a>`, Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "http://example.org/dir/page.html"}}})
	assert.Equal(t, "http://example.org/dir/page.html", b.URL)
	assert.Equal(t, base.Retrieval, b.Source)
	assert.Contains(t, strings.Join(b.Warnings, "\n"), "<base href> at line 1 ignored")
	require.Len(t, links, 1)
	assert.Equal(t, "http://example.org/dir/x.html", links[0].URL)
}

// TestTemplateInert: HTML §13.2.6.4.4 ("in head", a start tag whose tag
// name is "template") puts a template's contents in the template contents
// DocumentFragment, whose node document is an inert document (§4.12.3):
// a browser neither fetches nor follows those links until a script clones
// them into the page, where they resolve against the document base. So
// they are reported with Inert set and resolved against the document base
// (what they become when cloned), and rewritten against it too. A
// declarative shadow root (shadowrootmode="open"|"closed") is attached to
// the page instead: not inert. A <template> inside <svg> is an SVG element.
func TestTemplateInert(t *testing.T) {
	doc := `<template><a href="t.html">t</a><template><img src="n.png"></template>` +
		`<base href="/ignored/"><div><iframe srcdoc="&lt;a href=s.html&gt;"></iframe></div></template>` +
		`<template shadowrootmode="open"><a href="open.html">o</a><template><a href="in.html"></a></template></template>` +
		`<template shadowrootmode=CLOSED><a href="closed.html">c</a></template>` +
		`<template><template shadowrootmode="open"><a href="nested.html"></a></template></template>` +
		`<template shadowrootmode="bogus"><a href="bogus.html"></a></template>` +
		`<svg><template><a href="svg.html"/></template></svg>` +
		`<a href="after.html">a</a><base href="/b/">`
	opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "http://ex.com/dir/page.html"}}, Srcdoc: true}
	links, b := collect(t, doc, opts)
	assert.Equal(t, "http://ex.com/b/", b.URL, "the <base> in the template does not count")
	got := map[string]bool{}
	for _, l := range links {
		assert.Equal(t, "http://ex.com/b/", l.URL[:len("http://ex.com/b/")], "resolved against the document base: %s", l.Raw)
		got[l.Raw] = l.Inert
	}
	assert.Equal(t, map[string]bool{
		"t.html": true, "n.png": true, "s.html": true,
		"open.html": false, "in.html": true, "closed.html": false,
		"nested.html": true, "bogus.html": true,
		"svg.html": false, "after.html": false,
	}, got)

	out, _ := rewrite(t, `<template><a href="t.html">t</a></template><base href="/b/">`, opts)
	assert.Equal(t, `<template><a href="http://ex.com/b/t.html">t</a></template><base href="/b/">`, out)
}

// TestRefreshBeforeBase: the refresh pragma resolves its URL when its
// <meta> is inserted (HTML §4.2.5.3 "shared declarative refresh steps",
// step 11, "encoding-parsing a URL given urlString, relative to
// document"), so a <meta http-equiv=refresh> before the first <base href>
// resolves against the document base URL of that moment, the fallback
// (the document's URL); Chromium navigates there. The case is the
// first row. Every other link uses the document's one base.
func TestRefreshBeforeBase(t *testing.T) {
	const refresh = `<meta http-equiv="refresh" content="0; url=r.html">`
	cases := []struct {
		name, doc string
		spec      resolve.Spec
		want      string
	}{
		{"the issue: refresh before <base>", refresh + `<base href="/b/">`, resolve.WHATWG, "http://ex.com/dir/r.html"},
		{"refresh after <base>", `<base href="/b/">` + refresh, resolve.WHATWG, "http://ex.com/b/r.html"},
		{"head refresh, base in the body", `<head>` + refresh + `</head><body><p><base href="/b/">`, resolve.WHATWG, "http://ex.com/dir/r.html"},
		{"a <base> without href before it does not count", `<base target=_top>` + refresh + `<base href="/b/">`, resolve.WHATWG, "http://ex.com/dir/r.html"},
		{"a <base> in a template before it does not count", `<template><base href="/t/"></template>` + refresh + `<base href="/b/">`, resolve.WHATWG, "http://ex.com/dir/r.html"},
		{"a data: base is no base", `<base href="data:,x">` + refresh, resolve.WHATWG, "http://ex.com/dir/r.html"},
		{"no base", refresh, resolve.WHATWG, "http://ex.com/dir/r.html"},
		// The draft: one base for the whole document.
		{"RFC 3986: one base", refresh + `<base href="/b/">`, resolve.RFC3986, "http://ex.com/b/r.html"},
		{"RFC 1808: one base", refresh + `<base href="http://ex.com/b/">`, resolve.RFC1808, "http://ex.com/b/r.html"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{Document: link.Document{Context: base.Context{Spec: c.spec, Retrieval: "http://ex.com/dir/page.html"}}}
			doc := c.doc + `<a href="a.html">a</a>`
			links, b := collect(t, doc, opts)
			require.Len(t, links, 2)
			assert.Equal(t, link.Refresh, links[0].Kind)
			assert.Equal(t, c.want, links[0].URL)
			want, err := resolve.Reference(c.spec, b.URL, "a.html")
			require.NoError(t, err)
			assert.Equal(t, want, links[1].URL, "other links use the document base")
			out, _ := rewrite(t, doc, opts)
			assert.Contains(t, out, `content="0; url=`+c.want+`"`)
		})
	}
}

// TestNoscriptOneReading: the scripting flag (HTML §13.2.2) decides how
// <noscript> is parsed, and one switch, Options.Scripting, decides both
// whether its links are read and whether a <base href> in it counts.
// Before, its links were read as markup (scripting off) while a <base> in
// it was ignored (scripting on). By default relurl reads the document as
// a user agent without scripting, which it is: both count. With Scripting
// (a browser running scripts), neither does.
func TestNoscriptOneReading(t *testing.T) {
	const page = "http://ex.com/dir/page.html"
	cases := []struct {
		name, doc string
		scripting bool
		base      string
		links     []string
	}{
		{"the issue, default", `<noscript><base href="/ns/"><img src="i.png"></noscript><a href="a.html">`, false,
			"http://ex.com/ns/", []string{"http://ex.com/ns/i.png", "http://ex.com/ns/a.html"}},
		{"the issue, scripting", `<noscript><base href="/ns/"><img src="i.png"></noscript><a href="a.html">`, true,
			page, []string{"http://ex.com/dir/a.html"}},
		{"head noscript, default", `<head><noscript><base href="/ns/"><link rel=stylesheet href="s.css"></noscript></head><a href="a.html">`, false,
			"http://ex.com/ns/", []string{"http://ex.com/ns/s.css", "http://ex.com/ns/a.html"}},
		{"head noscript, scripting", `<head><noscript><base href="/ns/"><link rel=stylesheet href="s.css"></noscript></head><a href="a.html">`, true,
			page, []string{"http://ex.com/dir/a.html"}},
		{"a later base, scripting", `<noscript><base href="/ns/"></noscript><base href="/b/"><a href="a.html">`, true,
			"http://ex.com/b/", []string{"http://ex.com/b/a.html"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: page}}, Scripting: c.scripting}
			links, b := collect(t, c.doc, opts)
			assert.Equal(t, c.base, b.URL)
			var urls []string
			for _, l := range links {
				urls = append(urls, l.URL)
			}
			assert.Equal(t, c.links, urls)
			// The rewriter removes the <base> that counted, and only it.
			ropts := opts
			ropts.Base = BaseRemove
			out, _ := rewrite(t, c.doc, ropts)
			assert.Equal(t, !c.scripting, !strings.Contains(out, `<base href="/ns/">`))
		})
	}
}
