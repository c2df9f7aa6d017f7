package htmlrewrite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/japanese"

	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestRegressions: the bugs of notes §4 (and §7's golden list) that a
// rewriter can have.
func TestRegressions(t *testing.T) {
	const d = "http://ex.com/dir/"
	runCases(t, []rewriteCase{
		// axitkhurana/buster#94: wget's srcset offsets drift by one byte
		// per newline or entity ("logo_big-1.pngg 600w").
		{"srcset offset drift: multi-line", "<img srcset=\"a.png 300w,\n    logo_big-1.png 600w,\r\n    logo_big-2.png 1000w\">", "<img srcset=\"" + d + "a.png 300w,\n    " + d + "logo_big-1.png 600w,\r\n    " + d + "logo_big-2.png 1000w\">"},
		{"srcset offset drift: entities", `<img srcset="a.png?x=1&amp;y=2 1x,&#10;b.png 2x">`, `<img srcset="` + d + `a.png?x=1&amp;y=2 1x,&#10;` + d + `b.png 2x">`},
		{"srcset: comma-URLs and data:", `<img srcset="c_scale,w_300/x.jpg 300w, data:image/gif;base64,R0lGOD,lhAQ 1x,a.png,b.png">`, `<img srcset="` + d + `c_scale,w_300/x.jpg 300w, data:image/gif;base64,R0lGOD,lhAQ 1x,` + d + `a.png,b.png">`},
		{"srcset: descriptors with parens and commas kept", `<img srcset="a.png (x, y) 1x,b.png">`, `<img srcset="` + d + `a.png (x, y) 1x,` + d + `b.png">`},
		// vercel/next.js#7045, golang/go#17667: attribute-mode decoding.
		{"&copy= stays in the query", `<a href="x.html?a=1&copy=2">`, `<a href="` + d + `x.html?a=1&copy=2">`},
		{"&amp=1 and &notit; are not references", `<a href="y?x&amp=1&notit;">`, `<a href="` + d + `y?x&amp=1&notit;">`},
		{"&amp; style is kept", `<A HREF = 'x.html?a=1&amp;b=2&copy=3'>`, `<A HREF = '` + d + `x.html?a=1&amp;b=2&copy=3'>`},
		{"a URL after a reference without \";\" (&quot, &#34): the value is written whole, so the reference reads the same", `<a style="b:url(&quot)x&quot" title=t><i style="b:url(&#34a&#34)">`, `<a style="b:url(&#34;` + d + `)x&#34;" title=t><i style="b:url(&#34;` + d + `a&#34;)">`},
		{"a srcset URL after &#44 (a comma)", `<img srcset="a.png 1x&#44b.png 2x">`, `<img srcset="` + d + `a.png 1x,` + d + `b.png 2x">`},
		{"a changed value with other references is re-escaped", `<a href="&#x2e;/x?a&amp;b">`, `<a href="` + d + `x?a&amp;b">`},
		// gocolly/colly#589, scrapy/w3lib#133: whitespace in href.
		{"whitespace around and inside href", "<a href=\"\n  /intl/ru_ALL\n/drive/\t\">", "<a href=\"\n  http://ex.com/intl/ru_ALL/drive/\t\">"},
		{"leading space", `<a href=" a.html">`, `<a href=" ` + d + `a.html">`},
		// peterbe/premailer#5, #140; Polymer/tools#1667: special schemes.
		{"mailto: and tel: are not paths", `<a href="mailto:a@b.c">m</a><a href="tel:12345">t</a><a href="MAILTO:x">`, ""},
		// esigate/esigate#87: never inside script.
		{"script content is not markup", `<script>document.write('<scr'+'ipt src="'+u+'"></scr'+'ipt><a href="s.html">')</script><a href="a">`, `<script>document.write('<scr'+'ipt src="'+u+'"></scr'+'ipt><a href="s.html">')</script><a href="` + d + `a">`},
		{"nor in textarea, title, xmp, comments", `<textarea><a href="t"></textarea><title><a href="t"></title><xmp><a href="t"></xmp><!-- <a href="c"> -->`, ""},
		{"IE conditional comments stay; downlevel-revealed content is markup", `<!--[if IE]><link href="ie.css"><![endif]--><![if !IE]><a href="x"><![endif]>`, `<!--[if IE]><link href="ie.css"><![endif]--><![if !IE]><a href="` + d + `x"><![endif]>`},
		// x/net v0.55.0+ and browsers: the first of duplicate attributes.
		{"duplicate attributes: only the first counts", `<a href="one" HREF="two">`, `<a href="` + d + `one" HREF="two">`},
		// golang/go#46651, soulgalore/crawler#12: case and line breaks.
		{"uppercase names and newlines in the tag", "<IMG\nSRC='i.png'\nALT=x>", "<IMG\nSRC='" + d + "i.png'\nALT=x>"},
		{"unquoted values get quotes only when needed", `<a href=a/b/>x</a><img src=i.png alt=y><a href=x?a=b>`, `<a href=` + d + `a/b/>x</a><img src=` + d + `i.png alt=y><a href=` + d + `x?a=b>`},
		{"unquoted values get quotes when the new text needs them", `<a href=../x>`, `<a href=http://ex.com/x>`},
		{"a bare attribute is the base URL for a href", `<a href>x</a><a href="">y</a><img src="">`, `<a href="http://ex.com/dir/page.html?q">x</a><a href="http://ex.com/dir/page.html?q">y</a><img src="">`},
		{"single quotes and a quote in the URL", `<a href='it&apos;s.html'>`, `<a href='` + d + `it&apos;s.html'>`},
		{"a quote the resolution brings is escaped", `<a href='../it&apos;s/x'>`, `<a href='http://ex.com/it&#39;s/x'>`},
		{"an unquoted value keeps what the author wrote in it", `<a href=a"b?c=d>`, `<a href=` + d + `a"b?c=d>`},
		{"an empty value after =", `<a href=>x</a><a href= >y</a>`, `<a href=http://ex.com/dir/page.html?q>x</a><a href= http://ex.com/dir/page.html?q>y</a>`},
		{"unterminated tag at EOF", `<a href="x">x</a><img src="y`, `<a href="` + d + `x">x</a><img src="y`},
		{"noscript holds markup", `<noscript><img src="lazy.png"></noscript>`, `<noscript><img src="` + d + `lazy.png"></noscript>`},
		{"svg title is an integration point", `<svg><title><a href="z">z</a></title></svg>`, `<svg><title><a href="` + d + `z">z</a></title></svg>`},
		{"svg CDATA hides tags", `<svg><![CDATA[<a href="q">]]></svg><a href="q">`, `<svg><![CDATA[<a href="q">]]></svg><a href="` + d + `q">`},
		{"svg fragment-only href stays", `<svg><use href="#i"/><rect style="fill:url(#g)"/></svg>`, ""},
		{"NUL and CR in a value", "<a href=\"a\x00b\r\nc\">", "<a href=\"" + d + "a\uFFFDbc\">"},
		{"a leading = is part of the name", `<a =href="x" href="y">`, `<a =href="x" href="` + d + `y">`},
		{"end tags are never rewritten", `</a href="x">`, ""},
		{"self-closing after an unquoted value", `<a href=x/>`, `<a href=` + d + `x/>`},
	}, testOptions())
}

// TestQuoting: a new value is escaped for its quote; an unquoted value
// gets quotes when the new text needs them, and the quote it does not
// hold.
func TestQuoting(t *testing.T) {
	opts := testOptions()
	opts.Context.Retrieval = "http://ex.com/it's a/page"
	runCases(t, []rewriteCase{
		{"double quotes", `<a href="x">`, `<a href="http://ex.com/it's a/x">`},
		{"single quotes", `<a href='x'>`, `<a href='http://ex.com/it&#39;s a/x'>`},
		{"unquoted", `<a href=x>`, `<a href="http://ex.com/it's a/x">`},
		{"unquoted holding a double quote", `<a href=x"y>`, `<a href='http://ex.com/it&#39;s a/x"y'>`},
		{"ampersands", `<a href="x?a&b">`, `<a href="http://ex.com/it's a/x?a&b">`},
	}, opts)
	opts.Context.Retrieval = "http://ex.com/a&b/page"
	runCases(t, []rewriteCase{
		{"an ampersand the resolution brings", `<a href="x">`, `<a href="http://ex.com/a&amp;b/x">`},
	}, opts)
}

// TestNoscriptOption: Scripting reads <noscript> as a browser with
// scripting on does: raw text.
func TestNoscriptOption(t *testing.T) {
	opts := testOptions()
	opts.Scripting = true
	in := `<noscript><img src="lazy.png"></noscript>`
	got, _ := rewrite(t, in, opts)
	assert.Equal(t, in, got)
}

// TestShiftJIS: notes §5.6 — Shift_JIS trail bytes include 0x5C ("\"),
// which a URL parser would take for "/"; values are decoded before
// resolving, and the document's other bytes are untouched.
func TestShiftJIS(t *testing.T) {
	enc := japanese.ShiftJIS.NewEncoder()
	body, err := enc.String(`<meta charset="shift_jis"><p>表</p><a href="表/a.html">表</a><a href="x.html">x</a>`)
	require.NoError(t, err)
	require.Contains(t, body, "\x95\x5c", "表 is 95 5C in Shift_JIS")
	got, st := rewrite(t, body, testOptions())
	assert.Equal(t, "shift_jis", st.Charset)
	want, err := enc.String(`<meta charset="shift_jis"><p>表</p><a href="http://ex.com/dir/表/a.html">表</a><a href="http://ex.com/dir/x.html">x</a>`)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	var links []link.Link
	_, err = Links(strings.NewReader(body), testOptions(), func(l link.Link) error { links = append(links, l); return nil })
	require.NoError(t, err)
	require.Len(t, links, 2)
	assert.Equal(t, "表/a.html", links[0].Raw)
	assert.Equal(t, "http://ex.com/dir/表/a.html", links[0].URL)
}

// TestLegacyStyleSheet: the URLs of a <style> sheet in a legacy encoding
// are decoded before resolving and encoded again.
func TestLegacyStyleSheet(t *testing.T) {
	enc := japanese.ShiftJIS.NewEncoder()
	body, err := enc.String(`<meta charset="shift_jis"><style>a{b:url(表.png)} c{d:url(../表.png)}</style>`)
	require.NoError(t, err)
	opts := testOptions()
	opts.Context.Spec = resolve.WHATWG
	got, _ := rewrite(t, body, opts)
	want, err := enc.String(`<meta charset="shift_jis"><style>a{b:url(http://ex.com/dir/%E8%A1%A8.png)} c{d:url(http://ex.com/%E8%A1%A8.png)}</style>`)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestISO2022JPRefused: an ISO-2022-JP document is refused with a clear
// error, never rewritten as bytes (UTF-16 is decoded: TestUTF16).
func TestISO2022JPRefused(t *testing.T) {
	var out bytes.Buffer
	opts := testOptions()
	opts.ContentType = "text/html; charset=ISO-2022-JP"
	_, err := Rewrite(&out, strings.NewReader(`<a href="x">`), opts)
	assert.ErrorIs(t, err, ErrEncoding)
	assert.Contains(t, err.Error(), "iso-2022-jp")
	assert.Zero(t, out.Len())
}

// TestCharsetDefault: a document declaring nothing is read as UTF-8 when
// its first bytes are ASCII; windows-1252 only when they are not UTF-8.
func TestCharsetDefault(t *testing.T) {
	_, st := rewrite(t, `<a href="é.html">`, testOptions())
	assert.Equal(t, "utf-8", st.Charset)
	_, st = rewrite(t, `<meta charset=windows-1252><a href="x.html">`, testOptions())
	assert.Equal(t, "windows-1252", st.Charset)
	got, st := rewrite(t, "<a href=\"\xe9.html\">", testOptions())
	assert.Equal(t, "windows-1252", st.Charset)
	assert.Equal(t, "<a href=\"http://ex.com/dir/\xe9.html\">", got, "re-encoded in the document's encoding")
}
